//xfail:NOT_ALL_VERIFIED
//--local_size=64 --num_groups=8
//assertion_bug_wrong.cl:10:[0-9]+: error: this assertion might not hold for work item [0-9]+ with local id [0-9]+ in work group [0-9]+

// assertion.cl with a wrong assertion: the author assumed one group of 256
// work items, but 512 are launched (work items 256..511 violate it).
__kernel void row_sums(__global const int *m, __global int *sums, unsigned n) {
  __requires(n >= 1 && n <= 64);
  unsigned row = get_global_id(0);
  __assert(row < 256);
  int s = 0;
  for (unsigned j = 0; __invariant(j <= n), j < n; j++)
    s += m[row * n + j];
  sums[row] = s;
}
