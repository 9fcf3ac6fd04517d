//xfail:NOT_ALL_VERIFIED
//--blockDim=128 --gridDim=16
//possible read-write race on .*buf\[
//Read by thread [0-9]+ in thread block [0-9]+ \(global id [0-9]+\), .*scan_hillis_steele_bug_samestep.cu:17:
//Write by thread [0-9]+ in thread block [0-9]+ \(global id [0-9]+\), .*scan_hillis_steele_bug_samestep.cu:18:

// scan_hillis_steele.cu without the barrier between reading the partner and
// updating the own element: thread tid - off may already have updated the
// value that thread tid reads in the same step.
__global__ void scan(const int *in, int *out) {
  __shared__ int buf[128];
  unsigned tid = threadIdx.x;
  unsigned gid = blockIdx.x * blockDim.x + tid;
  buf[tid] = in[gid];
  __syncthreads();
  for (unsigned off = 1; off < blockDim.x; off *= 2) {
    int t = tid >= off ? buf[tid - off] : 0;
    buf[tid] += t;
    __syncthreads();
  }
  out[gid] = buf[tid];
}
