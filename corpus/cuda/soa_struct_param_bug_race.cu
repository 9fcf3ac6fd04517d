//xfail:NOT_ALL_VERIFIED
//--blockDim=256 --gridDim=32
//possible (read-write|write-read) race on p\.y\[

// As soa_struct_param.cu, with a smoothing step that reads the neighbour's y while the
// neighbour updates it: the race is reported on the member's array, p.y.
struct Particles {
  float *x;
  float *y;
  const float *vx;
  const float *vy;
  int n;
};

__global__ void advance_smoothed(Particles p, float dt) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i + 1 < p.n) {
    p.x[i] += p.vx[i] * dt;
    p.y[i] = 0.5f * (p.y[i] + p.y[i + 1]) + p.vy[i] * dt;
  }
}
