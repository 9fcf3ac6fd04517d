//xfail:NOT_ALL_VERIFIED
//--local_size=64 --num_groups=8
//possible (write-read|read-write) race on .*tmp\[

// A mem_fence is not a barrier: the neighbour's value may not be there yet.
__kernel void offsets(__global int *out) {
  __local int tmp[64];
  size_t l = get_local_id(0);
  tmp[l] = (int)(get_global_id(0) - get_global_offset(0));
  mem_fence(CLK_LOCAL_MEM_FENCE);
  out[get_global_id(0)] = tmp[(l + 1) % 64];
}
