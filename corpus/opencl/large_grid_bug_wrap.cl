//xfail:NOT_ALL_VERIFIED
//--local_size=256 --num_groups=65536
//possible write-write race on .*out\[
//large_grid_bug_wrap.cl:10:

// Over 16M work items, an index computed modulo 2^20 makes work items 2^20
// apart, in different groups, write the same element.
__kernel void copy_large(__global const int *in, __global int *out) {
  unsigned i = get_global_id(0) & 0xFFFFF;
  out[i] = in[get_global_id(0)];
}
