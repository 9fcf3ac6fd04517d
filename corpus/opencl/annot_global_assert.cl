//pass
//--local_size=64 --num_groups=2

// __assert is checked for the work items that execute it; __global_assert also for
// those that skip it (it states a fact about the whole launch).  Inside the guard
// only work items below the boundary arrive, so the plain assertion holds; the
// global one states what holds for everybody (and uses only values computed before
// the branch: values computed inside it are stale for work items that skip it).
__kernel void boundary(__global int *data, int n) {
  __requires(n > 0);
  size_t gid = get_global_id(0);
  size_t size = get_global_size(0);
  if (gid < n) {
    __assert(gid < n);
    __global_assert(gid < size);
    data[gid] = 1;
  }
}
