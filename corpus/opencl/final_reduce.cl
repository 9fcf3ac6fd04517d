//pass
//--local_size=256 --num_groups=1

// Second pass of a two-pass reduction: a single work group folds the
// per-group partial sums of the first pass (one per work item: the first
// pass ran with as many groups as this launch has work items), adds them up
// in local memory and writes the total. It is written for one
// work group, which the precondition states.
__kernel void final_reduce(__global const float *partial, __global float *total) {
  __requires(get_num_groups(0) == 1);
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
