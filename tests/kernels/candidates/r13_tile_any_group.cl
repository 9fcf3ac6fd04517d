//pass
//--local_size=[4,4] --num_groups=[2,2]

// r13 for pairs of any groups: the tile loop's trip count reads the group id, so its
// barriers are not uniformly executed, yet every write of the group-shared tile is
// followed by a barrier on the work item's own path, which resets its log whatever the
// other work item's group: no write in flight at the head of the tile loop.  Without
// that, the user invariants of the mirrored writes fail on entry for a pair of two
// groups (corpus annot_tile_log_reset.cl).
__kernel void mirror(__global float *out, int m) {
  __requires(m <= 64);
  __local float tile[4][8];
  long t0 = get_local_id(0), t1 = get_local_id(1);
  long g = get_group_id(0);
  for (long t = g; t < m; t++) {
    for (long c = t1; c < 8; c += 4)
      tile[t0][c] = (float)t;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (long c = t1;
         __global_invariant(__write_implies(tile, __write_offset_bytes(tile) / sizeof(float) / 8 == t0)),
         __global_invariant(__write_implies(tile, __write_offset_bytes(tile) / sizeof(float) % 8 % 4 == 3 - t1)),
         c < 8; c += 4)
      tile[t0][7 - c] = (float)c;
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  out[get_global_id(1) * 8 + get_global_id(0)] = tile[t0][t1];
}
