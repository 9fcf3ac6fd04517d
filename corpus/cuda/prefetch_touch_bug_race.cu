//xfail:NOT_ALL_VERIFIED
//--blockDim=64 --gridDim=4
//possible read-write race on tile\[
//Read by thread [0-9]+ in thread block [0-9]+ \(global id [0-9]+\), .*prefetch_touch_bug_race.cu:14:
//return tile\[i\];
//Write by thread [0-9]+ in thread block [0-9]+ \(global id [0-9]+\), .*prefetch_touch_bug_race.cu:24:

// Each thread block stages a tile in shared memory, scales it in place and writes each
// element's right neighbour.  Before the tile is rewritten every thread touches the
// element it needs next through a generic pointer (a prefetch whose value is
// discarded): the read still happens, so the barrier after it is needed.  Bug: that
// barrier is missing; the discarded read of tile[tid + 1] races with its owner's write.
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
  tile[tid] = 2.0f * tile[tid];
  __syncthreads();
  out[gid] = tile[next];
}
