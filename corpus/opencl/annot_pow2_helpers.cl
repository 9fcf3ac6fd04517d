//pass
//--local_size=64 --num_groups=8

// Ring-buffer writes: the host guarantees a power-of-two capacity, so the wrap-around is
// a mask (__mod_pow2) and each work group's slots stay disjoint.  __add_noovfl_unsigned_int
// states that the base offset plus the slot does not overflow (a trusted promise).
__kernel void ring_put(__global int *ring, unsigned cap, unsigned head, __global const int *vals) {
  __requires(__is_pow2(cap));
  __requires(cap >= get_global_size(0));
  unsigned slot = __add_noovfl_unsigned_int(head, get_global_id(0));
  ring[__mod_pow2(slot, cap)] = vals[get_global_id(0)];
  __assert(__mod_pow2(slot, cap) == __ite(slot < cap, slot, slot & (cap - 1)));
}
