//pass
//--local_size=64 --num_groups=8

// Each group produces its own 64-element slice of G and, after a barrier with
// a global fence, consumes that slice in reverse order. Only work items of
// the same group share a slice, so the barrier orders every conflict.
__kernel void produce_consume(__global int *G, __global int *out) {
  unsigned lid = get_local_id(0); __requires(get_local_size(0) == 64);
  unsigned base = get_group_id(0) * 64;
  G[base + lid] = 3 * (int)lid;
  barrier(CLK_GLOBAL_MEM_FENCE);
  out[base + lid] = G[base + 63 - lid];
}
