// gpuverify on a whole CUDA program without size flags: each kernel is verified with the
// sizes of its <<<...>>> launches (bugle launches), one run per distinct configuration
// (two launches with the same sizes are verified once, and both are named); a race
// report says which launch it belongs to, a proof lists the launches it covers.  Size flags
// win over the host code; --no-launch-inference gives symbolic sizes.
// RUN: %python %S/../verify/Inputs/expect_exit.py 6 %gpuverify %s > %t.out
// RUN: %FileCheck %s < %t.out
// RUN: %gpuverify -D FIXED %s | %FileCheck %s --check-prefix=FIXED
// RUN: %gpuverify --blockDim=64 --gridDim=4 %s | %FileCheck %s --check-prefix=FLAGS
// RUN: %python %S/../verify/Inputs/expect_exit.py 6 %gpuverify -D FIXED --no-launch-inference %s | %FileCheck %s --check-prefix=OFF
// CHECK: launch_inference.cu: error: possible write-write race on out[{{[0-9]+}}]:
// CHECK: Launch with blockDim = (128, 1, 1), gridDim = (4, 1, 1)
// CHECK-NEXT: Launched at {{.*}}launch_inference.cu:40:{{[0-9]+}} (sizes read from the host code)
// CHECK-NOT: launch_inference.cu:39
// FIXED: Verified: {{.*}}launch_inference.cu
// FIXED: - kernel copyTile, launched at {{.*}}launch_inference.cu:39:{{[0-9]+}}; {{.*}}launch_inference.cu:40:{{[0-9]+}} (sizes read from the host code): for the launch with blockDim = (64, 1, 1), gridDim = (8, 1, 1)
// FLAGS: Verified: {{.*}}launch_inference.cu
// FLAGS-NOT: host code
// OFF: error: possible write-write race on out
// OFF-NOT: host code
// OFF: note: no launch size was given: every size is symbolic
#define TILE 64

// Each block copies one tile of TILE elements; correct only with TILE threads per block.
__global__ void copyTile(const float *in, float *out) {
  out[blockIdx.x * TILE + threadIdx.x] = in[blockIdx.x * TILE + threadIdx.x] * 2.0f;
}

int main() {
  const int n = 512;
  float *in = 0, *out = 0;
  cudaMalloc(&in, n * sizeof(float));
  cudaMalloc(&out, n * sizeof(float));
#ifdef FIXED
  const int threads = TILE;
#else
  const int threads = 2 * TILE;
#endif
  copyTile<<<n / TILE, TILE>>>(in, out);
  copyTile<<<n / threads, threads>>>(in, out);
  return 0;
}
