//pass
//--local_size=64 --num_groups=8

// Per-work-item partial sums over a strided row, with the loop invariants
// written at the loop head as separate __invariant calls (GPUVerify's rule: an
// invariant is evaluated at the loop head, before the condition branches).
__kernel void strided_sum(__global const float *in, __global float *out, unsigned n) {
  unsigned lid = get_local_id(0), g = get_group_id(0); __requires(get_local_size(0) == 64);
  float acc = 0.0f;
  for (unsigned i = lid;
       __invariant(i >= lid), __invariant(i % 64 == lid),
       i < n; i += 64)
    acc += in[g * n + i];
  out[get_global_id(0)] = acc;
}
