//xfail:NOT_ALL_VERIFIED
//--blockDim=64 --gridDim=8
//possible read-write race on .*s\[
//Read by thread [0-9]+ in thread block [0-9]+ \(global id [0-9]+\), .*syncwarp_reduce_bug_missing.cu:25:
//Write by thread [0-9]+ in thread block [0-9]+ \(global id [0-9]+\), .*syncwarp_reduce_bug_missing.cu:26:

// syncwarp_reduce.cu without the __syncwarp between the reads and the writes of the
// third step: lane i may overwrite s[warp][i] before lane i - 4 has read it.  A race on
// Volta and later, where the lanes of a warp are scheduled independently.
__global__ void warp_sum(const int *in, int *out) {
  __shared__ int s[2][64];
  unsigned t = threadIdx.x, warp = t / warpSize, lane = t % warpSize;
  s[warp][lane] = in[blockIdx.x * blockDim.x + t];
  s[warp][lane + 32] = 0;
  __syncwarp();
  int v = s[warp][lane];
  v += s[warp][lane + 16];
  __syncwarp();
  s[warp][lane] = v;
  __syncwarp();
  v += s[warp][lane + 8];
  __syncwarp();
  s[warp][lane] = v;
  __syncwarp();
  v += s[warp][lane + 4];
  s[warp][lane] = v;
  __syncwarp();
  v += s[warp][lane + 2];
  __syncwarp();
  s[warp][lane] = v;
  __syncwarp();
  v += s[warp][lane + 1];
  __syncwarp();
  s[warp][lane] = v;
  __syncwarp();
  if (lane == 0)
    out[blockIdx.x * 2 + warp] = v;
}
