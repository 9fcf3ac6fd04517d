//xfail:NOT_ALL_VERIFIED
//--blockDim=[8,8,4] --gridDim=[2,2,2]
//possible write-write race on .*out\[
//Write by thread \([0-9, ]+\) in thread block \([0-9, ]+\).*copy3d_bug_blockoffset.cu:17:

// copy3d.cu with the z coordinate computed as blockIdx.z + threadIdx.z (the
// multiplication by blockDim.z forgotten): thread z = 1 of block 0 and
// thread z = 0 of block 1 copy into the same plane.
#define NX 16
#define NY 16
#define NZ 8

__global__ void pad3d(const float *in, float *out) {
  unsigned x = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned y = blockIdx.y * blockDim.y + threadIdx.y;
  unsigned z = blockIdx.z + threadIdx.z;
  out[((z + 1) * (NY + 2) + y + 1) * (NX + 2) + x + 1] = in[(z * NY + y) * NX + x];
}
