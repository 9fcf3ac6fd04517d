//xfail:NOT_ALL_VERIFIED
//--local_size=[8,8,4] --num_groups=[2,2,2]
//possible write-write race on .*out\[
//Write by work item \([0-9, ]+\) with local id \([0-9, ]+\) in work group \([0-9, ]+\), .*copy3d_bug_plane.cl:15:

// copy3d.cl with the plane size computed from the local size in y instead of
// the global size: planes z and z + 1 overlap (rows y >= 8 of plane z land
// in plane z + 1).
#define NX 16
#define NZ 8

__kernel void copy3d(__global const float *in, __global float *out) {
  unsigned x = get_global_id(0), y = get_global_id(1), z = get_global_id(2);
  unsigned ny = get_local_size(1);
  out[((NZ - 1 - z) * ny + y) * NX + x] = in[(z * 16 + y) * NX + x];
}
