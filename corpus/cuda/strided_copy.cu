//pass
//--blockDim=128 --gridDim=16

// Gather every stride-th element into a dense vector (reads are strided, the
// writes dense). The precondition keeps gid * stride from wrapping, which
// would not race here but would read the wrong elements.
__global__ void gather(const int *in, int *out, unsigned stride) {
  __requires(stride >= 1 && stride <= 64);
  unsigned gid = blockIdx.x * blockDim.x + threadIdx.x;
  out[gid] = in[gid * stride];
}
