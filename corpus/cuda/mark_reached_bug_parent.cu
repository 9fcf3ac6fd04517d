//xfail:NOT_ALL_VERIFIED
//--blockDim=128 --gridDim=16
//possible write-write race on parent\[
//mark_reached_bug_parent.cu:10:

// mark_reached.cu recording the edge that reached each target instead of a
// flag: threads sharing a target now store different values, a real race.
__global__ void mark_reached(const int *edge_dst, int *parent) {
  unsigned e = blockIdx.x * blockDim.x + threadIdx.x;
  parent[edge_dst[e]] = e;
}
