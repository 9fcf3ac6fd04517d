//xfail:NOT_ALL_VERIFIED
//--local_size=64 --num_groups=8
//possible write-write race on out\[
//atomic_ticket_bug_giveback.cl:14:

// atomic_ticket.cl where every work item takes a ticket and those without a
// value give it back with atomic_dec: the counter now goes down as well as up,
// so a ticket handed back is handed out again while its first owner may still
// write it -- two work items write one slot.
__kernel void compact(__global const int *in, __global int *out, __global uint *count) {
  int v = in[get_global_id(0)];
  uint slot = atomic_inc(count);
  if (v > 0)
    out[slot] = v;
  else
    atomic_dec(count);
}
