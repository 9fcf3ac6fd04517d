//pass
//--local_size=[16,16] --num_groups=[8,8]

// Matrix transpose with the matrix shape passed as a vector argument (`uint2
// dims`, AMD SDK style): each work item moves one element; the guard keeps
// the items outside the matrix idle.  Rows are stored with the fixed pitch N
// (the buffers are allocated for the largest matrix), and the shape is at most
// that (the host launches one work item per element).
#define N 128
__kernel void transpose(__global float *out, __global const float *in, uint2 dims) {
  __requires(dims.x <= N && dims.y <= N);
  uint x = get_global_id(0), y = get_global_id(1);
  if (x < dims.x && y < dims.y)
    out[x * N + y] = in[y * N + x];
}
