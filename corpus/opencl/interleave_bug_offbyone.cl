//xfail:NOT_ALL_VERIFIED
//--local_size=64 --num_groups=8
//possible write-write race on .*out\[
//Write by work item [0-9]+ with local id [0-9]+ in work group [0-9]+, .*interleave_bug_offbyone.cl:12:
//Write by work item [0-9]+ with local id [0-9]+ in work group [0-9]+, .*interleave_bug_offbyone.cl:13:

// interleave.cl with an off-by-one in the second index: work item i writes
// out[2 * i + 2], which is its neighbour i + 1's out[2 * (i + 1)].
__kernel void interleave(__global const int *a, __global const int *b,
                         __global int *out) {
  unsigned i = get_global_id(0);
  out[2 * i] = a[i];
  out[2 * i + 2] = b[i];
}
