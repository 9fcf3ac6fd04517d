//xfail:NOT_ALL_VERIFIED
//--local_size=64 --num_groups=8
//async_fir_bug_event.cl:19:3: error: barrier may be reached by non-uniform control flow

// async_fir.cl where the taps copy joins an event chosen per work item: the
// upper half passes the tile's event, the lower half a fresh one.  Every
// argument of a work-group copy must be the same in all work items of the
// group (OpenCL 1.2 6.12.10), the event included: reported like barrier
// divergence.
#define TAPS 4
__kernel void fir_tiles(__global const float *in, __global const float *taps, __global float *out,
                        __local float *tile, __local float *w) {
  size_t n = get_local_size(0), lid = get_local_id(0), base = get_group_id(0) * n;
  event_t ev = async_work_group_copy(tile, in + base, n, 0);
  event_t none = 0;
  event_t *join = &none;
  if (lid >= n / 2)
    join = &ev;
  async_work_group_copy(w, taps, TAPS, *join);
  wait_group_events(1, &ev);
  barrier(CLK_LOCAL_MEM_FENCE);
  float acc = 0.0f;
  for (int k = 0; k < TAPS; k++)
    acc += w[k] * tile[(lid + k) % n];
  out[base + lid] = acc;
}
