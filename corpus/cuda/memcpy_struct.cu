//pass
//--blockDim=64 --gridDim=8

// Struct assignment is llvm.memcpy: records staged in shared memory, rotated.
struct Rec { int key; float w[3]; };

__global__ void rotate(const Rec *in, Rec *out) {
  __requires(blockDim.x == 64 && gridDim.x <= 65536);
  __shared__ Rec tile[64];
  unsigned t = threadIdx.x, g = blockIdx.x * 64 + t;
  tile[t] = in[g];
  __syncthreads();
  out[g] = tile[(t + 1) % 64];
}
