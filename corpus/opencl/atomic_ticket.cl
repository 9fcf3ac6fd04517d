//pass
//--local_size=64 --num_groups=8
//known_gap: atomic return values are abstracted (arbitrary), so two work items may get the same ticket and the writes to out[ticket] look like a write-write race (GPUVerify has the same limit)

// Stream compaction with a ticket counter: every work item with a positive
// value takes the next slot of out with atomic_inc. Correct (tickets are
// distinct), but the verifier treats the value atomic_inc returns as
// arbitrary.
__kernel void compact(__global const int *in, __global int *out, __global uint *count) {
  int v = in[get_global_id(0)];
  if (v > 0)
    out[atomic_inc(count)] = v;
}
