//xfail:NOT_ALL_VERIFIED
//--local_size=64 --num_groups=8
//possible write-write race on .*out\[

// struct_byval.cl without the precondition: a stride of 0 makes all work
// items write one element.
typedef struct { uint stride; uint offset; float scale; } Layout;

__kernel void strided(__global float *out, Layout L) {
  uint g = get_global_id(0);
  out[L.offset + g * L.stride] = L.scale + (float)g;
}
