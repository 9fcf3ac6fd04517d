//pass
//--local_size=[16,4] --num_groups=2

// id by source: the read of the own element before the loop is four byte reads with one
// source; the loop reads other elements between its barriers (offsets it moves), so the
// log at the loop head needs "SRC == n ==> OFF is one of access n's four bytes".
__kernel void mix_rows(__global uchar4 *out, __local uchar4 *s, unsigned rounds) {
  unsigned lx = get_local_id(0), ly = get_local_id(1);
  unsigned li = ly * get_local_size(0) + lx;
  s[li] = (uchar4)(1, 2, 3, 4);
  s[li] ^= (uchar4)(ly, ly, ly, ly);
  for (unsigned i = 1; i < rounds; i++) {
    s[li] = s[li] + (uchar4)(1, 1, 1, 1);
    barrier(CLK_LOCAL_MEM_FENCE);
    uchar4 acc = s[lx];
    for (unsigned k = 1; k < 4; k++)
      acc ^= s[k * get_local_size(0) + lx];
    barrier(CLK_LOCAL_MEM_FENCE);
    s[li] = acc;
  }
  s[li] = s[li] + (uchar4)(2, 2, 2, 2);
  out[get_global_id(1) * get_global_size(0) + get_global_id(0)] = s[li];
}
