//xfail:NOT_ALL_VERIFIED
//--blockDim=128 --gridDim=16
//possible write-write race on .*c\[
//Write by thread [0-9]+ in thread block [0-9]+ \(global id [0-9]+\), .*vector_add_bug_intergroup.cu:10:

// vector_add.cu indexing the output with threadIdx.x only: threads with the
// same threadIdx.x in different blocks write the same element.
__global__ void vector_add(const float *a, const float *b, float *c) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  c[threadIdx.x] = a[i] + b[i];
}
