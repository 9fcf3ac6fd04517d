//xfail:NOT_ALL_VERIFIED
//--blockDim=64 --gridDim=4 --warp-sync=32
//possible write-read race on .*s\[
//Write by thread [0-9]+ in thread block [0-9]+ \(global id [0-9]+\), .*warp_reduce_bug_crosswarp.cu:12:
//Read by thread [0-9]+ in thread block [0-9]+ \(global id [0-9]+\), .*warp_reduce_bug_crosswarp.cu:14:

// warp_reduce.cu reading s[t + 32], written by the other warp: lock-step
// execution only orders threads of the same warp.
__global__ void warp_reduce(int *out) {
  __shared__ volatile int s[64];
  unsigned t = threadIdx.x;
  s[t] = t;
  if (t < 16) {
    s[t] += s[t + 32];
    s[t] += s[t + 8];
  }
  if (t == 0)
    out[blockIdx.x] = s[0];
}
