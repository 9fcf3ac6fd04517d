//xfail:NOT_ALL_VERIFIED
//--local_size=64 --num_groups=8
//possible (read-atomic|atomic-read) race on result\[0\]
//Atomic by work item
//atomic_cas_max_bug_plainread.cl:12:
//atomic_cas_max_bug_plainread.cl:14:

// atomic_cas_max.cl reading the current maximum with a plain load: it races
// with the compare-and-swap of another work item.
__kernel void global_max(__global const int *in, __global int *result) {
  int v = in[get_global_id(0)];
  int old = *result;
  while (old < v) {
    int seen = atomic_cmpxchg(result, old, v);
    if (seen == old)
      break;
    old = seen;
  }
}
