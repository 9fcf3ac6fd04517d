//xfail:NOT_ALL_VERIFIED
//--local_size=8,8 --num_groups=4,4 --clang-opt=-cl-std=CL2.0
//possible (write-read|read-write) race on img at \(x, y\) = \(
//image_blur_bug_inplace.cl:(17:14|20:3):

// 3x3 box blur done in place on a read_write image (OpenCL 2.0): a work item
// overwrites its pixel while its neighbours may still be reading it.
__kernel void image_blur_inplace(read_write image2d_t img) {
  int x = get_global_id(0);
  int y = get_global_id(1);
  int w = get_image_width(img);
  int h = get_image_height(img);
  float4 sum = (float4)(0.0f);
  for (int dy = -1; dy <= 1; dy++) {
    for (int dx = -1; dx <= 1; dx++) {
      int2 p = (int2)(clamp(x + dx, 0, w - 1), clamp(y + dy, 0, h - 1));
      sum += read_imagef(img, p);
    }
  }
  write_imagef(img, (int2)(x, y), sum / 9.0f);
}
