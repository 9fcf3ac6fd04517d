//pass
//--blockDim=256 --gridDim=256

// Scale a vector of at most 65536 elements in place, the index held in 16
// bits. The index wraps past 65535, so two threads would scale the same
// element in a larger grid: the kernel requires at most 65536 threads.
__global__ void scale_short_index(float *v, float a) {
  __requires(blockDim.x * gridDim.x <= 65536);
  unsigned short i = blockIdx.x * blockDim.x + threadIdx.x;
  v[i] *= a;
}
