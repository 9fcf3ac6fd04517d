//xfail:NOT_ALL_VERIFIED
//--local_size=64 --num_groups=8
//possible (atomic-write|write-atomic) race on bins\[
//Atomic by work item
//atomic20_histogram_bug_plain.cl:21:
//atomic20_histogram_bug_plain.cl:24:

// atomic20_histogram.cl where group 0 resets the global bins with atomic_init,
// which is a plain store (OpenCL 2.0 6.13.11.5), while other groups add into
// them atomically: an atomic races with a plain write.
#define BINS 16

__kernel void histogram20(__global const uint *in, __global atomic_uint *bins) {
  __local atomic_uint local_bins[BINS];
  uint lid = get_local_id(0);
  if (lid < BINS)
    atomic_store(&local_bins[lid], 0u);
  barrier(CLK_LOCAL_MEM_FENCE);
  atomic_fetch_add(&local_bins[in[get_global_id(0)] % BINS], 1u);
  if (get_group_id(0) == 0 && lid < BINS)
    atomic_init(&bins[lid], 0u);
  barrier(CLK_LOCAL_MEM_FENCE);
  if (lid < BINS)
    atomic_fetch_add(&bins[lid], atomic_load(&local_bins[lid]));
}
