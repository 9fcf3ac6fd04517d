//xfail:NOT_ALL_VERIFIED
//--blockDim=128 --gridDim=16
//possible (write-read|read-write) race on .*sdata\[
//Write by thread [0-9]+ in thread block [0-9]+ \(global id [0-9]+\), .*reduce_bug_nobarrier.cu:16:
//Read by thread [0-9]+ in thread block [0-9]+ \(global id [0-9]+\), .*reduce_bug_nobarrier.cu:16:

// reduce.cu without the __syncthreads() in the loop: step s reads
// sdata[tid + s], written by thread tid + s in the previous step.
__global__ void reduce(const int *in, int *block_sums) {
  __shared__ int sdata[128];
  unsigned tid = threadIdx.x;
  sdata[tid] = in[blockIdx.x * blockDim.x + tid];
  __syncthreads();
  for (unsigned s = blockDim.x / 2; s > 0; s >>= 1) {
    if (tid < s)
      sdata[tid] += sdata[tid + s];
  }
  if (tid == 0)
    block_sums[blockIdx.x] = sdata[0];
}
