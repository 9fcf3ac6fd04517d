//xfail:NOT_ALL_VERIFIED
//--local_size=64 --num_groups=8
//possible write-write race on .*out\[
//strided_copy_bug_overflow.cl:12:

// strided_copy.cl without its precondition: for a huge stride gid * stride
// wraps around 2^32 (e.g. stride = 2^31: work items 0 and 2 both write
// out[0]), so the scatter is not race-free for every input.
__kernel void strided_copy(__global const int *in, __global int *out,
                           unsigned stride) {
  unsigned gid = get_global_id(0);
  out[gid * stride] = in[gid];
}
