// A 4-byte write and a 1-byte write overlapping at offset + 2 of the next word.
__kernel void sub(__global uchar *buf) {
  unsigned i = get_global_id(0);
  ((__global uint *)buf)[i] = 0xAABBCCDDu;
  buf[4 * i + 6] = 1;
}
