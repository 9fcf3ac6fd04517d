//pass
//--local_size=64 --num_groups=4

// val: every work item of the loop sets the same flag to 1 (a benign write-write
// race); after the loop cut the logged value is arbitrary unless the candidate
// keeps it at the value the kernel writes.
__kernel void write_value_flag(__global int *flag, __global const int *in, int n) {
  for (int i = 0; i < n; i++) {
    if (in[get_global_id(0) * n + i] < 0)
      flag[0] = 1;
  }
}
