//xfail:NOT_ALL_VERIFIED
//--local_size=64 --num_groups=8
//possible write-write race on .*out\[
//Write by work item [0-9]+ with local id [0-9]+ in work group [0-9]+, .*grid_stride_bug_stride.cl:12:

// grid_stride.cl striding by the local size instead of the global size:
// element 64 is visited by work item 64 (first iteration) and by work item 0
// (second iteration), which are in different groups.
__kernel void scale(__global const float *in, __global float *out, float f,
                    unsigned n) {
  for (unsigned i = get_global_id(0); i < n; i += get_local_size(0))
    out[i] = f * in[i];
}
