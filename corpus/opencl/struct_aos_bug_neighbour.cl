//xfail:NOT_ALL_VERIFIED
//--local_size=64 --num_groups=8
//possible (read-write|write-read) race on .*ps\[
//struct_aos_bug_neighbour.cl:1[1-3]:

// struct_aos.cl where a particle copies the velocity of the next one, which
// that work item updates at the same time.
typedef struct { float x, y; float vx, vy; int alive; } Particle;

__kernel void step(__global Particle *ps, float dt) {
  unsigned i = get_global_id(0);
  ps[i].x += ps[i + 1].vx * dt;
  ps[i].vx = ps[i].vx * 0.5f;
}
