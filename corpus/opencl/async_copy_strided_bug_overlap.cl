//xfail:NOT_ALL_VERIFIED
//--local_size=32 --num_groups=4
//possible write-write race on out\[
//async_copy_strided_bug_overlap.cl:18:

// async_copy_strided.cl writing back with stride 2 instead of 4: the strided
// copies of two groups write the same cells of `out` (copies of different
// groups do race).
#define COLS 4
__kernel void scale_columns(__global const float *m, __global float *out,
                            __local float *col, __local float *res) {
  size_t rows = get_local_size(0), g = get_group_id(0), lid = get_local_id(0);
  event_t ev = async_work_group_strided_copy(col, m + g, rows, COLS, 0);
  wait_group_events(1, &ev);
  barrier(CLK_LOCAL_MEM_FENCE);
  res[lid] = 2.0f * col[lid];
  barrier(CLK_LOCAL_MEM_FENCE);
  ev = async_work_group_strided_copy(out + g, res, rows, 2, 0);
  wait_group_events(1, &ev);
}
