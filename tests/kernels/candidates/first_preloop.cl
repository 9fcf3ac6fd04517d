//pass
//--local_size=32 --num_groups=2

// first: the loop runs at least once (i starts below the bound) and its first barrier
// clears the pre-loop writes to s; the loop itself only writes the lower half of s, so
// reading a neighbour's element of the upper half after the loop, without a barrier, is
// race-free.
__kernel void first_preloop(__global float *in, __global float *out) {
  __local float s[64];
  unsigned lid = get_local_id(0);
  unsigned gid = get_global_id(0);
  s[lid] = 0.0f;
  s[32 + lid] = in[gid];
  for (int i = 0; i < 4; i++) {
    barrier(CLK_LOCAL_MEM_FENCE);
    s[lid] = s[lid] * 0.5f + s[32 + lid];
  }
  out[gid] = s[lid] + s[32 + (lid ^ 1)];
}
