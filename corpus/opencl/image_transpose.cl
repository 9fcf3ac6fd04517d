//pass
//--local_size=16,16 --num_groups=2,2

// Image transpose: the pixel at (x, y) of the source goes to (y, x) of the
// destination; every work item writes a distinct destination pixel.
__kernel void image_transpose(__read_only image2d_t src, __write_only image2d_t dst) {
  int x = get_global_id(0);
  int y = get_global_id(1);
  int4 v = read_imagei(src, (int2)(x, y));
  write_imagei(dst, (int2)(y, x), v);
}
