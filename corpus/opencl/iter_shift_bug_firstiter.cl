//xfail:NOT_ALL_VERIFIED
//--local_size=64 --num_groups=8
//possible write-read race on .*s\[
//Write by work item [0-9]+ with local id [0-9]+ in work group [0-9]+, .*iter_shift_bug_firstiter.cl:12:
//Read by work item [0-9]+ with local id [0-9]+ in work group [0-9]+, .*iter_shift_bug_firstiter.cl:14:

// iter_shift.cl without the barrier before the loop: the first iteration's
// read of the neighbour races with the neighbour's initial write.
__kernel void rotate_n(__global int *data, unsigned n) {
  __local int s[64];
  unsigned lid = get_local_id(0);
  s[lid] = data[get_global_id(0)];
  for (unsigned k = 0; k < n; k++) {
    int v = s[(lid + 1) % 64];
    barrier(CLK_LOCAL_MEM_FENCE);
    s[lid] = v;
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  data[get_global_id(0)] = s[lid];
}
