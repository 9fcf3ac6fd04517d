//pass
//--local_size=32 --num_groups=4

// Column gather with async_work_group_strided_copy: group g copies column g of
// a 32 x 4 row-major matrix (stride 4 elements) into __local memory, waits
// and meets at a barrier (the copied column reaches the other work items only
// through a barrier after the wait), scales it and writes the column back with
// a strided copy into its own column of `out` (the groups' strided cells
// interleave but never coincide).
#define COLS 4
__kernel void scale_columns(__global const float *m, __global float *out,
                            __local float *col, __local float *res) {
  size_t rows = get_local_size(0), g = get_group_id(0), lid = get_local_id(0); __requires(get_num_groups(0) <= COLS);
  event_t ev = async_work_group_strided_copy(col, m + g, rows, COLS, 0);
  wait_group_events(1, &ev);
  barrier(CLK_LOCAL_MEM_FENCE);
  res[lid] = 2.0f * col[lid];
  barrier(CLK_LOCAL_MEM_FENCE);
  ev = async_work_group_strided_copy(out + g, res, rows, COLS, 0);
  wait_group_events(1, &ev);
}
