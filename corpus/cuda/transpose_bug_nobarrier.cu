//xfail:NOT_ALL_VERIFIED
//--blockDim=[16,16] --gridDim=[8,8]
//possible write-read race on .*tile
//Write by thread \([0-9, ]+\) in thread block \([0-9, ]+\).*transpose_bug_nobarrier.cu:16:
//Read by thread \([0-9, ]+\) in thread block \([0-9, ]+\).*transpose_bug_nobarrier.cu:17:

// transpose.cu without __syncthreads() between filling the tile and reading
// it transposed.
#define TILE 16
#define WIDTH 128

__global__ void transpose(const float *in, float *out) {
  __shared__ float tile[TILE][TILE + 1];
  unsigned tx = threadIdx.x, ty = threadIdx.y;
  unsigned bx = blockIdx.x, by = blockIdx.y;
  tile[ty][tx] = in[(by * TILE + ty) * WIDTH + bx * TILE + tx];
  out[(bx * TILE + ty) * WIDTH + by * TILE + tx] = tile[tx][ty];
}
