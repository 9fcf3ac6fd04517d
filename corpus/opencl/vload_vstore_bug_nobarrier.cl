//xfail:NOT_ALL_VERIFIED
//--local_size=64 --num_groups=8
//possible (write-read|read-write) race on .*stage\[
//vload_vstore_bug_nobarrier.cl:1[12]:

// vload_vstore.cl without the barrier: work item lid reads the four floats
// that work item lid + 1 writes.
__kernel void rotate4(__global const float *in, __global float *out) {
  __local float stage[256];
  unsigned lid = get_local_id(0), gid = get_global_id(0);
  vstore4(vload4(gid, in), lid, stage);
  float4 v = vload4((lid + 1) % 64, stage);
  vstore4(v, gid, out);
}
