//pass
//--blockDim=[8,8,4] --gridDim=[2,2,2]

// Copy a 16x16x8 volume into a padded 18x18x10 one (3-D launch, one-cell border).
#define NX 16
#define NY 16
#define NZ 8

__global__ void pad3d(const float *in, float *out) {
  __requires(blockDim.x * gridDim.x == NX && blockDim.y * gridDim.y == NY && blockDim.z * gridDim.z == NZ);
  unsigned x = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned y = blockIdx.y * blockDim.y + threadIdx.y;
  unsigned z = blockIdx.z * blockDim.z + threadIdx.z;
  out[((z + 1) * (NY + 2) + y + 1) * (NX + 2) + x + 1] = in[(z * NY + y) * NX + x];
}
