//pass
//--local_size=256 --num_groups=2

// r1 through nested counters: j starts at the outer counter i and both step by the
// group size, so every offset j + lid is lid modulo the group size (all threads write
// different elements) -- known at the outer head only by replacing j by i and i by 0.
__kernel void fill_rows(__local int *data) {
  for (int i = 0; i < get_local_size(0) * 4; i += get_local_size(0)) {
    for (int j = i; j < get_local_size(0) * 4; j += get_local_size(0)) {
      data[j + get_local_id(0)] = get_local_id(0);
    }
  }
}
