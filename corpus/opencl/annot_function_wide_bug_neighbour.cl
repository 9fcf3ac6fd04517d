//xfail:NOT_ALL_VERIFIED
//--local_size=64 --num_groups=4 --no-infer
//loop invariant might not be maintained|invariant might not hold on loop entry|race

// Bug: the sweep writes the neighbouring column, which another work item owns: the
// function-wide invariant is not maintained (and the writes race with that work item).
__kernel void column_sweeps(__global float *grid, int rows, int passes) {
  __requires(rows <= 4096);
  size_t col = get_global_id(0);
  size_t width = get_global_size(0);
  for (int p = 0; p < passes; p++) {
    for (int r = 1; r < rows; r++) {
      grid[r * width + col + 1] += 0.5f * grid[(r - 1) * width + col];
    }
  }
  __function_wide_invariant(__write_implies(grid, (__write_offset_bytes(grid) / sizeof(float)) % width == col));
  __function_wide_invariant(__read_implies(grid, (__read_offset_bytes(grid) / sizeof(float)) % width == col));
}
