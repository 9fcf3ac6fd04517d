//pass
//--local_size=32 --num_groups=8

// Keys that stay pairwise distinct across rounds (a binary barrier invariant with
// __other_int), and equal to the work item's id plus the round (a unary one): every
// round each work item bumps its own key.  At the end the key is used as the slot of
// the output row, which is race-free only because of what the invariants prove.
#define N 32

__kernel void bump_keys(__global unsigned *out, int rounds) {
  __requires(rounds >= 0);
  __local int key[N];
  unsigned lid = get_local_id(0); __requires(get_local_size(0) == N);
  key[lid] = lid;
  for (int r = 0; __invariant(__implies(__same_group, key[lid] != key[__other_int(lid)])),
                  __invariant(key[lid] == (int)lid + r), r < rounds; r++) {
    __barrier_invariant_binary_1(key[lid] != key[__other_int(lid)], lid, __other_int(lid));
    __barrier_invariant_1(key[lid] == (int)lid + r, lid);
    barrier(CLK_LOCAL_MEM_FENCE);
    key[lid] = key[lid] + 1;
  }
  __barrier_invariant_binary_1(key[lid] != key[__other_int(lid)], lid, __other_int(lid));
  __barrier_invariant_1(key[lid] == (int)lid + rounds, lid);
  barrier(CLK_LOCAL_MEM_FENCE);
  out[get_group_id(0) * N + (key[lid] - rounds)] = lid;
}
