//pass
//--blockDim=64 --gridDim=8

// Warp-level tree reduction in shared memory, Volta-safe (the pattern of NVIDIA's
// "Using CUDA Warp-Level Primitives"): each warp sums its own row of s.  Every step
// reads a partner's partial sum; __syncwarp separates those reads from the writes
// that follow and the writes from the next step's reads.  No __syncthreads: the two
// warps of the block never touch each other's row.
__global__ void warp_sum(const int *in, int *out) {
  __shared__ int s[2][64];
  unsigned t = threadIdx.x, warp = t / warpSize, lane = t % warpSize; __requires(blockDim.x == 64);
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
  __syncwarp();
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
