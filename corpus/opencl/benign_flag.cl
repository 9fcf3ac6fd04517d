//pass
//--local_size=64 --num_groups=8 --equality-abstraction

// Every work item that finds a negative value raises the same flag. The
// concurrent writes all store 1, a benign write-write race that the
// verifier tolerates (it compares the written values).
__kernel void any_negative(__global const int *in, __global int *flag) {
  if (in[get_global_id(0)] < 0)
    flag[0] = 1;
}
