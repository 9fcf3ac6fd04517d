//pass
//--local_size=64 --num_groups=8

// One n-body step for 512 bodies: acceleration on body gid from all bodies,
// staged one 64-body tile at a time through local memory (positions and
// masses as separate float arrays). Float arithmetic only.
#define LS 64
#define NBODIES 512

__kernel void nbody(__global const float *px, __global const float *py,
                    __global const float *m, __global float *ax,
                    __global float *ay, float soft) {
  __local float tx[LS];
  __local float ty[LS];
  __local float tm[LS];
  unsigned lid = get_local_id(0);
  unsigned gid = get_global_id(0);
  float x = px[gid], y = py[gid];
  float accx = 0.0f, accy = 0.0f;
  for (unsigned tile = 0; tile < NBODIES / LS; tile++) {
    unsigned src = tile * LS + lid;
    tx[lid] = px[src];
    ty[lid] = py[src];
    tm[lid] = m[src];
    barrier(CLK_LOCAL_MEM_FENCE);
    for (unsigned j = 0; j < LS; j++) {
      float dx = tx[j] - x, dy = ty[j] - y;
      float inv = rsqrt(dx * dx + dy * dy + soft);
      float s = tm[j] * inv * inv * inv;
      accx += dx * s;
      accy += dy * s;
    }
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  ax[gid] = accx;
  ay[gid] = accy;
}
