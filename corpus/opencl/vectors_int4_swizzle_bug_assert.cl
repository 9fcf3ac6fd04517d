//xfail:NOT_ALL_VERIFIED
//--local_size=64 --num_groups=8
//vectors_int4_swizzle_bug_assert.cl:11:[0-9]+: error: this assertion might not hold for work item [0-9]+ with local id [0-9]+ in work group [0-9]+

// vectors_int4_swizzle.cl asserting the wrong lane: .wzyx reverses, so w.x
// comes from v.w, not v.x.
__kernel void swizzle(__global int4 *out, __global int *sums) {
  int g = (int)get_global_id(0);
  int4 v = (int4)(g, g + 1, g + 2, g + 3);
  int4 w = v.wzyx + (int4)(1, 1, 1, 1);
  __assert(w.x == g + 1);
  out[g] = w;
  sums[g] = w.x + w.y + w.z + w.w;
}
