//xfail:NOT_ALL_VERIFIED
//--blockDim=64 --gridDim=8
//possible (write-read|read-write) race on .*tile
//memcpy_struct_bug_nobarrier.cu:1[34]:

// memcpy_struct.cu without the barrier: the neighbour's record may not have
// been copied into the tile yet.
struct Rec { int key; float w[3]; };

__global__ void rotate(const Rec *in, Rec *out) {
  __shared__ Rec tile[64];
  unsigned t = threadIdx.x, g = blockIdx.x * 64 + t;
  tile[t] = in[g];
  out[g] = tile[(t + 1) % 64];
}
