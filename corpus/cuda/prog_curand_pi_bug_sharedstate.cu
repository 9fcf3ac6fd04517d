//xfail:NOT_ALL_VERIFIED
//--blockDim=128 --gridDim=64
//possible [a-z]+-[a-z]+ race on states\[
//prog_curand_pi_bug_sharedstate.cu:15:

// The sampling loop draws from the block's first state instead of the thread's own:
// every curand call reads and updates that state, so the threads of a block race on it.
#include <cstdio>
#include <curand_kernel.h>

__global__ void countHits(curandState *states, unsigned int *hits, int trials) {
  unsigned int mine = 0;
  curandState *s = &states[blockIdx.x * blockDim.x];
  for (int t = 0; t < trials; t++) {
    float x = curand_uniform(s);
    float y = curand_uniform(s);
    if (x * x + y * y <= 1.0f)
      mine++;
  }
  atomicAdd(hits, mine);
}

int main() {
  const int blocks = 64, threads = 128;
  curandState *d_states;
  unsigned int *d_hits;
  cudaMalloc(&d_states, blocks * threads * sizeof(curandState));
  cudaMalloc(&d_hits, sizeof(unsigned int));
  countHits<<<blocks, threads>>>(d_states, d_hits, 1000);
  cudaDeviceSynchronize();
  return 0;
}
