//pass
//--local_size=64 --num_groups=8

// Scatter a dense vector into every stride-th element of out. The
// precondition bounds the stride so that gid * stride cannot wrap around
// 2^32 (otherwise two work items could hit the same element).
__kernel void strided_copy(__global const int *in, __global int *out,
                           unsigned stride) {
  __requires(stride >= 1 && stride <= 1024); __requires(get_global_size(0) <= 1048576);
  unsigned gid = get_global_id(0);
  out[gid * stride] = in[gid];
}
