//xfail:NOT_ALL_VERIFIED
//--local_size=64 --num_groups=8
//possible write-read race on .*s\[0\]
//Write by work item [0-9]+ with local id [0-9]+ in work group [0-9]+, .*normalize_bug_afterloop.cl:17:
//Read by work item [0-9]+ with local id [0-9]+ in work group [0-9]+, .*normalize_bug_afterloop.cl:19:

// normalize.cl without the barrier after the loop: the last step (stride 1)
// writes s[0] in work item 0 while the others already read it.
__kernel void normalize(__global const float *in, __global float *out) {
  __local float s[64];
  unsigned lid = get_local_id(0);
  float x = in[get_global_id(0)];
  s[lid] = x;
  for (unsigned stride = 32; stride > 0; stride >>= 1) {
    barrier(CLK_LOCAL_MEM_FENCE);
    if (lid < stride)
      s[lid] += s[lid + stride];
  }
  out[get_global_id(0)] = x / s[0];
}
