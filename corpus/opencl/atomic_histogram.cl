//pass
//--local_size=64 --num_groups=8

// 16-bin histogram: every work item increments its bin in a local histogram
// with atomic_inc, then (after a barrier) the first 16 work items add the
// local bins into the global histogram with atomic_add. Atomics never race
// with each other; the barriers separate them from the plain accesses.
#define BINS 16

__kernel void histogram(__global const uint *in, __global uint *bins) {
  __local uint local_bins[BINS];
  uint lid = get_local_id(0);
  if (lid < BINS)
    local_bins[lid] = 0;
  barrier(CLK_LOCAL_MEM_FENCE);
  atomic_inc(&local_bins[in[get_global_id(0)] % BINS]);
  barrier(CLK_LOCAL_MEM_FENCE);
  if (lid < BINS)
    atomic_add(&bins[lid], local_bins[lid]);
}
