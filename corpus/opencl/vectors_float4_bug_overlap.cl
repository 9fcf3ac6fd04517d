//xfail:NOT_ALL_VERIFIED
//--local_size=64 --num_groups=8
//possible write-write race on .*out\[
//vectors_float4_bug_overlap.cl:14:

// vectors_float4.cl storing through a float pointer with vstore4 at element
// 2*i instead of 4*i: the four floats of work item i overlap the first two of
// work item i + 1.
__kernel void axpy4(__global const float4 *a, __global const float4 *b,
                    __global float *out, float s) {
  unsigned i = get_global_id(0);
  float4 x = a[i];
  float4 y = x * s + b[i].wzyx;
  vstore4(y, 0, out + 2 * i);
}
