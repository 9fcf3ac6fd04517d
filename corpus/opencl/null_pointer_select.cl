//pass
//--local_size=64 --num_groups=8

// Chooses the destination buffer from a flag: both branches assign a real
// buffer, so every dereference of dst hits an array.
__kernel void route(__global float *even, __global float *odd, int use_odd) {
  __global float *dst;
  if (use_odd)
    dst = odd;
  else
    dst = even;
  dst[get_global_id(0)] = (float)get_global_id(0);
}
