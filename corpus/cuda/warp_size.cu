//pass
//--blockDim=128 --gridDim=16

// warpSize partitions a block into warps; each lane writes one slot of its
// warp's segment.
__global__ void lanes(int *out) {
  unsigned t = threadIdx.x;
  unsigned warp = t / warpSize, lane = t % warpSize;
  out[blockIdx.x * blockDim.x + warp * warpSize + lane] = (int)lane;
}
