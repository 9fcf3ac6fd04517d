//xfail:NOT_ALL_VERIFIED
//--local_size=[16,16] --num_groups=[8,8]
//possible write-read race on .*tile
//Write by work item \([0-9, ]+\) with local id \([0-9, ]+\) in work group \([0-9, ]+\), .*transpose_bug_nobarrier.cl:16:
//Read by work item \([0-9, ]+\) with local id \([0-9, ]+\) in work group \([0-9, ]+\), .*transpose_bug_nobarrier.cl:17:

// transpose.cl without the barrier between filling the tile and reading it
// transposed: tile[tx][ty] belongs to another work item.
#define TILE 16
#define WIDTH 128

__kernel void transpose(__global const float *in, __global float *out) {
  __local float tile[TILE][TILE + 1];
  unsigned tx = get_local_id(0), ty = get_local_id(1);
  unsigned bx = get_group_id(0), by = get_group_id(1);
  tile[ty][tx] = in[(by * TILE + ty) * WIDTH + bx * TILE + tx];
  out[(bx * TILE + ty) * WIDTH + by * TILE + tx] = tile[tx][ty];
}
