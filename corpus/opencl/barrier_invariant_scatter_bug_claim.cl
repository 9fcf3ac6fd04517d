//xfail:NOT_ALL_VERIFIED
//--local_size=64 --num_groups=4
//barrier_invariant_scatter_bug_claim.cl:18:3: error: this barrier invariant might not hold

// Like barrier_invariant_scatter.cl, but the invariant claims the rotation while the
// table holds a different one for the last work item: the claim is checked at the
// barrier (and never assumed unproved).
#define N 64

__kernel void rotate_scatter(__global const float *in, __global float *out, unsigned shift) {
  __requires(shift < N);
  __local unsigned slot[N];
  __local float tile[N];
  unsigned lid = get_local_id(0);
  slot[lid] = (lid + shift) % N;
  if (lid == N - 1)
    slot[lid] = shift;
  __barrier_invariant_1(slot[lid] == (lid + shift) % N, lid);
  barrier(CLK_LOCAL_MEM_FENCE);
  tile[slot[lid]] = in[get_global_id(0)];
  barrier(CLK_LOCAL_MEM_FENCE);
  out[get_global_id(0)] = tile[lid];
}
