//xfail:NOT_ALL_VERIFIED
//--local_size=64 --num_groups=8
//possible write-write race on ring

// Bug: without the power-of-two requirement the mask is not a modulus (cap = 96 keeps
// only some bits of the slot), so two work items may hit one slot.
__kernel void ring_put(__global int *ring, unsigned cap, unsigned head, __global const int *vals) {
  __requires(cap >= get_global_size(0));
  unsigned slot = __add_noovfl_unsigned_int(head, get_global_id(0));
  ring[__mod_pow2(slot, cap)] = vals[get_global_id(0)];
}
