//pass
//--local_size=64 --num_groups=1

// A reduction whose trip count is read from memory: every work item reads the same
// cell, so the count is the same in both threads, but the uniformity analysis cannot
// know it.  The user invariants state that s is uniform and that no access to buf
// is in flight at the loop head (all three are checked, then used; in one work
// group: barriers order the accesses of threads of one group only, so with several
// groups an access of a thread in another group stays in the log).
__kernel void reduce_dyn(__global const int *in, __global int *out, __global const int *cfg) {
  __local int buf[64];
  unsigned lid = get_local_id(0);
  buf[lid] = in[get_global_id(0)];
  barrier(CLK_LOCAL_MEM_FENCE);
  int s = cfg[0];
  for (; __invariant(__uniform_int(s)), __invariant(__no_read(buf)), __invariant(__no_write(buf)), s > 0; s >>= 1) {
    if (lid < s && lid + s < 64)
      buf[lid] += buf[lid + s];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (lid == 0)
    out[get_group_id(0)] = buf[0];
}
