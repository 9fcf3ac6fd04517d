//pass
//--local_size=* --num_groups=*

// A grid-stride loop under symbolic sizes: the stride get_global_size(0) is the
// product of two unknown sizes (rule res: i is gid modulo the stride).
__kernel void shift(__global int *a, unsigned n) {
  __requires(n <= 0x40000000u);
  for (unsigned i = get_global_id(0); i < n; i += get_global_size(0))
    a[i] = a[i] + 1;
}
