//xfail:NOT_ALL_VERIFIED
//--local_size=64 --num_groups=8
//possible write-write race on .*out\[
//nested_loops_bug_index.cl:17:

// nested_loops.cl with the slot stride taken from the local size (64)
// instead of the global size (512): slot s of work item gid + 64 is slot
// s + 1 of work item gid.
#define G 512

__kernel void outer_blocks(__global const float *u, __global const float *v,
                           __global float *out) {
  unsigned gid = get_global_id(0);
  for (unsigned b = 0; b < 4; b++)
    for (unsigned r = 0; r < 4; r++)
      for (unsigned c = 0; c < 4; c++)
        out[((b * 4 + r) * 4 + c) * get_local_size(0) + gid] =
            u[(b * 4 + r) * G + gid] * v[(b * 4 + c) * G + gid];
}
