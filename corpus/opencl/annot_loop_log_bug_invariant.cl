//xfail:NOT_ALL_VERIFIED
//--local_size=64 --num_groups=4 --no-infer
//annot_loop_log_bug_invariant.cl:12:8: error: loop invariant might not be maintained by the loop

// Like annot_loop_log.cl, but the invariant names the wrong element: the loop
// writes x[gid + 1], so the write offset is 4 * (gid + 1), not 4 * gid.
__kernel void relax(__global float *x, __global const float *w, int iters) {
  size_t gid = get_global_id(0);
  if (gid + 1 >= get_global_size(0))
    return;
  for (int k = 0;
       __invariant(__write_implies(x, __write_offset_bytes(x) == gid * sizeof(float))),
       k < iters; k++) {
    x[gid + 1] = 0.5f * w[gid];
  }
}
