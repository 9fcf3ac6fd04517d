//pass
//--local_size=64 --num_groups=8

// Iterated 3-point smoothing of one 64-element tile per work group, double
// buffered in local memory: each step reads `src` and writes `dst`, then the
// two pointers swap.  The barrier at the end of a step separates its writes
// from the next step's reads of the same buffer.  Needs the finite-domain
// candidates (rule fd): src and dst each point to tile_a or tile_b, never the
// same one.
#define TILE 64

__kernel void smooth_steps(__global const float *input, __global float *output,
                           int steps) {
  __local float tile_a[TILE];
  __local float tile_b[TILE];
  size_t lid = get_local_id(0);
  size_t gid = get_global_id(0);

  tile_a[lid] = input[gid];
  barrier(CLK_LOCAL_MEM_FENCE);

  __local float *src = tile_a;
  __local float *dst = tile_b;
  for (int step = 0; step < steps; ++step) {
    float left = src[(lid + TILE - 1) % TILE];
    float right = src[(lid + 1) % TILE];
    dst[lid] = 0.25f * left + 0.5f * src[lid] + 0.25f * right;
    barrier(CLK_LOCAL_MEM_FENCE);
    __local float *tmp = src;
    src = dst;
    dst = tmp;
  }
  output[gid] = src[lid];
}
