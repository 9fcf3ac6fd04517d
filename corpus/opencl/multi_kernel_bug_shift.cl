//xfail:NOT_ALL_VERIFIED
//--local_size=64 --num_groups=8 --kernel=shift
//possible (read-write|write-read) race on .*p\[

// multi_kernel.cl verifying the other kernel: shift reads p[i] while its
// left neighbour writes p[i].
__kernel void shift(__global int *p) {
  unsigned i = get_global_id(0);
  p[i + 1] = p[i];
}

__kernel void scale(__global int *p, int k) {
  unsigned i = get_global_id(0);
  p[i] = p[i] * k;
}
