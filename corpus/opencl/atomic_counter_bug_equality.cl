//xfail:GPUVERIFYVCGEN_ERROR
//--local_size=64 --num_groups=8 --equality-abstraction
//GPUVerify: error: --equality-abstraction cannot be used with atomics\.

// atomic_counter.cl forced into the equality abstraction: GPUVerify rejects
// --equality-abstraction on a kernel with atomics, and so does this tool (the
// per-array choice without the flag still gives equality to arrays that need
// it).
__kernel void count_positive(__global const int *in, __global int *count) {
  if (in[get_global_id(0)] > 0)
    atomic_inc(count);
}
