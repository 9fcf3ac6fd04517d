//pass
//--local_size=64 --num_groups=8

// Rotate a local array by one position n times: every iteration reads the
// neighbour's value, synchronizes, writes its own, and synchronizes again.
__kernel void rotate_n(__global int *data, unsigned n) {
  __local int s[64];
  unsigned lid = get_local_id(0);
  s[lid] = data[get_global_id(0)];
  barrier(CLK_LOCAL_MEM_FENCE);
  for (unsigned k = 0; k < n; k++) {
    int v = s[(lid + 1) % 64];
    barrier(CLK_LOCAL_MEM_FENCE);
    s[lid] = v;
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  data[get_global_id(0)] = s[lid];
}
