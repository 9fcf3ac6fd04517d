//pass
//--local_size=64 --num_groups=2

// Pointer queries: the selected buffer pointer points into one of the two local
// arrays (__ptr_base) and the element pointer is lid * 4 bytes into it
// (__ptr_offset_bytes).  Odd groups work on the second buffer.
__kernel void select_buffer(__global const float *in, __global float *out) {
  __local float a[64], b[64];
  size_t lid = get_local_id(0);
  __local float *buf = (get_group_id(0) & 1) ? b : a;
  __local float *mine = buf + lid;
  __assert(__ptr_base(mine) == __ptr_base(a) || __ptr_base(mine) == __ptr_base(b));
  __assert(__ptr_base(a) != __ptr_base(b));
  __assert(__ptr_offset_bytes(mine) == lid * sizeof(float));
  *mine = in[get_global_id(0)];
  barrier(CLK_LOCAL_MEM_FENCE);
  out[get_global_id(0)] = buf[63 - lid];
}
