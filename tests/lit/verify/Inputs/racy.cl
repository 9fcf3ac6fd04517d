__kernel void racy(__global int *p) {
  // neighbouring work items write overlapping elements
  p[get_global_id(0) + 1] = 0;
  p[get_global_id(0)] = 1;
}
