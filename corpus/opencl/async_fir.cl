//pass
//--local_size=64 --num_groups=8

// FIR filter over tiles: the group copies its input tile and the filter taps
// into __local memory with two async copies on one event (the second copy is
// given the first one's event, so it joins it: one wait covers both), then
// meets at a barrier -- copied data reaches the other work items only through
// a barrier after the wait (GPUVerify's conservative model).
#define TAPS 4
__kernel void fir_tiles(__global const float *in, __global const float *taps, __global float *out,
                        __local float *tile, __local float *w) {
  size_t n = get_local_size(0), lid = get_local_id(0), base = get_group_id(0) * n;
  event_t ev = async_work_group_copy(tile, in + base, n, 0);
  async_work_group_copy(w, taps, TAPS, ev);
  wait_group_events(1, &ev);
  barrier(CLK_LOCAL_MEM_FENCE);
  float acc = 0.0f;
  for (int k = 0; k < TAPS; k++)
    acc += w[k] * tile[(lid + k) % n];
  out[base + lid] = acc;
}
