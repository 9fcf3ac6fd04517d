//xfail:NOT_ALL_VERIFIED
//--local_size=64 --num_groups=8
//possible (write-read|read-write) race on .*sdata\[
//Write by work item [0-9]+ with local id [0-9]+ in work group [0-9]+, .*reduce_bug_nobarrier.cl:16:
//Read by work item [0-9]+ with local id [0-9]+ in work group [0-9]+, .*reduce_bug_nobarrier.cl:16:

// reduce.cl without the barrier inside the loop: in step s, work item lid
// reads sdata[lid + s], which work item lid + s wrote in the previous step.
__kernel void reduce(__global const int *in, __global int *partial) {
  __local int sdata[64];
  unsigned lid = get_local_id(0);
  sdata[lid] = in[get_global_id(0)];
  barrier(CLK_LOCAL_MEM_FENCE);
  for (unsigned s = get_local_size(0) / 2; s > 0; s >>= 1) {
    if (lid < s)
      sdata[lid] += sdata[lid + s];
  }
  if (lid == 0)
    partial[get_group_id(0)] = sdata[0];
}
