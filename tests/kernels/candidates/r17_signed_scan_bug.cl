//xfail:NOT_ALL_VERIFIED
//--local_size=64 --num_groups=1

// bug: one down-sweep level too many: offset reaches 0 and every work item
// writes s[-1].  r17 with signed counters: `int d; d >>= 1` is an arithmetic shift (ASHR) and
// `int offset; offset /= 2` a signed division (SDIV); both halve while positive.
__kernel void scan(__global float *out, __local float *s) {
  int tid = get_local_id(0);
  int offset = 1;
  for (int d = 64; d > 0; d >>= 1) {
    barrier(CLK_LOCAL_MEM_FENCE);
    if (tid < d)
      s[offset * (2 * tid + 2) - 1] += s[offset * (2 * tid + 1) - 1];
    offset *= 2;
  }
  for (int d = 1; d < 256; d *= 2) {
    offset /= 2;
    barrier(CLK_LOCAL_MEM_FENCE);
    if (tid < d) {
      float t = s[offset * (2 * tid + 1) - 1];
      s[offset * (2 * tid + 1) - 1] = s[offset * (2 * tid + 2) - 1];
      s[offset * (2 * tid + 2) - 1] += t;
    }
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  out[tid] = s[tid];
}
