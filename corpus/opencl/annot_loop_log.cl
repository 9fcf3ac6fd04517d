//pass
//--local_size=64 --num_groups=4 --no-infer

// Repeated relaxation of one element per work item, checked without inferred
// invariants: the user invariant says that the only write in flight is the work
// item's own element (byte offset 4 * gid), so no other work item's write conflicts.
__kernel void relax(__global float *x, __global const float *w, int iters) {
  size_t gid = get_global_id(0);
  for (int k = 0;
       __invariant(__write_implies(x, __write_offset_bytes(x) == gid * sizeof(float))),
       __invariant(__read_implies(x, __read_offset_bytes(x) == gid * sizeof(float))),
       k < iters; k++) {
    x[gid] = 0.5f * (x[gid] + w[gid]);
  }
}
