//pass
//--blockDim=256 --gridDim=32

// Particles passed by value as a structure of device arrays (the usual layout of
// particle and n-body codes): each pointer member is its own device buffer, each thread
// advances its own particle.
struct Particles {
  float *x;
  float *y;
  const float *vx;
  const float *vy;
  int n;
};

__global__ void advance(Particles p, float dt) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < p.n) {
    p.x[i] += p.vx[i] * dt;
    p.y[i] += p.vy[i] * dt;
  }
}
