//pass
//--local_size=64 --num_groups=1

// r9 (loopBound): after the loop i == 4 only because i <= 4 at the head; with any
// larger i, lid * i could wrap and two work-items would write one element.
__kernel void loop_bound(__local int *a, __global int *out) {
  unsigned lid = get_local_id(0);
  int i;
  for (i = 0; i < 4; i++)
    out[lid] = i;
  a[lid * i] = lid;  // distinct values: a same-value collision would be a benign race
}
