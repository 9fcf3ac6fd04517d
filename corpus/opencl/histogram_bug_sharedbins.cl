//xfail:NOT_ALL_VERIFIED
//--local_size=64 --num_groups=8
//possible [a-z]+-[a-z]+ race on .*bins\[
//histogram_bug_sharedbins.cl:22:

// histogram.cl with one shared set of bins updated by every work item
// (a read-modify-write without atomics): two work items that see values
// with the same low bits update the same bin concurrently.
#define LS 64
#define BINS 16
#define CHUNK 1024

__kernel void histogram(__global const unsigned *data, __global unsigned *hist) {
  __local unsigned bins[BINS];
  unsigned lid = get_local_id(0);
  unsigned base = get_group_id(0) * CHUNK;
  if (lid < BINS)
    bins[lid] = 0;
  barrier(CLK_LOCAL_MEM_FENCE);
  for (unsigned i = lid; i < CHUNK; i += LS) {
    unsigned bin = data[base + i] & (BINS - 1);
    bins[bin] += 1;
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  if (lid < BINS)
    hist[get_group_id(0) * BINS + lid] = bins[lid];
}
