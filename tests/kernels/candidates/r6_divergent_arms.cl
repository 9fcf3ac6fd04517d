//pass
//--local_size=32 --num_groups=4
// The two halves of a group fill the two halves of a tile, in loops in the two arms of a
// divergent if.  At the head of the else arm's loop, the write log of a thread that took
// the then arm holds a then-arm write: r6 says it is the entry the log held when that
// thread skipped the loop, about which the then-arm loop's invariants speak.
__kernel void halves(__local float *tile, __global float *m) {
  int tx = get_local_id(0);
  if (tx < 16) {
    for (int i = 0; i < 8; i++)
      tile[i * 16 + tx] = m[i * 64 + tx];
  } else {
    for (int i = 8; i < 16; i++)
      tile[i * 16 + tx - 16] = m[i * 64 + tx - 16];
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  m[get_global_id(0) + 4096] = tile[tx];
}
