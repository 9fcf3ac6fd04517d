//xfail:NOT_ALL_VERIFIED
//--local_size=64 --num_groups=8
//possible write-write race on .*c\[
//Write by work item [0-9]+ with local id [0-9]+ in work group [0-9]+, .*vector_add_bug_intergroup.cl:11:

// vector_add.cl indexing with the local id only: work items with the same
// local id in different groups write the same element of c.
__kernel void vector_add(__global const float *a, __global const float *b,
                         __global float *c) {
  unsigned i = get_local_id(0);
  c[i] = a[get_global_id(0)] + b[get_global_id(0)];
}
