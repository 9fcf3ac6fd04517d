//pass
//--local_size=64 --num_groups=8

// One compare-and-swap pass (parameters j, k) of a global bitonic sort: the
// work item with the lower index of each pair i, i ^ j does the exchange.
__kernel void bitonic_step(__global unsigned *data, unsigned j, unsigned k) {
  unsigned i = get_global_id(0);
  unsigned ixj = i ^ j;
  if (ixj > i) {
    unsigned a = data[i];
    unsigned b = data[ixj];
    bool ascending = (i & k) == 0;
    if ((a > b) == ascending) {
      data[i] = b;
      data[ixj] = a;
    }
  }
}
