//xfail:NOT_ALL_VERIFIED
//--local_size=64 --num_groups=8
//scale_rows_bug_null.cl:13:18: error: possible null pointer access for work item [0-9]+
//float unused = w\[i\];

// Scales each element by an optional per-element weight: the host passes
// use_weights = 0 when there is no weight buffer, and then the kernel must not read it.
// Bug: a read left over from a refactoring loads w[i] before the check; its value is
// never used, but the load still dereferences a null pointer.
__kernel void scale_rows(__global float *m, __global const float *weights, int use_weights) {
  __global const float *w = use_weights ? weights : 0;
  unsigned i = get_global_id(0);
  float unused = w[i];
  if (w != 0)
    m[i] = m[i] * w[i];
}
