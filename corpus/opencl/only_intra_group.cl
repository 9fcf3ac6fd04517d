//pass
//--local_size=64 --num_groups=8 --only-intra-group
//Verified:
//no data races within work groups

// Every group writes out[lid]: an inter-group race, deliberately not checked
// with --only-intra-group (no two work items of one group collide).
__kernel void per_group(__global int *out) {
  out[get_local_id(0)] = get_group_id(0);
}
