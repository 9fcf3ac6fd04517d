//xfail:NOT_ALL_VERIFIED
//--local_size=64 --num_groups=8
//possible read-write race on .*buf\[
//Read by work item [0-9]+ with local id [0-9]+ in work group [0-9]+, .*scan_hillis_steele_bug_samestep.cl:17:
//Write by work item [0-9]+ with local id [0-9]+ in work group [0-9]+, .*scan_hillis_steele_bug_samestep.cl:17:

// In-place Hillis-Steele scan that reads buf[lid - off] and writes buf[lid]
// in the same step with no barrier in between: work item lid - off may
// already have overwritten the value lid reads.
__kernel void scan(__global const int *in, __global int *out) {
  __local int buf[64];
  unsigned lid = get_local_id(0);
  buf[lid] = in[get_global_id(0)];
  barrier(CLK_LOCAL_MEM_FENCE);
  for (unsigned off = 1; off < 64; off *= 2) {
    if (lid >= off)
      buf[lid] += buf[lid - off];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  out[get_global_id(0)] = buf[lid];
}
