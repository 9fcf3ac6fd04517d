//pass
//--local_size=64 --num_groups=8

// Three-point stencil out[i] = in[i-1] + in[i] + in[i+1] over 512 elements
// (zero outside). Each group stages its 64 elements plus one halo cell on
// each side in local memory; the first and last work items load the halos.
#define LS 64
#define N 512

__kernel void stencil(__global const float *in, __global float *out) {
  __local float tile[LS + 2];
  unsigned lid = get_local_id(0); __requires(get_local_size(0) == LS);
  unsigned gid = get_global_id(0);
  tile[lid + 1] = in[gid];
  if (lid == 0)
    tile[0] = gid > 0 ? in[gid - 1] : 0.0f;
  if (lid == LS - 1)
    tile[LS + 1] = gid + 1 < N ? in[gid + 1] : 0.0f;
  barrier(CLK_LOCAL_MEM_FENCE);
  out[gid] = tile[lid] + tile[lid + 1] + tile[lid + 2];
}
