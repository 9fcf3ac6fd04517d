//pass
//--local_size=64 --num_groups=8

// get_global_offset / get_work_dim and fences without a barrier (which do not
// synchronise work items, so they neither help nor hurt here).
__kernel void offsets(__global int *out) {
  size_t g = get_global_id(0) - get_global_offset(0);
  out[g] = (int)get_work_dim();
  mem_fence(CLK_GLOBAL_MEM_FENCE);
  read_mem_fence(CLK_LOCAL_MEM_FENCE);
  write_mem_fence(CLK_GLOBAL_MEM_FENCE);
  out[g] += 1;
}
