//pass
//--local_size=64 --num_groups=8

// Row sums of a 512 x n matrix with user annotations: a precondition on n,
// a loop invariant written in the loop condition, and assertions that the
// row index is in range and the loop ran exactly n times.
__kernel void row_sums(__global const int *m, __global int *sums, unsigned n) {
  __requires(n >= 1 && n <= 64); __requires(get_global_size(0) <= 512);
  unsigned row = get_global_id(0);
  __assert(row < 512);
  int s = 0;
  unsigned j;
  for (j = 0; __invariant(j <= n), j < n; j++)
    s += m[row * n + j];
  __assert(j == n);
  sums[row] = s;
}
