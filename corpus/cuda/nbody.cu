//pass
//--blockDim=128 --gridDim=16

// Acceleration on 2048 bodies (array of structs), one body per thread, all
// bodies streamed through a 128-body shared tile. A softened 1/r^2 force
// (no square root, to stay within plain float arithmetic).
#define BS 128
#define NBODIES 2048

struct Body { float x, y, z, m; };
struct Vec { float x, y, z; };

__device__ Vec pull(Body me, Body other, Vec acc, float soft) {
  float dx = other.x - me.x, dy = other.y - me.y, dz = other.z - me.z;
  float s = other.m / (dx * dx + dy * dy + dz * dz + soft);
  acc.x += dx * s;
  acc.y += dy * s;
  acc.z += dz * s;
  return acc;
}

__global__ void nbody(const Body *bodies, Vec *accel, float soft) {
  __shared__ Body tile[BS];
  unsigned gid = blockIdx.x * BS + threadIdx.x; __requires(blockDim.x == BS && gridDim.x <= NBODIES / BS);
  Body me = bodies[gid];
  Vec acc = {0.0f, 0.0f, 0.0f};
  for (unsigned t = 0; t < NBODIES / BS; t++) {
    tile[threadIdx.x] = bodies[t * BS + threadIdx.x];
    __syncthreads();
    for (unsigned j = 0; j < BS; j++)
      acc = pull(me, tile[j], acc, soft);
    __syncthreads();
  }
  accel[gid] = acc;
}
