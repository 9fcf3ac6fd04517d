//xfail:NOT_ALL_VERIFIED
//--blockDim=128 --gridDim=16
//possible write-read race on .*tile\[
//Write by thread [0-9]+ in thread block [0-9]+ \(global id [0-9]+\), .*stencil1d_bug_nobarrier.cu:(17|19|20):
//Read by thread [0-9]+ in thread block [0-9]+ \(global id [0-9]+\), .*stencil1d_bug_nobarrier.cu:24:

// stencil1d.cu without the __syncthreads(): neighbour and halo cells are
// read before the threads that load them have written them.
#define RADIUS 2
#define BS 128
#define N 2048

__global__ void stencil(const float *in, float *out) {
  __shared__ float tile[BS + 2 * RADIUS];
  unsigned tid = threadIdx.x;
  unsigned gid = blockIdx.x * BS + tid;
  tile[tid + RADIUS] = in[gid];
  if (tid < RADIUS) {
    tile[tid] = gid >= RADIUS ? in[gid - RADIUS] : 0.0f;
    tile[tid + BS + RADIUS] = gid + BS < N ? in[gid + BS] : 0.0f;
  }
  float sum = 0.0f;
  for (int k = -RADIUS; k <= RADIUS; k++)
    sum += tile[tid + RADIUS + k];
  out[gid] = sum;
}
