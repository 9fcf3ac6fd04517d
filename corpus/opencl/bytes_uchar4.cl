//pass
//--local_size=64 --num_groups=8

// RGBA pixels as uchar4: per-channel 8-bit arithmetic on a byte buffer and a
// 32-bit word view of another buffer (one word per work item).
__kernel void brighten(__global uchar4 *px, __global uint *packed, uchar add) {
  unsigned i = get_global_id(0);
  uchar4 p = px[i];
  p.xyz = p.xyz + (uchar3)(add, add, add);
  px[i] = p;
  packed[i] = as_uint(p);
}
