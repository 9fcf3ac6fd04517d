//pass
//--local_size=64 --num_groups=8 --kernel=scale

// Two kernels in one file; --kernel chooses which one is verified.
__kernel void shift(__global int *p) {
  unsigned i = get_global_id(0);
  p[i + 1] = p[i];
}

__kernel void scale(__global int *p, int k) {
  unsigned i = get_global_id(0);
  p[i] = p[i] * k;
}
