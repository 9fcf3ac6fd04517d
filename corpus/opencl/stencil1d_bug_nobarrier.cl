//xfail:NOT_ALL_VERIFIED
//--local_size=64 --num_groups=8
//possible write-read race on .*tile\[
//Write by work item [0-9]+ with local id [0-9]+ in work group [0-9]+, .*stencil1d_bug_nobarrier.cl:16:
//Read by work item [0-9]+ with local id [0-9]+ in work group [0-9]+, .*stencil1d_bug_nobarrier.cl:21:

// stencil1d.cl without the barrier: the neighbour cells tile[lid] and
// tile[lid + 2] are written by other work items (or by the halo loaders).
#define LS 64
#define N 512

__kernel void stencil(__global const float *in, __global float *out) {
  __local float tile[LS + 2];
  unsigned lid = get_local_id(0);
  unsigned gid = get_global_id(0);
  tile[lid + 1] = in[gid];
  if (lid == 0)
    tile[0] = gid > 0 ? in[gid - 1] : 0.0f;
  if (lid == LS - 1)
    tile[LS + 1] = gid + 1 < N ? in[gid + 1] : 0.0f;
  out[gid] = tile[lid] + tile[lid + 1] + tile[lid + 2];
}
