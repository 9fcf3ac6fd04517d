//xfail:NOT_ALL_VERIFIED
//--local_size=128 --num_groups=16
//possible write-write race on (front|back)\[

// A private table of buffer pointers (double buffering); the write goes through the
// table to half as many cells as there are work-items: two work-items write each cell.
__kernel void pack_halves(__global float *front, __global float *back,
                          __global const float *in, int which) {
  __global float *dst[2];
  dst[0] = front;
  dst[1] = back;
  size_t i = get_global_id(0);
  dst[which & 1][i / 2] = in[i];
}
