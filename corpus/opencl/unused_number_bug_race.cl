//xfail:NOT_ALL_VERIFIED
//--local_size=64 --num_groups=8 --no-inline
//possible write-write race on dst\[
//unused_number_bug_race.cl:12:

// unused_number.cl without the contract: nothing says the work items pass the
// same pointer, and a caller handing each its own dst + get_local_id(0) makes
// the strided writes collide.  No kernel calls the helper, so only --no-inline
// (which verifies it for every call its empty contract allows) finds this.
void number_strided(__local float *dst, unsigned n) {
  for (unsigned i = get_local_id(0); i < n; i += get_local_size(0))
    dst[i] = (float)i;
}

__kernel void scale(__global float *v, float a) {
  size_t i = get_global_id(0);
  v[i] = a * v[i];
}
