//pass
//--local_size=64 --num_groups=8

// Interleave two vectors: out = a0 b0 a1 b1 ...
__kernel void interleave(__global const int *a, __global const int *b,
                         __global int *out) {
  unsigned i = get_global_id(0);
  out[2 * i] = a[i];
  out[2 * i + 1] = b[i];
}
