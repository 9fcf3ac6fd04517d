//xfail:NOT_ALL_VERIFIED
//--local_size=128 --num_groups=32
//possible (atomic-read|read-atomic) race on counter\[0\]

// As atomic_counter_ext.cl, but the first work item also reads the counter
// with a plain load to publish a running total: the load races with the
// other work items' atomic increments.
#pragma OPENCL EXTENSION cl_ext_atomic_counters_32 : enable
__kernel void count_matches(__global const uint *input, uint value, counter32_t counter,
                            __global uint *total) {
  size_t gid = get_global_id(0);
  if (input[gid] == value)
    atomic_inc(counter);
  if (gid == 0)
    *total = *counter;
}
