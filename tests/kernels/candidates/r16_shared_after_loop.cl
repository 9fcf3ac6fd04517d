//pass
//--local_size=16 --num_groups=4

// copies: the loop ends its body with a barrier, so at its head the two threads'
// copies of p are equal when they share a group; p[0] read after the loop is then the
// same in both, and the loop it guards reaches its barriers uniformly in the group.
// The second loop's counter runs to the group id: equal within a group only.
__kernel void rounds(__local int *p) {
  for (int i = 0; i < 8; i++) {
    barrier(CLK_LOCAL_MEM_FENCE);
    p[get_local_id(0)] = i;
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (p[0] == 7) {
    for (int i = 0; i < get_group_id(0); i++) {
      barrier(CLK_LOCAL_MEM_FENCE);
      p[get_local_id(0)] = i;
      barrier(CLK_LOCAL_MEM_FENCE);
    }
  }
}
