//pass
//--local_size=64 --num_groups=8

// Lock-free global maximum with a compare-and-swap loop (atomic_cmpxchg).
// The current value is read with an atomic too (atomic_or with 0), so every
// access to *result is atomic and no race is possible.
__kernel void global_max(__global const int *in, __global int *result) {
  int v = in[get_global_id(0)];
  int old = atomic_or(result, 0);
  while (old < v) {
    int seen = atomic_cmpxchg(result, old, v);
    if (seen == old)
      break;
    old = seen;
  }
}
