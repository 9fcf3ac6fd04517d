//pass
//--local_size=64 --num_groups=8

// One frontier step of a graph search: every work item follows its edge and
// marks the target as reached.  Several edges may share a target, so several
// work items store to one cell -- always the value 1: a benign write-write
// race, tolerated although `reached` is never read (adversarial abstraction).
__kernel void mark_reached(__global const int *edge_dst, __global int *reached) {
  reached[edge_dst[get_global_id(0)]] = 1;
}
