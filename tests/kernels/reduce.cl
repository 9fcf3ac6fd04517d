// Tree reduction in local memory.
#ifndef N
#define N 128
#endif
__kernel void reduce(__global int *in, __global int *out, __local int *tmp) {
  __requires(get_local_size(0) == N);
  unsigned lid = get_local_id(0);
  tmp[lid] = in[get_global_id(0)];
  barrier(CLK_LOCAL_MEM_FENCE);
  for (unsigned s = N / 2; __invariant(s <= N / 2), s > 0; s >>= 1) {
    if (lid < s)
      tmp[lid] += tmp[lid + s];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (lid == 0)
    out[get_group_id(0)] = tmp[0];
}
