//pass
//--local_size=64 --num_groups=8

// y = A x for a 512 x n row-major matrix: one row per work item.
__kernel void matvec(__global const float *A, __global const float *x,
                     __global float *y, unsigned n) {
  unsigned row = get_global_id(0);
  float sum = 0.0f;
  for (unsigned j = 0; j < n; j++)
    sum += A[row * n + j] * x[j];
  y[row] = sum;
}
