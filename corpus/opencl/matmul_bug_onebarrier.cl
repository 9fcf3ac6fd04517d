//xfail:NOT_ALL_VERIFIED
//--local_size=[16,16] --num_groups=[4,4]
//possible read-write race on .*(As|Bs)
//Read by work item \([0-9, ]+\) with local id \([0-9, ]+\) in work group \([0-9, ]+\), .*matmul_bug_onebarrier.cl:25:
//Write by work item \([0-9, ]+\) with local id \([0-9, ]+\) in work group \([0-9, ]+\), .*matmul_bug_onebarrier.cl:2[12]:

// matmul.cl without the second barrier: the loads of tile t + 1 overwrite
// As/Bs while slower work items still read tile t.
#define TILE 16
#define N 64

__kernel void matmul(__global const float *A, __global const float *B,
                     __global float *C) {
  __local float As[TILE][TILE];
  __local float Bs[TILE][TILE];
  unsigned tx = get_local_id(0), ty = get_local_id(1);
  unsigned row = get_group_id(1) * TILE + ty;
  unsigned col = get_group_id(0) * TILE + tx;
  float sum = 0.0f;
  for (unsigned t = 0; t < N / TILE; t++) {
    As[ty][tx] = A[row * N + t * TILE + tx];
    Bs[ty][tx] = B[(t * TILE + ty) * N + col];
    barrier(CLK_LOCAL_MEM_FENCE);
    for (unsigned k = 0; k < TILE; k++)
      sum += As[ty][k] * Bs[k][tx];
  }
  C[row * N + col] = sum;
}
