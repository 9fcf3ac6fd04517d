//pass
//--local_size=[4,4] --num_groups=[2,2]

// A tile loop whose trip count reads the group id, so two work items of different
// groups may be apart: one has left the loop while the other runs it again (PolyBench
// lu, tiled by PPCG, has this shape).  Each tile is staged into local memory, then,
// after a barrier, an inner loop writes the mirrored columns 7 - c; its user invariants
// describe only those writes.  They hold on entry because the barrier emptied the work
// item's write log -- also when the other work item of the pair is of another group: no
// write is in flight at the head of the tile loop, as each write is followed by a
// barrier on the work item's own path (candidate r13 for pairs of any groups).
__kernel void mirror(__global float *out, int m) {
  __requires(m <= 64);
  // the tile is 4 x 8 and the output rows are 8 wide: the header's sizes in x
  __requires(get_local_size(0) == 4 && get_local_size(1) == 4 && get_num_groups(0) == 2);
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
