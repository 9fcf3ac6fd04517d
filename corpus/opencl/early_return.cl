//pass
//--local_size=64 --num_groups=8

// Clamp values to [lo, hi] for the first n elements; work items past the end
// return early (no barrier follows, so this is not divergence).
__kernel void clamp_values(__global float *v, unsigned n, float lo, float hi) {
  unsigned i = get_global_id(0);
  if (i >= n)
    return;
  float x = v[i];
  if (x < lo)
    x = lo;
  if (x > hi)
    x = hi;
  v[i] = x;
}
