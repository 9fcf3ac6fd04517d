//xfail:NOT_ALL_VERIFIED
//--local_size=64 --num_groups=8
//possible write-write race on .*out\[
//Write by work item [0-9]+ with local id [0-9]+ in work group [0-9]+, .*device_call_bug_index.cl:14:

// device_call.cl passing the local id to the store helper: work items with
// the same local id in different groups store to the same element. The
// report must point into the helper (line 14).
float activate(float x) {
  return x / (1.0f + fabs(x));
}

void store(__global float *p, unsigned i, float v) {
  p[i] = v;
}

__kernel void activation(__global const float *in, __global float *out) {
  store(out, get_local_id(0), activate(in[get_global_id(0)]));
}
