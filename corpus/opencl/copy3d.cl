//pass
//--local_size=[8,8,4] --num_groups=[2,2,2]

// Copy a 16x16x8 volume with a 3-D launch, reversing the z order.
#define NX 16
#define NY 16
#define NZ 8

__kernel void copy3d(__global const float *in, __global float *out) {
  unsigned x = get_global_id(0), y = get_global_id(1), z = get_global_id(2); __requires(get_global_size(0) == NX && get_global_size(1) == NY && get_global_size(2) == NZ);
  unsigned src = (z * NY + y) * NX + x;
  unsigned dst = ((NZ - 1 - z) * NY + y) * NX + x;
  out[dst] = in[src];
}
