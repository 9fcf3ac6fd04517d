//pass
//--local_size=1024 --num_groups=1 --no-infer --k-induction-depth=3

// Time stepping of one work group with three buffers in one allocation (steps
// t-1, t, t+1 in slots old, cur, nxt): every step writes slot nxt from slots cur
// and old (the right neighbour's element), and the slots rotate.  That the
// writes never hit a slot being read needs the three slot numbers to stay
// distinct and in range; the invariants state this of cur and nxt only, which
// is not inductive alone but holds for any three consecutive steps (the
// rotation has period 3): k-induction of depth 3 proves it (GPUVerify's
// --k-induction-depth); plain induction reports the invariant not maintained.
#define N 1024
__kernel void leapfrog(__global float *buf, int steps) {
  int gid = get_global_id(0); __requires(get_num_groups(0) == 1);
  int old = 0, cur = 1, nxt = 2;
  for (int s = 0; __invariant(cur != nxt), __invariant(cur >= 0), __invariant(cur <= 2), s < steps; s++) {
    int right = gid + 1 < N ? gid + 1 : gid;
    buf[nxt * N + gid] = 2.0f * buf[cur * N + gid] - buf[old * N + right];
    barrier(CLK_GLOBAL_MEM_FENCE);
    int t = old;
    old = cur;
    cur = nxt;
    nxt = t;
  }
}
