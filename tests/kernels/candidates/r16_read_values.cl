//pass
//--local_size=32 --num_groups=8

// r16 and values read from global memory: the row loop starts at the group id (not
// uniform), so its counter gets r16 candidates; the running sum and the last element
// read come from reads of an adversarial array, a fresh value per thread, and get none.
__kernel void row_sums(__global const float *m, __global float *sums, int n) {
  __requires(n == 256);
  long g = get_group_id(0), t = get_local_id(0);
  for (long r = g; r < n; r += 8) {
    float acc = 0.0f, last = 0.0f;
    for (long c = t; c < n; c += 32) {
      last = m[r * n + c];
      acc += last;
    }
    sums[r * 32 + t] = acc - last;
  }
}
