//pass
//--local_size=256 --num_groups=8

// r9 (loopBound, the shrinking form): each row of 64 partial sums is reduced by a tree
// whose stride s is halved from 32.  part[row][col + s] stays in the thread's row only
// because s <= 32 at the head; with a larger s a read would reach the next row, where
// another work-item writes.
__kernel void row_sums(__global const float *in, __global float *out) {
  __local float part[4][64];
  unsigned lid = get_local_id(0);
  unsigned row = lid / 64, col = lid % 64;
  part[row][col] = in[get_global_id(0)];
  for (unsigned s = 32; s > 0; s >>= 1) {
    barrier(CLK_LOCAL_MEM_FENCE);
    if (col < s)
      part[row][col] += part[row][col + s];
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  if (col == 0)
    out[get_group_id(0) * 4 + row] = part[row][0];
}
