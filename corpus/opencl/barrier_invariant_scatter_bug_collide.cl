//xfail:NOT_ALL_VERIFIED
//--local_size=64 --num_groups=4
//possible write-write race on tile\[

// Like barrier_invariant_scatter.cl, but the table maps two work items to each even
// slot: the barrier invariant holds (and is proved), and with it the verifier sees the
// colliding writes to the tile.
#define N 64

__kernel void rotate_scatter(__global const float *in, __global float *out, unsigned shift) {
  __requires(shift < N);
  __local unsigned slot[N];
  __local float tile[N];
  unsigned lid = get_local_id(0);
  slot[lid] = ((lid / 2) * 2 + shift) % N;
  __barrier_invariant_1(slot[lid] == ((lid / 2) * 2 + shift) % N, lid);
  barrier(CLK_LOCAL_MEM_FENCE);
  tile[slot[lid]] = in[get_global_id(0)];
  barrier(CLK_LOCAL_MEM_FENCE);
  out[get_global_id(0)] = tile[lid];
}
