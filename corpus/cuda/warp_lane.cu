//pass
//--blockDim=256 --gridDim=8

// Each thread records its lane and warp, computed in CUDA C++ from threadIdx.
__global__ void laneIds(unsigned int *lanes, unsigned int *warps) {
  unsigned int i = blockIdx.x * blockDim.x + threadIdx.x;
  lanes[i] = threadIdx.x % warpSize;
  warps[i] = threadIdx.x / warpSize;
}
