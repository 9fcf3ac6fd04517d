//xfail:NOT_ALL_VERIFIED
//--local_size=64 --num_groups=4
//possible write-write race on out\[

// Like annot_assume.cl, but the assumption only says a row holds one work group:
// work item g writes out[pitch + g] in the second row, which work item pitch + g
// also writes in the first row.
__kernel void copy_rows(__global const int *in, __global int *out, __global const int *cfg) {
  unsigned pitch = cfg[0];
  __assume(pitch >= get_local_size(0) && pitch <= 4096);
  unsigned gid = get_global_id(0);
  out[gid] = in[gid];
  out[pitch + gid] = in[gid];
}
