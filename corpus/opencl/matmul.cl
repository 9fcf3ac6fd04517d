//pass
//--local_size=[16,16] --num_groups=[4,4]

// C = A * B for 64x64 row-major matrices, tiled through local memory. Two
// barriers per tile: after loading (reads see the whole tile) and after the
// inner product (the next load must not overwrite values still being read).
#define TILE 16
#define N 64

__kernel void matmul(__global const float *A, __global const float *B,
                     __global float *C) {
  __local float As[TILE][TILE];
  __local float Bs[TILE][TILE];
  unsigned tx = get_local_id(0), ty = get_local_id(1); __requires(get_local_size(0) == TILE && get_local_size(1) == TILE);
  unsigned row = get_group_id(1) * TILE + ty; __requires(get_num_groups(0) <= N / TILE && get_num_groups(1) <= N / TILE);
  unsigned col = get_group_id(0) * TILE + tx;
  float sum = 0.0f;
  for (unsigned t = 0; t < N / TILE; t++) {
    As[ty][tx] = A[row * N + t * TILE + tx];
    Bs[ty][tx] = B[(t * TILE + ty) * N + col];
    barrier(CLK_LOCAL_MEM_FENCE);
    for (unsigned k = 0; k < TILE; k++)
      sum += As[ty][k] * Bs[k][tx];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  C[row * N + col] = sum;
}
