//pass
//--local_size=128 --num_groups=32

// Counting matches with an atomic counter of the cl_ext_atomic_counters_32
// extension (AMD SDK style): every work item compares its element and
// increments the shared counter with atomic_inc.
#pragma OPENCL EXTENSION cl_ext_atomic_counters_32 : enable
__kernel void count_matches(__global const uint *input, uint value, counter32_t counter) {
  size_t gid = get_global_id(0);
  if (input[gid] == value)
    atomic_inc(counter);
}
