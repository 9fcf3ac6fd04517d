//pass
//--local_size=64 --num_groups=8

// For each of 512 rows of 32 ints (row = work item): sum the positive values
// up to the first zero, which terminates the row. Uses continue and break.
#define ROW 32

__kernel void sum_until_zero(__global const int *rows, __global int *sums) {
  unsigned gid = get_global_id(0);
  int sum = 0;
  for (unsigned j = 0; j < ROW; j++) {
    int v = rows[gid * ROW + j];
    if (v == 0)
      break;
    if (v < 0)
      continue;
    sum += v;
  }
  sums[gid] = sum;
}
