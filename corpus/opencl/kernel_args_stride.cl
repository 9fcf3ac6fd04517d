//pass
//--local_size=64 --num_groups=8 --kernel-args=scatter,*,*,1

// Scatter with a stride given by the host: work item i writes out[i * stride].
// Distinct work items write distinct elements only for a non-zero stride that
// does not make i * stride wrap onto another work item's slot; the host always
// passes stride 1 here, which --kernel-args fixes.
__kernel void scatter(__global const float *in, __global float *out, unsigned stride) {
  unsigned i = get_global_id(0);
  out[i * stride] = 2.0f * in[i];
}
