//pass
//--local_size=64 --num_groups=16

// Ping-pong smoothing step: the host passes both buffers and the parity of the
// time step, each group prefetches its tile of the current buffer into local
// memory with an asynchronous copy (the source pointer is one of two arrays),
// waits, and writes the averaged tile into the other buffer.  Which buffer is
// read is uniform, so the copy is the same for the whole group.
__kernel void smooth_step(__global float *even, __global float *odd,
                          __local float *tile, int step) {
  size_t n = get_local_size(0), lid = get_local_id(0);
  size_t base = get_group_id(0) * n;
  __global float *cur = (step & 1) ? odd : even;
  __global float *next = (step & 1) ? even : odd;
  event_t ev = async_work_group_copy(tile, cur + base, n, 0);
  wait_group_events(1, &ev);
  barrier(CLK_LOCAL_MEM_FENCE);
  float left = lid > 0 ? tile[lid - 1] : tile[lid];
  float right = lid + 1 < n ? tile[lid + 1] : tile[lid];
  next[base + lid] = 0.25f * left + 0.5f * tile[lid] + 0.25f * right;
}
