//pass
//--local_size=64 --num_groups=8

// Batched small outer products: for each of 4 batches, work item gid computes
// a 4x4 block out[batch][r][c][gid] = u[batch][r][gid] * v[batch][c][gid]
// (gid innermost, so the writes of one work item are strided by the global
// size 512).
#define G 512

__kernel void outer_blocks(__global const float *u, __global const float *v,
                           __global float *out) {
  unsigned gid = get_global_id(0); __requires(get_global_size(0) <= G);
  for (unsigned b = 0; b < 4; b++)
    for (unsigned r = 0; r < 4; r++)
      for (unsigned c = 0; c < 4; c++)
        out[((b * 4 + r) * 4 + c) * G + gid] =
            u[(b * 4 + r) * G + gid] * v[(b * 4 + c) * G + gid];
}
