//pass
//--local_size=16,4 --num_groups=2,8

// Copies a region of an image through a sampler (unnormalized integer
// coordinates, clamp to edge, nearest filter) shifted by a uniform offset.
__constant sampler_t smp = CLK_NORMALIZED_COORDS_FALSE | CLK_ADDRESS_CLAMP_TO_EDGE |
                           CLK_FILTER_NEAREST;

__kernel void image_copy_sampler(__read_only image2d_t src, __write_only image2d_t dst,
                                 int ox, int oy) {
  int2 pos = (int2)(get_global_id(0), get_global_id(1));
  uint4 px = read_imageui(src, smp, pos + (int2)(ox, oy));
  write_imageui(dst, pos, px);
}
