//xfail:NOT_ALL_VERIFIED
//--local_size=64 --num_groups=8 --check-array-bounds
//stencil_bounds_bug_halo.cl:19:20: error: possible array out-of-bounds access on array tile
//tile\[TILE \+ 1\] = in\[gid \+ 2\];

// stencil_bounds.cl with the tile declared one halo cell short (TILE + 1
// cells): the last work item's right-halo write tile[TILE + 1] is outside
// the array. Without --check-array-bounds the kernel verifies: the write
// races with nothing.
#define TILE 64
__kernel void stencil3(__global const float *in, __global float *out, unsigned n) {
  __local float tile[TILE + 1];
  unsigned lid = get_local_id(0);
  unsigned gid = get_global_id(0);
  tile[lid + 1] = in[gid + 1];
  if (lid == 0)
    tile[0] = in[gid];
  if (lid == TILE - 1)
    tile[TILE + 1] = in[gid + 2];
  barrier(CLK_LOCAL_MEM_FENCE);
  out[gid] = 0.25f * tile[lid] + 0.5f * tile[lid + 1] + 0.25f * tile[lid + 2];
}
