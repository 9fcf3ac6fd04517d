//pass
//--local_size=64 --num_groups=8

// Integer vector lanes are exact: swizzles, lane-wise arithmetic and
// component access are checked by assertions.
__kernel void swizzle(__global int4 *out, __global int *sums) {
  int g = (int)get_global_id(0);
  int4 v = (int4)(g, g + 1, g + 2, g + 3);
  int4 w = v.wzyx + (int4)(1, 1, 1, 1);
  __assert(w.x == g + 4 && w.w == g + 1);
  int2 lo = w.lo;
  __assert(lo.y == g + 3);
  out[g] = w;
  sums[g] = w.x + w.y + w.z + w.w;
}
