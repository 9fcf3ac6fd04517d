//pass
//--local_size=64 --num_groups=8

// Four floats per work item through vload4/vstore4 on plain float buffers,
// staged in local memory and rotated by one work item after a barrier.
__kernel void rotate4(__global const float *in, __global float *out) {
  __local float stage[256];
  unsigned lid = get_local_id(0), gid = get_global_id(0);
  vstore4(vload4(gid, in), lid, stage);
  barrier(CLK_LOCAL_MEM_FENCE);
  float4 v = vload4((lid + 1) % 64, stage);
  vstore4(v, gid, out);
}
