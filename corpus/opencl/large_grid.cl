//pass
//--local_size=256 --num_groups=65536

// A copy over 16M work items: ids stay symbolic, so the group count does not
// change the size of the proof.
__kernel void copy_large(__global const int *in, __global int *out) {
  out[get_global_id(0)] = in[get_global_id(0)] + 1;
}
