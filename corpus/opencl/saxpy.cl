//pass
//--local_size=64 --num_groups=8

// y := alpha * x + y, guarded against a vector length that is not a multiple
// of the launch size.
__kernel void saxpy(__global const float *x, __global float *y, float alpha,
                    unsigned n) {
  unsigned i = get_global_id(0);
  if (i < n)
    y[i] = alpha * x[i] + y[i];
}
