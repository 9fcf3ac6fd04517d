//pass
//--local_size=32 --num_groups=2
// Each work item updates its own column of a triangular system: the write's offset moves
// with the outer counter i, the inner loop's with j.  At the inner head the write log may
// hold a write from an earlier i, so the residue modulo 32 comes from the enclosing loop.
__kernel void columns(__local float *rows, __global float *out) {
  int tx = get_local_id(0);
  rows[tx] = out[get_global_id(0)];
  for (int i = 1; i < 16; i++)
    for (int j = 0; j < i; j++)
      rows[i * 32 + tx] -= rows[j * 32 + tx];
  out[get_global_id(0)] = rows[15 * 32 + tx];
}
