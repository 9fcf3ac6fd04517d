//pass
//--local_size=64 --num_groups=4

// Data-dependent scatter through a permutation computed in local memory: each work
// item stores its destination slot, and after the barrier scatters its value to the
// slot read back from the table.  The equality abstraction alone cannot tell that
// the slots differ; the barrier invariant says what the table holds, and instantiating
// it for the reading work item proves the scattered writes distinct.
#define N 64

__kernel void rotate_scatter(__global const float *in, __global float *out, unsigned shift) {
  __requires(shift < N);
  __local unsigned slot[N];
  __local float tile[N];
  unsigned lid = get_local_id(0); __requires(get_local_size(0) == N);
  slot[lid] = (lid + shift) % N;
  __barrier_invariant_1(slot[lid] == (lid + shift) % N, lid);
  barrier(CLK_LOCAL_MEM_FENCE);
  tile[slot[lid]] = in[get_global_id(0)];
  barrier(CLK_LOCAL_MEM_FENCE);
  out[get_global_id(0)] = tile[lid];
}
