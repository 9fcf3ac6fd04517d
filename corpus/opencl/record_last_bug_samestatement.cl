//xfail:NOT_ALL_VERIFIED
//--local_size=64 --num_groups=8
//possible write-write race on .*last\[0\]
//Write by work item [0-9]+ with local id [0-9]+ in work group [0-9]+, .*record_last_bug_samestatement.cl:11:

// Every work item records "I was the last one" in last[0]: a write-write
// race inside one statement, with different values (not benign).
__kernel void record_last(__global const int *in, __global int *out,
                          __global unsigned *last) {
  out[get_global_id(0)] = 2 * in[get_global_id(0)];
  last[0] = get_local_id(0);
}
