//pass
//--local_size=64 --num_groups=16

// Matrix-vector product y = A x, one row per work item, x staged through local memory
// in tiles of 64.  The dot product of a row segment with the staged tile comes from a
// vendor math library shipped without source: its contract is a specification function
// (it reads its two inputs, any element of them, and returns the sum), as is the
// routine that scales and stores the result (it touches only the caller's element of y).

#define TILE 64

float __spec_vendor_sdot(__global const float *a, __local const float *b, int len) {
  __requires(len > 0);
  __reads_from(a, b);
  return 0.0f;
}

// y[i] = alpha * v + beta * y[i] for the caller's global id i
void __spec_vendor_axpby_store(__global float *y, float v, float alpha, float beta) {
  __reads_from(y);
  __writes_to(y);
  __ensures(__read_implies(y, __read_offset_bytes(y) / sizeof(float) == get_global_id(0)));
  __ensures(__write_implies(y, __write_offset_bytes(y) / sizeof(float) == get_global_id(0)));
}

__kernel void gemv_tiled(__global const float *A, __global const float *x, __global float *y, int n,
                         float alpha, float beta) {
  __requires(n > 0);
  __local float xs[TILE];
  size_t row = get_global_id(0);
  size_t lid = get_local_id(0);
  float acc = 0.0f;
  for (int t = 0; t < n; t += TILE) {
    xs[lid] = x[t + lid];
    barrier(CLK_LOCAL_MEM_FENCE);
    acc += __spec_vendor_sdot(A + row * n + t, xs, TILE);
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  __spec_vendor_axpby_store(y, acc, alpha, beta);
}
