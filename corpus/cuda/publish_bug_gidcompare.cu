//xfail:NOT_ALL_VERIFIED
//--blockDim=128 --gridDim=16
//possible write-write race on .*out\[
//Write by thread [0-9]+ in thread block [0-9]+ \(global id [0-9]+\), .*publish_bug_gidcompare.cu:16:

// Thread 0 publishes the block id in shared memory; after the barrier each
// thread checks it and writes out[threadIdx.x]. The check always succeeds,
// so all blocks write out[0..127] with different values: an inter-block race
// that the shared value's comparison with blockIdx.x must not hide.
__global__ void publish(unsigned *out) {
  __shared__ unsigned owner;
  if (threadIdx.x == 0)
    owner = blockIdx.x;
  __syncthreads();
  if (owner == blockIdx.x)
    out[threadIdx.x] = blockIdx.x;
}
