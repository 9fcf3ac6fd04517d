//pass
//--local_size=64 --num_groups=8

// Work-efficient exclusive scan (Blelloch) of a 128-element block, two
// elements per work item: the up-sweep builds partial sums in place, the
// root is cleared, the down-sweep distributes them. Step `offset` uses the
// first N / (2 * offset) work items. The loop invariants are written by the
// user (the candidate rules would also guess them).
#define N 128

__kernel void blelloch(__global const int *in, __global int *out) {
  __local int temp[N];
  unsigned lid = get_local_id(0); __requires(get_local_size(0) == N / 2);
  unsigned base = get_group_id(0) * N;
  temp[2 * lid] = in[base + 2 * lid];
  temp[2 * lid + 1] = in[base + 2 * lid + 1];
  for (unsigned offset = 1;
       __invariant(offset >= 1), __invariant(offset <= N),
       __invariant((offset & (offset - 1)) == 0), offset < N; offset *= 2) {
    barrier(CLK_LOCAL_MEM_FENCE);
    if (lid < N / (2 * offset)) {
      unsigned ai = offset * (2 * lid + 1) - 1;
      unsigned bi = offset * (2 * lid + 2) - 1;
      temp[bi] += temp[ai];
    }
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  if (lid == 0)
    temp[N - 1] = 0;
  for (unsigned offset = N / 2; __invariant(offset <= N / 2), offset >= 1;
       offset >>= 1) {
    barrier(CLK_LOCAL_MEM_FENCE);
    if (lid < N / (2 * offset)) {
      unsigned ai = offset * (2 * lid + 1) - 1;
      unsigned bi = offset * (2 * lid + 2) - 1;
      int t = temp[ai];
      temp[ai] = temp[bi];
      temp[bi] += t;
    }
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  out[base + 2 * lid] = temp[2 * lid];
  out[base + 2 * lid + 1] = temp[2 * lid + 1];
}
