//pass
//--local_size=64 --num_groups=4

// Copies each element to two rows of the output.  The row pitch comes from memory,
// so no precondition on the arguments can bound it; the host guarantees that a row
// holds the whole launch, and __assume states that (trusted, never checked): then
// the two rows never overlap.
__kernel void copy_rows(__global const int *in, __global int *out, __global const int *cfg) {
  unsigned pitch = cfg[0];
  __assume(pitch >= get_global_size(0) && pitch <= 4096);
  unsigned gid = get_global_id(0);
  out[gid] = in[gid];
  out[pitch + gid] = in[gid];
}
