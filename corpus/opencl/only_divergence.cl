//pass
//--local_size=64 --num_groups=8 --only-divergence
//no barrier divergence

// A racy kernel (all work items write flag[0]) whose barriers are all
// reached uniformly: --only-divergence checks barrier divergence only.
__kernel void racy_but_uniform(__global int *flag, unsigned n) {
  flag[0] = get_local_id(0);
  for (unsigned i = 0; i < n; i++)
    barrier(CLK_GLOBAL_MEM_FENCE);
}
