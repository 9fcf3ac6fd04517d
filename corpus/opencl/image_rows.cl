//pass
//--local_size=[16,16] --num_groups=[4,4]

// Double every pixel of an image as wide and as high as the 2-D launch, one
// work item per pixel, row-major: pixel (x, y) is img[y * width + x].
__kernel void image_rows(__global float *img) {
  uint x = get_global_id(0), y = get_global_id(1);
  img[y * get_global_size(0) + x] *= 2.0f;
}
