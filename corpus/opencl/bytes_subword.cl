//pass
//--local_size=64 --num_groups=8

// bytes_overlap_bug_subword.cl with the flag byte inside the work item's own
// word (offset + 2): mixed widths, no overlap between work items.
__kernel void tag(__global uchar *buf) {
  unsigned i = get_global_id(0);
  __global uint *words = (__global uint *)buf;
  words[i] = 0x01020304u;
  buf[4 * i + 2] = 7;
}
