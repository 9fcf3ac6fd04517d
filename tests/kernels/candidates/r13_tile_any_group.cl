//pass
//--local_size=16 --num_groups=4

// r13 for pairs of any groups: the tile loop's trip count reads the group id, so its
// barriers are not uniformly executed, yet every write of the group-shared tile is
// followed by a barrier on the work item's own path, which resets its log whatever the
// other work item's group: no write in flight at the head of the tile loop.  Without
// that, the user invariant of the mirrored writes fails on entry for a pair of two groups
// (a two-dimensional version: corpus annot_tile_log_reset.cl).
__kernel void mirror(__global float *out, int m) {
  __requires(m <= 64);
  __local float tile[32];
  int lid = get_local_id(0);
  for (int t = get_group_id(0); t < m; t++) {
    for (int c = lid; c < 32; c += 16)
      tile[c] = (float)t;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int c = lid; __global_invariant(__write_implies(tile, __write_offset_bytes(tile) / 4 % 16 == 15 - lid)),
         c < 32; c += 16)
      tile[31 - c] = 1.0f;
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  out[get_global_id(0)] = tile[lid];
}
