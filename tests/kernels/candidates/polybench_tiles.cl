//pass
//--local_size=[16,16] --num_groups=[8,8]

// PolyBench-style tiles (PPCG): the tile loops start at the group's tile (not uniform
// across groups; within a group the threads run them together, so the barriers are
// uniform there), and the copy loop strides the columns by the local size in y.  The
// index of the local tile is built in 64 bits and truncated per dimension.
__kernel void tile_sums(__global const float *A, __global float *B, int n) {
  __requires(n == 1024);
  long b0 = get_group_id(0), b1 = get_group_id(1);
  long t0 = get_local_id(0), t1 = get_local_id(1);
  __local float tile[16][32];
  float acc = 0.0f;
  for (long c0 = 16 * b0; c0 < n; c0 += 128)
    for (long c1 = 32 * b1; c1 < n; c1 += 256) {
      for (long c4 = t1; c4 < 32; c4 += 16)
        tile[t0][c4] = A[(c0 + t0) * n + c1 + c4];
      barrier(CLK_LOCAL_MEM_FENCE);
      for (long c4 = t1; c4 < 32; c4 += 16)
        acc += tile[t0][c4];
      barrier(CLK_LOCAL_MEM_FENCE);
    }
  B[get_global_id(1) * 128 + get_global_id(0)] = acc;
}
