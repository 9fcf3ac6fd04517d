//pass
//--local_size=64 --num_groups=2

// Two __local buffers swapped through pointers after every step: the bases of
// src and dst are int variables ($base) that only hold tile a's or tile b's
// number, and never the same one (rule fd).
__kernel void pingpong(__global const float *in, __global float *out, int steps) {
  __local float a[64], b[64];
  size_t lid = get_local_id(0);
  a[lid] = in[get_global_id(0)];
  barrier(CLK_LOCAL_MEM_FENCE);
  __local float *src = a, *dst = b;
  for (int s = 0; s < steps; s++) {
    dst[lid] = 0.5f * (src[lid] + src[(lid + 1) % 64]);
    barrier(CLK_LOCAL_MEM_FENCE);
    __local float *t = src; src = dst; dst = t;
  }
  out[get_global_id(0)] = src[lid];
}
