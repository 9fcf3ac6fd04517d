//pass
//--blockDim=128 --gridDim=16

// Five-point 1-D stencil (radius 2) over 2048 elements, zero outside. Each
// block stages its 128 elements plus RADIUS halo cells on each side in shared
// memory; the first RADIUS threads load both halos.
#define RADIUS 2
#define BS 128
#define N 2048

__global__ void stencil(const float *in, float *out) {
  __shared__ float tile[BS + 2 * RADIUS];
  unsigned tid = threadIdx.x; __requires(blockDim.x == BS);
  unsigned gid = blockIdx.x * BS + tid;
  tile[tid + RADIUS] = in[gid];
  if (tid < RADIUS) {
    tile[tid] = gid >= RADIUS ? in[gid - RADIUS] : 0.0f;
    tile[tid + BS + RADIUS] = gid + BS < N ? in[gid + BS] : 0.0f;
  }
  __syncthreads();
  float sum = 0.0f;
  for (int k = -RADIUS; k <= RADIUS; k++)
    sum += tile[tid + RADIUS + k];
  out[gid] = sum;
}
