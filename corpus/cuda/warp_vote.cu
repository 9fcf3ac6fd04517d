//pass
//--blockDim=64 --gridDim=4 --warp-sync=32

// Each lane of the first warp records its vote in its own slot; lane 0 reads
// a neighbour's slot afterwards, ordered by warp lock-step execution.
__global__ void vote(int *winner) {
  __shared__ volatile int slot[32];
  if (threadIdx.x < 32) {
    slot[threadIdx.x] = threadIdx.x;
    if (threadIdx.x == 0)
      winner[blockIdx.x] = slot[1];
  }
}
