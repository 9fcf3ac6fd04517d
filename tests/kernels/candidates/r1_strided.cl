//pass
//--local_size=64 --num_groups=1

// r1/r10: strength-reduced coalesced loop; (OFF - lid) % 64 == 0 needs (i - lid) % 64 == 0.
__kernel void strided(__local int *a) {
  for (unsigned i = get_local_id(0); i < 1024; i += 64)
    a[i] = get_local_id(0);
}
