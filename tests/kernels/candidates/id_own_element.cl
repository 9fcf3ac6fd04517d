//pass
//--local_size=64 --num_groups=1

// id: every iteration writes the work-item's own element: OFF == lid.
__kernel void own_element(__local int *a, unsigned n) {
  for (unsigned i = 0; i < n; i++)
    a[get_local_id(0)] = i;
}
