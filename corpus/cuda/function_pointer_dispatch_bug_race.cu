//xfail:NOT_ALL_VERIFIED
//--blockDim=128 --gridDim=16
//possible (write-write|read-write|write-read) race on data
//function_pointer_dispatch_bug_race.cu:13:

// In-place update through a function pointer: one of the two candidates smooths
// with the right neighbour, which the next thread overwrites at the same time.

typedef void (*update_op)(float *, int);

__device__ void scale_in_place(float *d, int i) { d[i] = 2.0f * d[i]; }
__device__ void smooth_in_place(float *d, int i) {
  d[i] = 0.5f * (d[i] + d[i + 1]);
}

__global__ void update(float *data, int mode, int n) {
  update_op op = mode ? smooth_in_place : scale_in_place;
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i + 1 < n)
    op(data, i);
}
