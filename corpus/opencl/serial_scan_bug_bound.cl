//xfail:NOT_ALL_VERIFIED
//--local_size=1 --num_groups=1
//serial_scan_bug_bound.cl:17:3: error: this assertion might not hold for work item 0 with local id 0 in work group 0

// serial_scan.cl with an off-by-one loop bound (i <= n): it reads and writes
// one element too many and leaves i == n + 1.  A one-thread launch still
// checks the work item's assertion (before, the distinctness of the two
// threads made such launches vacuous).
__kernel void serial_scan(__global const int *in, __global int *out, int n) {
  __requires(n >= 0);
  __requires(n <= 1024);
  int acc = 0, i;
  for (i = 0; __invariant(i <= n + 1), i <= n; i++) {
    acc += in[i];
    out[i] = acc;
  }
  __assert(i == n);
}
