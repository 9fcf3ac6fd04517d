//xfail:NOT_ALL_VERIFIED
//--blockDim=128 --gridDim=16
//possible (write-read|read-write) race on .*buf\[
//extern_shared_bug_nobarrier.cu:1[01]:

// extern_shared.cu without the barrier.
extern __shared__ float buf[];

__global__ void reverse(float *d) {
  unsigned t = threadIdx.x, g = blockIdx.x * blockDim.x + t;
  buf[t] = d[g];
  d[g] = buf[blockDim.x - 1 - t];
}
