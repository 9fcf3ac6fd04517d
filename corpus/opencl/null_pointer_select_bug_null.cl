//xfail:NOT_ALL_VERIFIED
//--local_size=64 --num_groups=8
//null_pointer_select_bug_null.cl:14:25: error: possible null pointer access for work item [0-9]+ with local id [0-9]+ in work group [0-9]+
//dst\[get_global_id\(0\)\] = \(float\)get_global_id\(0\);

// null_pointer_select.cl with a third mode whose pointer stays NULL: when
// mode is neither 1 nor 2 the store goes through a null pointer.
__kernel void route(__global float *even, __global float *odd, int mode) {
  __global float *dst = 0;
  if (mode == 1)
    dst = odd;
  else if (mode == 2)
    dst = even;
  dst[get_global_id(0)] = (float)get_global_id(0);
}
