//xfail:NOT_ALL_VERIFIED
//--local_size=64 --num_groups=8
//possible (atomic-read|read-atomic) race on total\[0\]
//Atomic by work item
//atomic_sum_bug_intergroup.cl:13:
//atomic_sum_bug_intergroup.cl:16:

// atomic_sum.cl with one global total for all groups: the barrier orders the
// atomics of the reader's own group only, so work item 0 of one group may
// read total[0] while another group is still adding to it.
__kernel void group_sum(__global const int *in, __global int *total, __global int *out) {
  uint g = get_group_id(0);
  atomic_add(&total[0], in[get_global_id(0)]);
  barrier(CLK_GLOBAL_MEM_FENCE);
  if (get_local_id(0) == 0)
    out[g] = total[0];
}
