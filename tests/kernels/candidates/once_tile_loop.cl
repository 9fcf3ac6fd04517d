//pass
//--local_size=64 --num_groups=4

// The tile loop i steps by the global size (256), past n: it runs at most once per
// thread, and rule "once" holds at its head.  The loop r runs twice per thread (step 64
// over 128): its "once" candidates are false.  Both enclose a loop; j does not (no
// "once" candidate there).
__kernel void tiles(__global int *a, __global int *b, int n) {
  __requires(n <= 256);
  int acc = 0;
  for (int i = get_global_id(0); i < n; i += 256)
    for (int j = 0; j < 4; j++)
      a[i] = a[i] + j;
  for (int r = get_local_id(0); r < 128; r += 64)
    for (int j = 0; j < 4; j++)
      acc += r * j;
  b[get_global_id(0)] = acc;
}
