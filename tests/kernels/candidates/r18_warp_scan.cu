//pass
//--blockDim=64 --gridDim=4 --warp-sync=32

// r18: warp-synchronous inclusive scan (pre-Volta style): warp 0 zero-pads s[0..31],
// warp 1 loads its 32 values into s[32..63], and after the barrier warp 1 alone scans
// them in place, each step adding a lower lane's partial sum.  Lock-step execution
// orders the instructions of warp-mates, so no access of the warp is in flight at
// the loop head; the group as a whole has some (warp 1's reads, seen by warp 0).
__global__ void warp_scan(int *data) {
  __shared__ volatile int s[64];
  unsigned t = threadIdx.x;
  s[t] = t < 32 ? 0 : data[blockIdx.x * 32 + t - 32];
  __syncthreads();
  if (t >= 32) {
    for (unsigned d = 1; d < 32; d <<= 1)
      s[t] += s[t - d];
    data[blockIdx.x * 32 + t - 32] = s[t];
  }
}
