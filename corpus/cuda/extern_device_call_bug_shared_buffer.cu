//xfail:NOT_ALL_VERIFIED
//--blockDim=128 --gridDim=16
//possible (write-write|read-write|write-read) race on hist
//extern_device_call_bug_shared_buffer.cu:17:5

// A histogram update done by an external device function: every thread hands it the
// same global histogram, so the function's accesses to it race (the call reads and
// writes memory the verifier cannot see, at any offset).

__device__ void add_sample(unsigned *hist, float value);

__global__ void histogram(const float *samples, unsigned *hist, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float v = samples[i];
    if (v >= 0.0f)
    add_sample(hist, v);
  }
}
