//pass
//--local_size=64 --num_groups=1

// r12/r13: the barriers leave no access in flight at the loop head; the neighbour
// read and the own-element write of different iterations never meet.
__kernel void no_access(__local int *a) {
  unsigned lid = get_local_id(0);
  for (unsigned i = 0; i < 8; i++) {
    a[lid] = i;
    barrier(CLK_LOCAL_MEM_FENCE);
    int x = a[(lid + 1) % 64];
    barrier(CLK_LOCAL_MEM_FENCE);
    a[lid] = x;
  }
}
