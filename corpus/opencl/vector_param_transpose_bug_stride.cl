//xfail:NOT_ALL_VERIFIED
//--local_size=[16,16] --num_groups=[8,8]
//possible write-write race on out\[
//Kernel arguments: dims = 

// As vector_param_transpose.cl, but the output rows use half the pitch: for a
// matrix with more than N / 2 rows two work items write the same element.
#define N 128
__kernel void transpose(__global float *out, __global const float *in, uint2 dims) {
  uint x = get_global_id(0), y = get_global_id(1);
  if (x < dims.x && y < dims.y)
    out[x * (N / 2) + y] = in[y * N + x];
}
