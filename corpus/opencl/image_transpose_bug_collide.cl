//xfail:NOT_ALL_VERIFIED
//--local_size=16,16 --num_groups=2,2
//possible write-write race on dst at \(x, y\) = \(
//Write by work item .*image_transpose_bug_collide.cl:13:3:

// Transpose with a 2x vertical downsampling folded in wrongly: the work items of
// rows 2k and 2k+1 write the same destination pixel (y/2, x).
__kernel void image_transpose(__read_only image2d_t src, __write_only image2d_t dst) {
  int x = get_global_id(0);
  int y = get_global_id(1);
  int4 v = read_imagei(src, (int2)(x, y));
  int2 to = (int2)(y / 2, x);
  write_imagei(dst, to, v);
}
