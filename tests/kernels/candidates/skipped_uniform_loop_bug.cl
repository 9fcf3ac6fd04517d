//xfail:NOT_ALL_VERIFIED
//--local_size=64 --num_groups=1

// bug: every work item with a partner adds, so work item tid writes s[tid] while
// tid - stride reads it.  A uniform loop the kernel may skip (levels <= 1): the counter bound i >= 1 that
// the user invariant needs holds only when the work items enter the loop, so the
// candidates of such a loop are guarded by "entered" (vcgen/candidates/context.py).
__kernel void haar(__global float *out, __local float *s, unsigned levels) {
  unsigned tid = get_local_id(0);
  s[tid] = out[tid];
  barrier(CLK_LOCAL_MEM_FENCE);
  if (levels > 1) {
    unsigned stride = 1;
    for (unsigned i = 1; __invariant(stride == 1u << (i - 1)), i < levels && i < 7; ++i) {
      if (tid + stride < 64)
        s[tid] += s[tid + stride];
      stride <<= 1;
      barrier(CLK_LOCAL_MEM_FENCE);
    }
  }
  out[tid] = s[tid];
}
