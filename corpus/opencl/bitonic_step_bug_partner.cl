//xfail:NOT_ALL_VERIFIED
//--local_size=64 --num_groups=8
//possible [a-z]+-[a-z]+ race on .*data\[

// bitonic_step.cl with the partner computed as i + j instead of i ^ j: the
// element i + j is also the "own" element of work item i + j, so pairs
// overlap and two work items exchange the same element.
__kernel void bitonic_step(__global unsigned *data, unsigned j, unsigned k) {
  unsigned i = get_global_id(0);
  unsigned ixj = i + j;
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
