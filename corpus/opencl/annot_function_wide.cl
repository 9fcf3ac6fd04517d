//pass
//--local_size=64 --num_groups=4 --no-infer

// Column sweeps over a row-major grid: each work item owns one column and both loops only
// touch that column.  Written once at the end of the kernel, the function-wide invariants
// are invariants of every loop: the accesses in flight are in the work item's column.
__kernel void column_sweeps(__global float *grid, int rows, int passes) {
  __requires(rows <= 4096); __requires(get_global_size(0) <= 262144);
  size_t col = get_global_id(0);
  size_t width = get_global_size(0);
  for (int p = 0; p < passes; p++) {
    // r >= 1: with --no-infer nothing else bounds r, and a negative r wraps r * width + col
    for (int r = 1; __invariant(r >= 1), r < rows; r++) {
      grid[r * width + col] += 0.5f * grid[(r - 1) * width + col];
    }
  }
  __function_wide_invariant(__write_implies(grid, (__write_offset_bytes(grid) / sizeof(float)) % width == col));
  __function_wide_invariant(__read_implies(grid, (__read_offset_bytes(grid) / sizeof(float)) % width == col));
}
