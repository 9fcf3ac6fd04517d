//xfail:NOT_ALL_VERIFIED
//--local_size=64 --num_groups=8
//possible (write-read|read-write) race on .*s\[
//iter_shift_bug_nextiter.cl:15:
//iter_shift_bug_nextiter.cl:17:

// iter_shift.cl without the barrier at the end of the loop body: the write
// of iteration k races with the neighbour's read in iteration k + 1.
__kernel void rotate_n(__global int *data, unsigned n) {
  __local int s[64];
  unsigned lid = get_local_id(0);
  s[lid] = data[get_global_id(0)];
  barrier(CLK_LOCAL_MEM_FENCE);
  for (unsigned k = 0; k < n; k++) {
    int v = s[(lid + 1) % 64];
    barrier(CLK_LOCAL_MEM_FENCE);
    s[lid] = v;
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  data[get_global_id(0)] = s[lid];
}
