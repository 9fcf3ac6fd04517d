//xfail:NOT_ALL_VERIFIED
//--local_size=* --num_groups=*
//possible write-write race on a\[

// A loop over the global id strided by the (symbolic) local size: element gid + k * L is
// written by work items of different groups.  Rule res states the residue modulo L; r1 and
// r10's remainders by L (a bit-vector divider) are superseded.
__kernel void mark(__global unsigned *a, unsigned n) {
  for (unsigned i = get_global_id(0); i < n; i += get_local_size(0))
    a[i] = get_global_id(0);
}
