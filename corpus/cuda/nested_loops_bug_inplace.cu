//xfail:NOT_ALL_VERIFIED
//--blockDim=[16,16] --gridDim=[4,4]
//possible read-write race on .*img\[
//nested_loops_bug_inplace.cu:1[89]:

// nested_loops.cu "optimized" to pool in place: each thread writes its result
// to img[oy * OUT_W + ox], which lies inside another thread's 4x4 window
// (e.g. output (1, 0) lands on input pixel (1, 0), read by thread (0, 0)).
#define IN_W 256
#define OUT_W 64

__global__ void pool4x4(float *img) {
  unsigned ox = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned oy = blockIdx.y * blockDim.y + threadIdx.y;
  float sum = 0.0f;
  for (unsigned dy = 0; dy < 4; dy++)
    for (unsigned dx = 0; dx < 4; dx++)
      sum += img[(4 * oy + dy) * IN_W + 4 * ox + dx];
  img[oy * OUT_W + ox] = sum;
}
