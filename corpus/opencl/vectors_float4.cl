//pass
//--local_size=64 --num_groups=8

// out = a * s + reverse(b), on float4 elements: vector loads/stores are four
// element accesses each, float arithmetic is uninterpreted.
__kernel void axpy4(__global const float4 *a, __global const float4 *b,
                    __global float4 *out, float s) {
  unsigned i = get_global_id(0);
  float4 x = a[i];
  out[i] = x * s + b[i].wzyx;
}
