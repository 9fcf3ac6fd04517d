//pass
//--local_size=[16,16] --num_groups=[4,4]

// 3x3 convolution of a 64x64 image (zero padding). Each 16x16 group stages an
// 18x18 tile: its own pixels plus a one-pixel halo, loaded by the border work
// items (corners by the corner work items), then one barrier.
#define T 16
#define W 64

float pixel(__global const float *img, int x, int y) {
  return (x < 0 || y < 0 || x >= W || y >= W) ? 0.0f : img[y * W + x];
}

__kernel void conv2d(__global const float *img, __constant float *filt,
                     __global float *out) {
  __local float tile[T + 2][T + 2];
  int lx = get_local_id(0), ly = get_local_id(1); __requires(get_local_size(0) == T && get_local_size(1) == T);
  int x = get_global_id(0), y = get_global_id(1); __requires(get_num_groups(0) <= W / T && get_num_groups(1) <= W / T);
  tile[ly + 1][lx + 1] = pixel(img, x, y);
  if (lx == 0) tile[ly + 1][0] = pixel(img, x - 1, y);
  if (lx == T - 1) tile[ly + 1][T + 1] = pixel(img, x + 1, y);
  if (ly == 0) tile[0][lx + 1] = pixel(img, x, y - 1);
  if (ly == T - 1) tile[T + 1][lx + 1] = pixel(img, x, y + 1);
  if (lx == 0 && ly == 0) tile[0][0] = pixel(img, x - 1, y - 1);
  if (lx == T - 1 && ly == 0) tile[0][T + 1] = pixel(img, x + 1, y - 1);
  if (lx == 0 && ly == T - 1) tile[T + 1][0] = pixel(img, x - 1, y + 1);
  if (lx == T - 1 && ly == T - 1) tile[T + 1][T + 1] = pixel(img, x + 1, y + 1);
  barrier(CLK_LOCAL_MEM_FENCE);
  float acc = 0.0f;
  for (int dy = 0; dy < 3; dy++)
    for (int dx = 0; dx < 3; dx++)
      acc += filt[dy * 3 + dx] * tile[ly + dy][lx + dx];
  out[y * W + x] = acc;
}
