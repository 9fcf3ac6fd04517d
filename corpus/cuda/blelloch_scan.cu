//pass
//--blockDim=128 --gridDim=16

// Work-efficient exclusive scan (Blelloch) of a 256-element block, two
// elements per thread, in the classic form with two power-of-two variables
// (d halves while offset doubles). No user invariants: verifying it needs
// pow2 and relationalPow2 candidates (d * offset == 128, then offset * d == 256).
#define N 256

__global__ void blelloch(const int *in, int *out) {
  __requires(blockDim.x == N / 2 && gridDim.x <= 65536);
  __shared__ int temp[N];
  unsigned tid = threadIdx.x;
  const int *src = in + blockIdx.x * N;
  temp[2 * tid] = src[2 * tid];
  temp[2 * tid + 1] = src[2 * tid + 1];
  unsigned offset = 1;
  for (unsigned d = N / 2; d > 0; d >>= 1) {
    __syncthreads();
    if (tid < d) {
      unsigned ai = offset * (2 * tid + 1) - 1;
      unsigned bi = offset * (2 * tid + 2) - 1;
      temp[bi] += temp[ai];
    }
    offset *= 2;
  }
  __syncthreads();
  if (tid == 0)
    temp[N - 1] = 0;
  for (unsigned d = 1; d < N; d *= 2) {
    offset >>= 1;
    __syncthreads();
    if (tid < d) {
      unsigned ai = offset * (2 * tid + 1) - 1;
      unsigned bi = offset * (2 * tid + 2) - 1;
      int t = temp[ai];
      temp[ai] = temp[bi];
      temp[bi] += t;
    }
  }
  __syncthreads();
  out[blockIdx.x * N + 2 * tid] = temp[2 * tid];
  out[blockIdx.x * N + 2 * tid + 1] = temp[2 * tid + 1];
}
