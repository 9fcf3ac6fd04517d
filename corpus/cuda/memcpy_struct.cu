//pass
//--blockDim=64 --gridDim=8

// Struct assignment becomes llvm.memcpy: each thread stages its record in a
// shared tile, then copies its neighbour's record out after a barrier.
struct Rec { int key; float w[3]; };

__global__ void rotate(const Rec *in, Rec *out) {
  __shared__ Rec tile[64];
  unsigned t = threadIdx.x, g = blockIdx.x * 64 + t;
  tile[t] = in[g];
  __syncthreads();
  out[g] = tile[(t + 1) % 64];
}
