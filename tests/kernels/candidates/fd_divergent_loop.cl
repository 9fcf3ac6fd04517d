//xfail:NOT_ALL_VERIFIED
//--local_size=64 --num_groups=2

// Shape test only: each work item runs its own number of steps, so the loop
// and the pointer swap in it are not uniform and the bases get one copy per
// work item (rule fd generates their predicated equality, which Houdini proves).
// The kernel is race-free but does not verify today: no rule bounds the write
// log offset of a loop that the two work items leave at different times.
__kernel void own_steps(__global const int *len, __global float *out) {
  __local float a[64], b[64];
  size_t lid = get_local_id(0);
  __local float *src = a, *dst = b;
  for (int i = 0; i < len[lid]; i++) {
    dst[lid] = src[lid] + 1.0f;
    __local float *t = src; src = dst; dst = t;
  }
  out[get_global_id(0)] = src[lid];
}
