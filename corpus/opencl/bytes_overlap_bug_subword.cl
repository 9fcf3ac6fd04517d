//xfail:NOT_ALL_VERIFIED
//--local_size=64 --num_groups=8
//possible write-write race on .*buf
//bytes_overlap_bug_subword.cl:14:
//bytes_overlap_bug_subword.cl:15:

// Mixed-width writes to one buffer (byte-level memory): work item i writes a
// 32-bit word at bytes 4i..4i+3 and a flag byte at 4i+6, which lies inside
// the word of work item i + 1 (offset + 2).
__kernel void tag(__global uchar *buf) {
  unsigned i = get_global_id(0);
  __global uint *words = (__global uint *)buf;
  if (i + 1 < get_global_size(0)) {
    words[i] = 0x01020304u;
    buf[4 * i + 6] = 7;
  }
}
