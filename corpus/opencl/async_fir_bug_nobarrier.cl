//xfail:NOT_ALL_VERIFIED
//--local_size=64 --num_groups=8
//possible write-read race on (tile|w)\[
//async_fir_bug_nobarrier.cl:1[34]:

// async_fir.cl without the barrier after the wait: the wait completes the
// copies, but (GPUVerify's conservative model) their data is visible to the
// other work items only after a barrier, so reading neighbours' cells races
// with the copy that wrote them.
#define TAPS 4
__kernel void fir_tiles(__global const float *in, __global const float *taps, __global float *out,
                        __local float *tile, __local float *w) {
  size_t n = get_local_size(0), lid = get_local_id(0), base = get_group_id(0) * n;
  event_t ev = async_work_group_copy(tile, in + base, n, 0);
  async_work_group_copy(w, taps, TAPS, ev);
  wait_group_events(1, &ev);
  float acc = 0.0f;
  for (int k = 0; k < TAPS; k++)
    acc += w[k] * tile[(lid + k) % n];
  out[base + lid] = acc;
}
