//pass
//--local_size=64 --num_groups=8

// One pass of a ping-pong smoothing filter: odd passes read buffer b and write a, even
// passes read a and write b (the host swaps nothing, it only counts passes).
__kernel void pingpong_select(__global float *a, __global float *b, int pass) {
  __global const float *src;
  __global float *dst;
  if (pass & 1) {
    src = b;
    dst = a;
  } else {
    src = a;
    dst = b;
  }
  unsigned i = get_global_id(0);
  dst[i] = 0.5f * (src[i] + src[i ^ 1]);
}
