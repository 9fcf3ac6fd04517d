//xfail:NOT_ALL_VERIFIED
//--blockDim=128 --gridDim=16
//possible write-read race on .*scratch\[
//Write by thread [0-9]+ in thread block 0 \(global id [0-9]+\), .*produce_consume_bug_intergroup.cu:12:
//Read by thread [0-9]+ in thread block 1 \(global id [0-9]+\), .*produce_consume_bug_intergroup.cu:15:

// Block 0 fills the scratch buffer and block 1 reads it after
// __syncthreads(), which only synchronizes the threads of one block.
__global__ void reverse_via_global(int *scratch, int *out) {
  unsigned tid = threadIdx.x;
  if (blockIdx.x == 0)
    scratch[tid] = 5 * (int)tid;
  __syncthreads();
  if (blockIdx.x == 1)
    out[tid] = scratch[127 - tid];
}
