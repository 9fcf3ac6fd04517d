//xfail:NOT_ALL_VERIFIED
//--blockDim=128 --gridDim=16
//possible (write-read|read-write|write-write) race on data

// Bug: the loop scales the neighbour's element.  The candidate invariant claims the only
// write in flight is the thread's own index; it is false, so Houdini drops it and the race
// is reported: a candidate never hides a bug.
__global__ void scale(float *data, float factor, unsigned n) {
  unsigned tid = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned stride = gridDim.x * blockDim.x;
  for (unsigned i = tid;
       __candidate_invariant(__write_implies(data, __write_offset_bytes(data) % (stride * sizeof(float)) == tid * sizeof(float))),
       i + 1 < n; i += stride) {
    data[i + 1] = factor * data[i];
  }
}
