//xfail:NOT_ALL_VERIFIED
//--local_size=32 --num_groups=8
//insufficient permission may be held for evaluation of this barrier invariant

// Like barrier_invariant_distinct_keys.cl, but the invariant talks about the key of the
// next work item, which that work item (not this one) has just written: this work item
// cannot know its value at the barrier, so the invariant is rejected.
#define N 32

__kernel void bump_keys(__global unsigned *out) {
  __local int key[N];
  unsigned lid = get_local_id(0);
  key[lid] = lid;
  __barrier_invariant_1(key[(lid + 1) % N] == (int)((lid + 1) % N), lid);
  barrier(CLK_LOCAL_MEM_FENCE);
  out[get_group_id(0) * N + key[(lid + 1) % N]] = lid;
}
