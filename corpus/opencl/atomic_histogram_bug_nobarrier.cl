//xfail:NOT_ALL_VERIFIED
//--local_size=64 --num_groups=8
//possible (atomic-read|read-atomic) race on local_bins\[
//Atomic by work item
//atomic_histogram_bug_nobarrier.cl:19:
//atomic_histogram_bug_nobarrier.cl:21:

// atomic_histogram.cl without the barrier between the local atomics and the
// reads of the local bins: a work item may read a bin while another one
// still increments it (an atomic does race with a plain read).
#define BINS 16

__kernel void histogram(__global const uint *in, __global uint *bins) {
  __local uint local_bins[BINS];
  uint lid = get_local_id(0);
  if (lid < BINS)
    local_bins[lid] = 0;
  barrier(CLK_LOCAL_MEM_FENCE);
  atomic_inc(&local_bins[in[get_global_id(0)] % BINS]);
  if (lid < BINS)
    atomic_add(&bins[lid], local_bins[lid]);
}
