//xfail:GPUVERIFYVCGEN_ERROR
//--local_size=64 --num_groups=8
//strided_sum_bug_shortcircuit.cl:13:8:[\s]+user-specified invariant does not appear at loop head

// strided_sum.cl with the two invariants joined by &&: C evaluates the right
// operand only when the left one holds, so the invariant is evaluated through
// a branch after the loop head, not at it.  GPUVerify rejects such an
// invariant (write two __invariant calls, or use & / __implies).
__kernel void strided_sum(__global const float *in, __global float *out, unsigned n) {
  unsigned lid = get_local_id(0), g = get_group_id(0);
  float acc = 0.0f;
  for (unsigned i = lid;
       __invariant(i >= lid && i % 64 == lid),
       i < n; i += 64)
    acc += in[g * n + i];
  out[get_global_id(0)] = acc;
}
