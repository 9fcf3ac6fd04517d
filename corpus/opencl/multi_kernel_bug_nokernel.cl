//xfail:NOT_ALL_VERIFIED
//--local_size=64 --num_groups=8
//possible [a-z]+-[a-z]+ race on p\[
//multi_kernel_bug_nokernel.cl:10:

// Two kernels and no --kernel: both are verified, and the race in the first is reported
// although the second is correct.
__kernel void shift(__global int *p) {
  unsigned i = get_global_id(0);
  p[i + 1] = p[i];
}

__kernel void scale(__global int *p, int k) {
  unsigned i = get_global_id(0);
  p[i] = p[i] * k;
}
