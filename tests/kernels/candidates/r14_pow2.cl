//pass
//--local_size=64 --num_groups=1

// r14 (pow2): tree reduction; s being a power of two keeps lid + s from wrapping.
__kernel void pow2(__local int *a) {
  unsigned lid = get_local_id(0);
  for (unsigned s = 32; s > 0; s >>= 1) {
    if (lid < s)
      a[lid] += a[lid + s];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
}
