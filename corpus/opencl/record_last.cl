//pass
//--local_size=64 --num_groups=8

// Double the input; the last work item of each group records its local id
// in the group's own slot of last.
__kernel void record_last(__global const int *in, __global int *out,
                          __global unsigned *last) {
  out[get_global_id(0)] = 2 * in[get_global_id(0)];
  if (get_local_id(0) == get_local_size(0) - 1)
    last[get_group_id(0)] = get_local_id(0);
}
