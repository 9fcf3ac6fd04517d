//pass
//--local_size=64 --num_groups=2

// Ping-pong between the two halves of one __local array: the pointers are bare
// offsets (bv32) that only hold 0 or 64, never the same one (rule fd).
__kernel void halves(__global const float *in, __global float *out, int steps) {
  __local float buf[128];
  size_t lid = get_local_id(0);
  buf[lid] = in[get_global_id(0)];
  barrier(CLK_LOCAL_MEM_FENCE);
  __local float *src = buf, *dst = buf + 64;
  for (int s = 0; s < steps; s++) {
    dst[lid] = 0.5f * (src[lid] + src[(lid + 1) % 64]);
    barrier(CLK_LOCAL_MEM_FENCE);
    __local float *t = src; src = dst; dst = t;
  }
  out[get_global_id(0)] = src[lid];
}
