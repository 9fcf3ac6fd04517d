//pass
//--local_size=64 --num_groups=8

// Particles as an array of structs: each work item moves its own particle.
typedef struct { float x, y; float vx, vy; int alive; } Particle;

__kernel void step(__global Particle *ps, float dt) {
  unsigned i = get_global_id(0);
  if (ps[i].alive) {
    ps[i].x += ps[i].vx * dt;
    ps[i].y += ps[i].vy * dt;
  }
}
