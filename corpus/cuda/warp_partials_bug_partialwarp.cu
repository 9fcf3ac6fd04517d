//xfail:NOT_ALL_VERIFIED
//--blockDim=* --gridDim=*
//possible write-write race on partial\[
//warp_partials_bug_partialwarp.cu:18:
//Launch with blockDim = \(\d+, 1, 1\), gridDim = \(\d+, 1, 1\)

// warp_partials.cu without its precondition: with a block size that is not
// a multiple of 32 (say 48), lane 0 of the second warp of block 0 (global id
// 32) and thread 0 of block 1 (global id 48) both write partial[1].
#define WARP 32

__global__ void warp_partials(const int *in, int *partial) {
  unsigned gid = blockIdx.x * blockDim.x + threadIdx.x;
  int v = in[gid];
  for (int offset = WARP / 2; offset > 0; offset /= 2)
    v += __shfl_down_sync(0xffffffff, v, offset);
  if (threadIdx.x % WARP == 0)
    partial[gid / WARP] = v;
}
