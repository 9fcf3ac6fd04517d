//xfail:NOT_ALL_VERIFIED
//--blockDim=128 --gridDim=16 --equality-abstraction
//possible write-write race on .*changed
//benign_flag_bug_values.cu:11:

// benign_flag.cu recording the index of the differing element instead of 1:
// the concurrent writes now store different values, a real race.
__global__ void any_changed(const int *a, const int *ref, int *changed) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (a[i] != ref[i])
    *changed = (int)i;
}
