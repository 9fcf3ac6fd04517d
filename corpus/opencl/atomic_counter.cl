//pass
//--local_size=64 --num_groups=8
//Verified

// Count the positive values with a global atomic counter: atomic_inc never
// races with another atomic_inc (DESIGN.md 5.9), and nothing reads the
// counter with a plain access.
__kernel void count_positive(__global const int *in, __global int *count) {
  if (in[get_global_id(0)] > 0)
    atomic_inc(count);
}
