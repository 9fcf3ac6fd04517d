//xfail:BUGLE_ERROR
//--local_size=64 --num_groups=8
//several kernels in the module; choose one with --kernel: shift, scale

// Two kernels and no --kernel: a clear error naming both.
__kernel void shift(__global int *p) {
  unsigned i = get_global_id(0);
  p[i + 1] = p[i];
}

__kernel void scale(__global int *p, int k) {
  unsigned i = get_global_id(0);
  p[i] = p[i] * k;
}
