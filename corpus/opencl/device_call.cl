//pass
//--local_size=64 --num_groups=8

// Sigmoid-like activation through helper functions (inlined by the front
// end); the store goes through a helper that takes the pointer and index.
float activate(float x) {
  return x / (1.0f + fabs(x));
}

void store(__global float *p, unsigned i, float v) {
  p[i] = v;
}

__kernel void activation(__global const float *in, __global float *out) {
  unsigned i = get_global_id(0);
  store(out, i, activate(in[i]));
}
