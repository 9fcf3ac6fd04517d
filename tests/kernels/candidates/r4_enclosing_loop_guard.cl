//xfail:NOT_ALL_VERIFIED
//--local_size=64 --num_groups=1

// Shape test only: race-free, but not verified (known gap: no candidate relates the
// logged offset to the thread across the iterations of the outer loop; main neither).
// At the head of the j loop, the condition lid < 8 of the enclosing if is the same in
// every iteration of the i loop (r4), while the i loop's own guard i < n is evaluated
// anew in each: the log may hold an access from an iteration whose i is now past n
// (no r4 candidate about it).
__kernel void outer_guard(__local int *a, int n) {
  __requires(n <= 64);
  if (get_local_id(0) < 8) {
    for (int i = get_local_id(0); i < n; i += 8)
      for (int j = 0; j < 4; j++)
        a[4 * i + j] = j;
  }
}
