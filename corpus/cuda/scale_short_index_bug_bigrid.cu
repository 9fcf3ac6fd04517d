//xfail:NOT_ALL_VERIFIED
//--blockDim=* --gridDim=*
//possible (read-write|write-read|write-write) race on v\[
//scale_short_index_bug_bigrid.cu:11:
//Launch with blockDim = \(\d+, 1, 1\), gridDim = \(\d+, 1, 1\)

// scale_short_index.cu without its precondition: in a grid of more than 65536
// threads, threads 0 and 65536 both scale v[0] (the 16-bit index wraps).
__global__ void scale_short_index(float *v, float a) {
  unsigned short i = blockIdx.x * blockDim.x + threadIdx.x;
  v[i] *= a;
}
