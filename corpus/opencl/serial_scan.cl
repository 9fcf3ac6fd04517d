//pass
//--local_size=1 --num_groups=1

// Inclusive prefix sum computed by a single work item (a one-thread launch, as
// polyhedral code generators emit for sequential parts).  No race is possible,
// but the assertion is still checked for that work item, and the launch is not
// "vacuous" although no second work item exists.
__kernel void serial_scan(__global const int *in, __global int *out, int n) {
  __requires(n >= 0); __requires(get_local_size(0) == 1 && get_num_groups(0) == 1);
  __requires(n <= 1024);
  int acc = 0, i;
  for (i = 0; __invariant(i <= n), i < n; i++) {
    acc += in[i];
    out[i] = acc;
  }
  __assert(i == n);
}
