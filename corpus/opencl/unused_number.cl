//pass
//--local_size=64 --num_groups=8 --no-inline

// A library helper no kernel of this file calls yet: the work items of a group
// number a strided part of a __local buffer.  With --no-inline it is verified
// for every call its contract allows -- here: all work items pass the same
// pointer and the same length, so their strided cells never meet.  The length is
// at most the 2^30 floats a 32-bit address space holds: a larger n lets i wrap
// past 2^32 and, for a local size that is not a power of two (any size with
// --local_size=*), land on another work item's cell -- a real race.
void number_strided(__local float *dst, unsigned n) {
  __requires(__uniform_int(__ptr_offset_bytes(dst)));
  __requires(__uniform_int(n));
  __requires(n <= (1u << 30));
  for (unsigned i = get_local_id(0); i < n; i += get_local_size(0))
    dst[i] = (float)i;
}

__kernel void scale(__global float *v, float a) {
  size_t i = get_global_id(0);
  v[i] = a * v[i];
}
