//pass
//--local_size=64 --num_groups=8

// Unpacking with a helper from a separately built OpenCL library: it writes only
// the work item's private float4, so the arbitrary result races with nothing.

void unpack_rgba8(uint packed, float4 *out);
float gamma_lookup(float x);

__kernel void decode(__global const uint *packed, __global float4 *pixels, uint n) {
  size_t i = get_global_id(0);
  if (i < n) {
    float4 px;
    unpack_rgba8(packed[i], &px);
    px.x = gamma_lookup(px.x);
    pixels[i] = px;
  }
}
