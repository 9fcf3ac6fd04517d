//xfail:NOT_ALL_VERIFIED
//--local_size=64 --num_groups=8 --only-divergence
//only_divergence_bug_barrier.cl:10:[0-9]+: error: barrier may be reached by non-uniform control flow

// With --only-divergence a barrier under a thread-dependent loop bound is
// still reported.
__kernel void divergent(__global int *flag) {
  flag[0] = 1;
  for (unsigned i = 0; i < get_local_id(0); i++)
    barrier(CLK_GLOBAL_MEM_FENCE);
}
