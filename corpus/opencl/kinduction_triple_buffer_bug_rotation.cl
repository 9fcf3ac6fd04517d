//xfail:NOT_ALL_VERIFIED
//--local_size=1024 --num_groups=1 --no-infer --k-induction-depth=3
//possible (read-write|write-read) race on buf\[

// BUG: the rotation gives nxt the value of old after old was overwritten, so
// after one step nxt == old: the next step writes the slot
// it reads (its right neighbour's element, written by another work item).
// As kinduction_triple_buffer.cl otherwise.
#define N 1024
__kernel void leapfrog(__global float *buf, int steps) {
  int gid = get_global_id(0);
  int old = 0, cur = 1, nxt = 2;
  for (int s = 0; __invariant(cur != nxt), __invariant(cur >= 0), __invariant(cur <= 2), s < steps; s++) {
    int right = gid + 1 < N ? gid + 1 : gid;
    buf[nxt * N + gid] = 2.0f * buf[cur * N + gid] - buf[old * N + right];
    barrier(CLK_GLOBAL_MEM_FENCE);
    int t = old;
    old = cur;
    cur = nxt;
    nxt = old;
  }
}
