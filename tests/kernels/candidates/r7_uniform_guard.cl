//pass
//--local_size=64 --num_groups=1

// r7: i starts at the (non-uniform) local id and steps by the uniform group size:
// i - lid is uniform, so the guard is, and the barrier is reached by all or none.
__kernel void uniform_guard(__local int *a) {
  for (unsigned i = get_local_id(0); i < 256; i += get_local_size(0)) {
    a[i] = 1;
    barrier(CLK_LOCAL_MEM_FENCE);
  }
}
