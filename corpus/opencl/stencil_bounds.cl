//pass
//--local_size=64 --num_groups=8 --check-array-bounds

// 3-point stencil with a halo, checked with --check-array-bounds: the local
// tile holds the group's 64 elements plus one halo cell on each side, so
// tile[lid + 2] (the right halo, written by the last work item) stays inside
// the 66-cell tile and the stencil reads tile[lid .. lid + 2].
#define TILE 64
__kernel void stencil3(__global const float *in, __global float *out, unsigned n) {
  __local float tile[TILE + 2];
  unsigned lid = get_local_id(0); __requires(get_local_size(0) == TILE);
  unsigned gid = get_global_id(0);
  tile[lid + 1] = in[gid + 1];
  if (lid == 0)
    tile[0] = in[gid];
  if (lid == TILE - 1)
    tile[TILE + 1] = in[gid + 2];
  barrier(CLK_LOCAL_MEM_FENCE);
  out[gid] = 0.25f * tile[lid] + 0.5f * tile[lid + 1] + 0.25f * tile[lid + 2];
}
