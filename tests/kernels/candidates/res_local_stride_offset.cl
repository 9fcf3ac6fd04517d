//pass
//--local_size=* --num_groups=* --no-inline

// A helper verified on its own (--no-inline): the work items of a group pass one
// pointer (its byte offset uniform) and one length, and stride through the buffer by
// the symbolic local size.  The element offsets of the two work items' pointers are
// equal only modulo 2^30 (4-byte cells): rule res's residue of the logged index holds
// with the bound j < len of the logged cell, which rules out the other representatives.
void fill(__local int *buf, unsigned len) {
  __requires(__uniform_int(__ptr_offset_bytes(buf)));
  __requires(__uniform_int(len));
  __requires(len <= (1u << 30));
  for (unsigned j = get_local_id(0); j < len; j += get_local_size(0))
    buf[j] = (int)j;
}

__kernel void touch(__global int *a) {
  a[get_global_id(0)] = 1;
}
