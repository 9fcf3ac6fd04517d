//pass
//--local_size=64 --num_groups=8

// A struct passed by value: its fields are kernel arguments, equal in all
// work items, so the guarded write below is race free.
typedef struct { uint stride; uint offset; float scale; } Layout;

__kernel void strided(__global float *out, Layout L) {
  __requires(L.stride >= 1 && L.stride <= 8);
  uint g = get_global_id(0);
  out[L.offset + g * L.stride] = L.scale;
}
