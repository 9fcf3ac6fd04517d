//pass
//--local_size=64 --num_groups=8

// Tiled reversal through __local memory with asynchronous copies (OpenCL 1.2
// 6.12.10): the group copies its tile of `in` into `tile`, waits for the
// event and meets at a barrier (the copied data reaches the other work items
// only through a barrier after the wait: GPUVerify's conservative model), each
// work item writes the mirrored element into `tile2`, and after a barrier the
// group copies `tile2` back to `out` and waits again.
__kernel void reverse_tiles(__global const float *in, __global float *out,
                            __local float *tile, __local float *tile2) {
  size_t n = get_local_size(0), lid = get_local_id(0);
  size_t base = get_group_id(0) * n;
  event_t ev = async_work_group_copy(tile, in + base, n, 0);
  wait_group_events(1, &ev);
  barrier(CLK_LOCAL_MEM_FENCE);
  tile2[lid] = tile[n - 1 - lid];
  barrier(CLK_LOCAL_MEM_FENCE);
  ev = async_work_group_copy(out + base, tile2, n, 0);
  wait_group_events(1, &ev);
}
