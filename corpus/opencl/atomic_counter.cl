//xfail:BUGLE_ERROR
//--local_size=64 --num_groups=8
//(?i)atomic

// Count the positive values with a global atomic counter. Atomics are not
// supported yet: the front end must reject the construct by name.
__kernel void count_positive(__global const int *in, __global int *count) {
  if (in[get_global_id(0)] > 0)
    atomic_inc(count);
}
