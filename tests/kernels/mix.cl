// Scalar before pointers: element types come from kernel_arg_type by position.
__kernel void mix(int n, __global uint *p, __global float *f) {
#ifndef NO_REQ
  if (n > 0)
    __requires(n < 100);
#endif
  p[get_global_id(0)] = n;
  f[0] = 1.0f;
}
