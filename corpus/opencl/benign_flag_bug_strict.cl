//xfail:NOT_ALL_VERIFIED
//--local_size=64 --num_groups=8 --equality-abstraction --no-benign-tolerance
//possible write-write race on .*flag\[0\]
//benign_flag_bug_strict.cl:10:

// benign_flag.cl checked with --no-benign-tolerance: the same-value writes
// to flag[0] are now reported as a write-write race.
__kernel void any_negative(__global const int *in, __global int *flag) {
  if (in[get_global_id(0)] < 0)
    flag[0] = 1;
}
