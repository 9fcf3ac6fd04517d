//pass
//--local_size=16 --num_groups=4

// No r13 for pairs of any groups: the write before the break reaches the tile loop's
// exit with no barrier, and a work item of group g + 1 leaves the loop there one
// iteration before a work item of group g, whose next iteration runs with the other's
// write still in the log; for threads of one group the exit is taken together.
__kernel void parked(__global float *out, int m) {
  __local float tile[16];
  size_t lid = get_local_id(0);
  int g = get_group_id(0);
  for (int t = g; t < m; t++) {
    barrier(CLK_LOCAL_MEM_FENCE);
    tile[lid] = (float)t;
    if (t == m - 1)
      break;
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  out[get_global_id(0)] = tile[lid];
}
