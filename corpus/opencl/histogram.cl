//pass
//--local_size=64 --num_groups=8

// 16-bin histogram of the low four bits of each value, without atomics: every
// work item counts its strided share of the group's chunk into a private
// column of sub[] (bin b of work item lid lives at sub[b * 64 + lid]); after
// a barrier, work item b < 16 sums row b and writes the group's bin b.
#define LS 64
#define BINS 16
#define CHUNK 1024

__kernel void histogram(__global const unsigned *data, __global unsigned *hist) {
  __local unsigned sub[BINS * LS];
  unsigned lid = get_local_id(0); __requires(get_local_size(0) == LS);
  unsigned base = get_group_id(0) * CHUNK;
  for (unsigned b = 0; b < BINS; b++)
    sub[b * LS + lid] = 0;
  for (unsigned i = lid; i < CHUNK; i += LS) {
    unsigned bin = data[base + i] & (BINS - 1);
    sub[bin * LS + lid] += 1;
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  if (lid < BINS) {
    unsigned total = 0;
    for (unsigned t = 0; t < LS; t++)
      total += sub[lid * LS + t];
    hist[get_group_id(0) * BINS + lid] = total;
  }
}
