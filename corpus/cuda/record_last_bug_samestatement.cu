//xfail:NOT_ALL_VERIFIED
//--blockDim=128 --gridDim=16
//possible write-write race on .*tail\[0\]
//Write by thread [0-9]+ in thread block [0-9]+ \(global id [0-9]+\), .*record_last_bug_samestatement.cu:11:

// record_last.cu without the guard: every thread stores its input in
// tail[0], a write-write race inside one statement.
__global__ void square_and_tail(const int *in, int *out, int *tail) {
  unsigned gid = blockIdx.x * blockDim.x + threadIdx.x;
  out[gid] = in[gid] * in[gid];
  tail[0] = in[gid];
}
