//pass
//--blockDim=1 --gridDim=1

// Inclusive prefix sum computed by a single thread (a one-thread launch, as
// polyhedral code generators emit for sequential parts).  No race is possible,
// but the assertion is still checked for that thread, and the launch is not
// "vacuous" although no second thread exists.
__global__ void serial_scan(const int *in, int *out, int n) {
  __requires(n >= 0); __requires(blockDim.x == 1 && gridDim.x == 1);
  __requires(n <= 1024);
  int acc = 0, i;
  for (i = 0; __invariant(i <= n), i < n; i++) {
    acc += in[i];
    out[i] = acc;
  }
  __assert(i == n);
}
