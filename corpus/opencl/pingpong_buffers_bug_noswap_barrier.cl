//xfail:NOT_ALL_VERIFIED
//--local_size=64 --num_groups=8
//possible (read-write|write-read) race on tile_[ab]\[
//pingpong_buffers_bug_noswap_barrier.cl:2[4-6]:

// pingpong_buffers.cl without the barrier between the steps: after the swap,
// a work item reads its neighbours' cells of the buffer they may still be
// writing in the previous step.
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
    __local float *tmp = src;
    src = dst;
    dst = tmp;
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  output[gid] = src[lid];
}
