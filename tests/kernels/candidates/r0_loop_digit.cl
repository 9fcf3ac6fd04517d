//pass
//--local_size=[16,16] --num_groups=[4,4]
//known_gap: without the function-wide invariants PolyBench writes, the races between groups need facts about the tile counters modulo the group count

// r0 and loop terms in the digits of the thread components (PolyBench tiles): the
// element (c0 + t0, c1 + t1) of a row-major n x n matrix, c0 and c1 tile counters.  No
// quotient or remainder of the offset by n is a local id (each carries its tile counter).
__kernel void scale_tiles(__global float *C, int n) {
  __requires(n == 256);
  long t0 = get_local_id(0), t1 = get_local_id(1);
  for (long c0 = 16 * get_group_id(0); c0 < n; c0 += 64)
    for (long c1 = 16 * get_group_id(1); c1 < n; c1 += 64)
      C[(c0 + t0) * n + c1 + t1] *= 2.0f;
}
