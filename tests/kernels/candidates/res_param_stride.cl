//pass
//--local_size=64 --num_groups=4

// A loop strided by a kernel parameter at least the global size, under concrete sizes:
// rule res states i modulo s; r1 and r10's remainders by s (a bit-vector divider by a
// variable) are superseded, as under symbolic sizes.
__kernel void shift(__global int *a, unsigned n, unsigned s) {
  __requires(n <= 0x40000000u);
  __requires(s >= get_global_size(0) && s <= 0x40000000u);
  for (unsigned i = get_global_id(0); i < n; i += s)
    a[i] = a[i] + 1;
}
