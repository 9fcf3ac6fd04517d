//pass
//--local_size=[16,16] --num_groups=[8,8]

// Tiled transpose of a 128x128 matrix through a 16x17 local tile (the extra
// column avoids bank conflicts).
#define TILE 16
#define WIDTH 128

__kernel void transpose(__global const float *in, __global float *out) {
  __local float tile[TILE][TILE + 1];
  unsigned tx = get_local_id(0), ty = get_local_id(1); __requires(get_local_size(0) == TILE && get_local_size(1) == TILE);
  unsigned bx = get_group_id(0), by = get_group_id(1); __requires(get_num_groups(0) <= WIDTH / TILE && get_num_groups(1) <= WIDTH / TILE);
  tile[ty][tx] = in[(by * TILE + ty) * WIDTH + bx * TILE + tx];
  barrier(CLK_LOCAL_MEM_FENCE);
  out[(bx * TILE + ty) * WIDTH + by * TILE + tx] = tile[tx][ty];
}
