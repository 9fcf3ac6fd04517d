//pass
//--local_size=64 --num_groups=8

// Scales each element by an optional per-element weight: the host passes
// use_weights = 0 when there is no weight buffer, and then the kernel must not read it.
__kernel void scale_rows(__global float *m, __global const float *weights, int use_weights) {
  __global const float *w = use_weights ? weights : 0;
  unsigned i = get_global_id(0);
  if (w != 0)
    m[i] = m[i] * w[i];
}
