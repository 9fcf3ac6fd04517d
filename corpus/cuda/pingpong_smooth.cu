//pass
//--blockDim=128 --gridDim=16

// Jacobi-style smoothing of a 128-element block held in shared memory, with
// the two halves of one __shared__ array used as ping-pong buffers selected
// through pointers (cur / nxt swap after every sweep, guarded by
// __syncthreads()).  The boundary elements keep their values.
#define N 128

__global__ void pingpongSmooth(const float *in, float *out, int sweeps) {
  __shared__ float buf[2 * N];
  unsigned int tid = threadIdx.x; __requires(blockDim.x == N);
  unsigned int i = blockIdx.x * blockDim.x + tid;

  buf[tid] = in[i];
  buf[N + tid] = in[i];
  __syncthreads();

  float *cur = buf;
  float *nxt = buf + N;
  for (int s = 0; s < sweeps; s++) {
    if (tid > 0 && tid < N - 1)
      nxt[tid] = (cur[tid - 1] + cur[tid] + cur[tid + 1]) / 3.0f;
    else
      nxt[tid] = cur[tid];
    __syncthreads();
    float *t = cur;
    cur = nxt;
    nxt = t;
  }
  out[i] = cur[tid];
}
