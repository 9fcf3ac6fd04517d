//xfail:NOT_ALL_VERIFIED
//--local_size=64 --num_groups=8
//extern_helper_private_bug_null.cl:15:[0-9]+: error: possible null pointer access

// A lookup table fetched through an external function: the pointer it returns may
// be null (or point anywhere the verifier cannot name), so the dereference is
// reported.

__global float *palette_for(uint id);

__kernel void colorize(__global const uint *ids, __global float *out, uint n) {
  size_t i = get_global_id(0);
  if (i < n) {
    __global float *pal = palette_for(ids[i]);
    out[i] = pal[0];
  }
}
