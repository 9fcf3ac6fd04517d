// Every OpenCL work-item function family, annotations and integer intrinsics.
__kernel void ids(__global uint *out, int n, uint d) {
  __requires(n > 0 && n < 1024);
  __requires(__implies(n > 8, d < 3));
  uint g = get_global_id(0) + get_global_id(1) + get_global_id(2);
  uint l = get_local_id(1) * get_local_size(1) + get_group_id(2) * get_num_groups(2);
  uint s = get_global_size(0) + get_global_offset(1) + get_work_dim() + get_local_id(d);
  __assert(get_local_id(0) < get_local_size(0));
  __assume(n != 5);
  out[g] = max(l, s) + min((int)l, n) + abs(n) + popcount(s);
  barrier(CLK_GLOBAL_MEM_FENCE | CLK_LOCAL_MEM_FENCE);
  out[g + 1] = clz(g) + (uint)sqrt((float)n);
}
