//pass
//--blockDim=64 --gridDim=4

// Each thread block stages a tile in shared memory, scales it in place and writes each
// element's right neighbour.  Before the tile is rewritten every thread touches the
// element it needs next through a generic pointer (a prefetch whose value is
// discarded): the read still happens, so the barrier after it is needed.
__device__ float touch(const float *tile, unsigned i) {
  return tile[i];
}

__global__ void prefetch_touch(const float *in, float *out) {
  __shared__ float tile[64];
  unsigned tid = threadIdx.x, gid = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned next = (tid + 1) % 64;
  tile[tid] = in[gid];
  __syncthreads();
  touch(tile, next);
  __syncthreads();
  tile[tid] = 2.0f * tile[tid];
  __syncthreads();
  out[gid] = tile[next];
}
