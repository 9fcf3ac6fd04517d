//pass
//--local_size=64 --num_groups=8

// Per-group sums with atomic_add on a global partial sum per group; after a
// global-fence barrier, work item 0 of the group reads its own group's sum
// and stores it. The plain read follows the group's atomics across a
// barrier, and no other group touches that element.
__kernel void group_sum(__global const int *in, __global int *partial, __global int *out) {
  uint g = get_group_id(0);
  atomic_add(&partial[g], in[get_global_id(0)]);
  barrier(CLK_GLOBAL_MEM_FENCE);
  if (get_local_id(0) == 0)
    out[g] = partial[g];
}
