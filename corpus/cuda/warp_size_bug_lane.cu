//xfail:NOT_ALL_VERIFIED
//--blockDim=128 --gridDim=16
//possible write-write race on .*out\[

// warp_size.cu indexing by lane only: the warps of a block collide.
__global__ void lanes(int *out) {
  unsigned t = threadIdx.x;
  unsigned lane = t % warpSize;
  out[blockIdx.x * blockDim.x + lane] = (int)t;
}
