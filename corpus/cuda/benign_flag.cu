//pass
//--blockDim=128 --gridDim=16 --equality-abstraction

// Set *changed if any element differs from its reference: all writers store
// the same value 1 (a benign write-write race, tolerated by default).
__global__ void any_changed(const int *a, const int *ref, int *changed) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (a[i] != ref[i])
    *changed = 1;
}
