//pass
//--local_size=64 --num_groups=8

// Element-wise sum of two vectors, one element per work item.
__kernel void vector_add(__global const float *a, __global const float *b,
                         __global float *c) {
  unsigned i = get_global_id(0);
  c[i] = a[i] + b[i];
}
