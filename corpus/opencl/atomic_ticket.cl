//pass
//--local_size=64 --num_groups=8

// Stream compaction with a ticket counter: every work item with a positive
// value takes the next slot of out with atomic_inc. The counter is used only
// by atomic_inc, so distinct calls get distinct tickets (DESIGN.md 5.9,
// vcgen/tickets.py) and the writes to out never meet.
__kernel void compact(__global const int *in, __global int *out, __global uint *count) {
  int v = in[get_global_id(0)];
  if (v > 0)
    out[atomic_inc(count)] = v;
}
