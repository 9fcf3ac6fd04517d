__global__ void extras(int *out) {
  int c = __syncthreads_count(threadIdx.x < 3);
  __threadfence();
  out[threadIdx.x] = c + __umul24(threadIdx.x, 7u) + __mul24(-2, 5);
}
