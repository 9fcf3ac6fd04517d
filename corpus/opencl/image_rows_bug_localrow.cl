//xfail:NOT_ALL_VERIFIED
//--local_size=[*,*] --num_groups=[*,*]
//possible (read-write|write-read|write-write) race on img\[
//image_rows_bug_localrow.cl:12:
//Launch with local_size = \(\d+, \d+, 1\), num_groups = \(\d+, \d+, 1\)

// image_rows.cl with the row taken from the local id: work items at the same
// place of groups (i, j) and (i, j + 1) double the same pixel. Only a launch
// with more than one row of groups has the race.
__kernel void image_rows(__global float *img) {
  uint x = get_global_id(0), y = get_local_id(1);
  img[y * get_global_size(0) + x] *= 2.0f;
}
