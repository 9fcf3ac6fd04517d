//pass
//--local_size=64 --num_groups=8

// Mixed-width writes to one buffer (byte-level memory) that do not overlap:
// work item i writes a 16-bit half word at bytes 4i..4i+1 and a flag byte at
// 4i+3, both inside its own 4-byte slot.
__kernel void tag(__global uchar *buf) {
  unsigned i = get_global_id(0);
  __global ushort *halves = (__global ushort *)buf;
  halves[2 * i] = 0x0102;
  buf[4 * i + 3] = 7;
}
