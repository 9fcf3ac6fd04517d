//pass
//--local_size=[16,16] --num_groups=[8,8]

// Matrix transpose with the matrix shape passed as a vector argument (`uint2
// dims`, AMD SDK style): each work item moves one element; the guard keeps
// the items outside the matrix idle.  The shape is at most the grid (the
// host launches one work item per element), so the index arithmetic does not
// wrap around.
__kernel void transpose(__global float *out, __global const float *in, uint2 dims) {
  __requires(dims.x <= 128 && dims.y <= 128);
  uint x = get_global_id(0), y = get_global_id(1);
  if (x < dims.x && y < dims.y)
    out[x * dims.y + y] = in[y * dims.x + x];
}
