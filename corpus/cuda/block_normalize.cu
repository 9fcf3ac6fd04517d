//pass
//--blockDim=256 --gridDim=1

// Scale the tail of a vector (at most one block's worth of elements) by the
// reciprocal of a norm computed earlier: thread 0 loads the norm into shared
// memory, and after a barrier every thread scales its element v[threadIdx.x].
// The elements are indexed by thread id alone, so the kernel is written for a
// launch of one block, which the precondition states.
__global__ void block_normalize(float *v, const float *norm) {
  __requires(gridDim.x == 1);
  __shared__ float inv;
  if (threadIdx.x == 0)
    inv = 1.0f / norm[0];
  __syncthreads();
  v[threadIdx.x] *= inv;
}
