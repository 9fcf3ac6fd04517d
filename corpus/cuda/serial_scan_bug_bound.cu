//xfail:NOT_ALL_VERIFIED
//--blockDim=1 --gridDim=1
//serial_scan_bug_bound.cu:17:3: error: this assertion might not hold for thread 0 in thread block 0

// serial_scan.cu with an off-by-one loop bound (i <= n): it reads and writes
// one element too many and leaves i == n + 1.  A one-thread launch still
// checks the thread's assertion (before, the distinctness of the two threads
// made such launches vacuous).
__global__ void serial_scan(const int *in, int *out, int n) {
  __requires(n >= 0);
  __requires(n <= 1024);
  int acc = 0, i;
  for (i = 0; __invariant(i <= n + 1), i <= n; i++) {
    acc += in[i];
    out[i] = acc;
  }
  __assert(i == n);
}
