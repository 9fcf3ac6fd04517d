//pass
//--local_size=128 --num_groups=16

// A private table of buffer pointers selected by a kernel argument (ping-pong buffers
// of an iterative solver): the loaded pointer is one of the two buffers, never null.
__kernel void relax_step(__global const float *even, __global const float *odd,
                         __global float *out, int iteration) {
  __global const float *src[2];
  src[0] = even;
  src[1] = odd;
  size_t i = get_global_id(0);
  __global const float *in = src[iteration & 1];
  out[i] = 0.5f * in[i] + 0.25f;
}
