//xfail:NOT_ALL_VERIFIED
//--blockDim=128 --gridDim=16
//possible write-read race on .*s\[0\]
//Write by thread [0-9]+ in thread block [0-9]+ \(global id [0-9]+\), .*normalize_bug_afterloop.cu:18:
//Read by thread [0-9]+ in thread block [0-9]+ \(global id [0-9]+\), .*normalize_bug_afterloop.cu:20:

// normalize.cu without the barrier after the loop: thread 0 writes the final
// sum into s[0] in the last step while the other threads already read it.
__global__ void center(const float *in, float *out) {
  __shared__ float s[128];
  unsigned tid = threadIdx.x;
  unsigned gid = blockIdx.x * blockDim.x + tid;
  float x = in[gid];
  s[tid] = x;
  for (unsigned stride = blockDim.x / 2; stride > 0; stride >>= 1) {
    __syncthreads();
    if (tid < stride)
      s[tid] += s[tid + stride];
  }
  out[gid] = x - s[0] / 128.0f;
}
