//xfail:NOT_ALL_VERIFIED
//--blockDim=128 --gridDim=16
//possible write-write race on .*buf\[
//Write by thread [0-9]+ in thread block [0-9]+ \(global id [0-9]+\), .*interleave_bug_offbyone.cu:13:
//Write by thread [0-9]+ in thread block [0-9]+ \(global id [0-9]+\), .*interleave_bug_offbyone.cu:14:

// interleave.cu with an off-by-one in the second staging index: thread tid
// writes buf[2 * tid + 2], which is thread tid + 1's buf[2 * (tid + 1)].
__global__ void interleave(const int *a, const int *b, int *out) {
  __shared__ int buf[258];
  unsigned tid = threadIdx.x;
  unsigned gid = blockIdx.x * blockDim.x + tid;
  buf[2 * tid] = a[gid];
  buf[2 * tid + 2] = b[gid];
  __syncthreads();
  out[blockIdx.x * 256 + tid] = buf[tid];
  out[blockIdx.x * 256 + tid + 128] = buf[tid + 128];
}
