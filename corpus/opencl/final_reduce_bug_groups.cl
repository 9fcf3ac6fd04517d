//xfail:NOT_ALL_VERIFIED
//--local_size=* --num_groups=*
//possible write-write race on total\[0\]
//final_reduce_bug_groups.cl:19:
//Launch with local_size = \(\d+, 1, 1\), num_groups = \(\d+, 1, 1\)

// final_reduce.cl without its precondition: launched with more than one
// work group, work item 0 of every group writes total[0] (each with its own
// group's sum).
__kernel void final_reduce(__global const float *partial, __global float *total) {
  __local float scratch[1024];
  uint lid = get_local_id(0);
  scratch[lid] = partial[lid];
  barrier(CLK_LOCAL_MEM_FENCE);
  if (lid == 0) {
    float s = 0.0f;
    for (uint i = 0; i < get_local_size(0); i++)
      s += scratch[i];
    total[0] = s;
  }
}
