//pass
//--local_size=64 --num_groups=8

// 64-bit integers and doubles: a 64-bit index computed from a 64-bit stride
// (exact), double arithmetic (uninterpreted).
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
__kernel void widen(__global const double *in, __global double *out, __global long *idx, ulong base) {
  ulong g = get_global_id(0);
  ulong j = base * 0 + g * 3UL;
  idx[g] = (long)(j >> 1) - (long)g;
  out[g] = in[j % 512] * 0.5 + (double)g;
}
