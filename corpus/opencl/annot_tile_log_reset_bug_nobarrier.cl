//xfail:NOT_ALL_VERIFIED
//--local_size=[4,4] --num_groups=[2,2]
//invariant might not hold on entry|possible write-write race on tile\[

// Like annot_tile_log_reset.cl without the barrier between staging and the mirrored
// writes: work items (t0, 0) and (t0, 3) both write tile[t0][4] (and tile[t0][0]) in
// one tile, and the staging write is still in the log at the inner loop's entry.
__kernel void mirror(__global float *out, int m) {
  __requires(m <= 64);
  __local float tile[4][8];
  long t0 = get_local_id(0), t1 = get_local_id(1);
  long g = get_group_id(0);
  for (long t = g; t < m; t++) {
    for (long c = t1; c < 8; c += 4)
      tile[t0][c] = (float)t;
    for (long c = t1;
         __global_invariant(__write_implies(tile, __write_offset_bytes(tile) / sizeof(float) / 8 == t0)),
         __global_invariant(__write_implies(tile, __write_offset_bytes(tile) / sizeof(float) % 8 % 4 == 3 - t1)),
         c < 8; c += 4)
      tile[t0][7 - c] = (float)c;
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  out[get_global_id(1) * 8 + get_global_id(0)] = tile[t0][t1];
}
