//pass
//--local_size=64 --num_groups=8

// Divide each element by the sum of its group's elements. The tree reduction
// puts the sum in s[0]; the barrier after the loop publishes it to all work
// items.
__kernel void normalize(__global const float *in, __global float *out) {
  __local float s[64];
  unsigned lid = get_local_id(0);
  float x = in[get_global_id(0)];
  s[lid] = x;
  for (unsigned stride = 32; stride > 0; stride >>= 1) {
    barrier(CLK_LOCAL_MEM_FENCE);
    if (lid < stride)
      s[lid] += s[lid + stride];
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  out[get_global_id(0)] = x / s[0];
}
