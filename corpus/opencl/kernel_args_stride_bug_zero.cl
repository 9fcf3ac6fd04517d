//xfail:NOT_ALL_VERIFIED
//--local_size=64 --num_groups=8 --kernel-args=scatter,*,*,0
//possible write-write race on out\[0\]
//Kernel arguments: stride = 0

// kernel_args_stride.cl launched with stride 0: every work item writes out[0].
// (Without --kernel-args the race is found too, for the same reason.)
__kernel void scatter(__global const float *in, __global float *out, unsigned stride) {
  unsigned i = get_global_id(0);
  out[i * stride] = 2.0f * in[i];
}
