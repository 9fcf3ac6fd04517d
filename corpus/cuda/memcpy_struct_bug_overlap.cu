//xfail:NOT_ALL_VERIFIED
//--blockDim=64 --gridDim=8
//possible write-write race on .*out
//memcpy_struct_bug_overlap.cu:13:

// Each thread copies a pair of records with memcpy starting at its own index:
// the ranges of threads g and g + 1 overlap in one record.
struct Rec { int key; float w[3]; };

__global__ void pairs(const Rec *in, Rec *out) {
  unsigned g = blockIdx.x * 64 + threadIdx.x;
  if (g + 1 < 512)
    __builtin_memcpy(&out[g], &in[2 * g], 2 * sizeof(Rec));
}
