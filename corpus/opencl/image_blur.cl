//pass
//--local_size=8,8 --num_groups=4,4

// 3x3 box blur: each work item averages the pixels around its own one in a
// read-only image (coordinates clamped to the image) and writes the result at its
// own pixel of a write-only image.
__kernel void image_blur(__read_only image2d_t src, __write_only image2d_t dst) {
  int x = get_global_id(0);
  int y = get_global_id(1);
  int w = get_image_width(src);
  int h = get_image_height(src);
  float4 sum = (float4)(0.0f);
  for (int dy = -1; dy <= 1; dy++) {
    for (int dx = -1; dx <= 1; dx++) {
      int2 p = (int2)(clamp(x + dx, 0, w - 1), clamp(y + dy, 0, h - 1));
      sum += read_imagef(src, p);
    }
  }
  write_imagef(dst, (int2)(x, y), sum / 9.0f);
}
