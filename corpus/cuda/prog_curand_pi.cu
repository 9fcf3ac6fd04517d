//pass
//--blockDim=128 --gridDim=64

// Monte Carlo estimate of pi with the cuRAND device API: one XORWOW state per thread
// (initialised by its own kernel), each thread counts its hits and adds them to a
// global counter with atomicAdd.  Both kernels of the file are verified.
#include <cstdio>
#include <curand_kernel.h>

__global__ void setupStates(curandState *states, unsigned long long seed) {
  int id = blockIdx.x * blockDim.x + threadIdx.x;
  curand_init(seed, id, 0, &states[id]);
}

__global__ void countHits(curandState *states, unsigned int *hits, int trials) {
  int id = blockIdx.x * blockDim.x + threadIdx.x;
  curandState local = states[id];
  unsigned int mine = 0;
  for (int t = 0; t < trials; t++) {
    float x = curand_uniform(&local);
    float y = curand_uniform(&local);
    if (x * x + y * y <= 1.0f)
      mine++;
  }
  states[id] = local;
  atomicAdd(hits, mine);
}

int main() {
  const int blocks = 64, threads = 128, trials = 1000;
  curandState *d_states;
  unsigned int *d_hits, h_hits = 0;
  cudaMalloc(&d_states, blocks * threads * sizeof(curandState));
  cudaMalloc(&d_hits, sizeof(unsigned int));
  cudaMemset(d_hits, 0, sizeof(unsigned int));
  setupStates<<<blocks, threads>>>(d_states, 1234ULL);
  countHits<<<blocks, threads>>>(d_states, d_hits, trials);
  cudaMemcpy(&h_hits, d_hits, sizeof(unsigned int), cudaMemcpyDeviceToHost);
  printf("pi ~ %f\n", 4.0 * h_hits / ((double)blocks * threads * trials));
  cudaFree(d_states);
  cudaFree(d_hits);
  return 0;
}
