//pass
//--blockDim=128 --gridDim=16

// One frontier step of a graph search: every thread follows its edge and marks
// the target as reached.  Several edges may share a target, so several threads
// store to one cell -- always the value 1: a benign write-write race, tolerated
// although `reached` is never read (adversarial abstraction).
__global__ void mark_reached(const int *edge_dst, int *reached) {
  reached[edge_dst[blockIdx.x * blockDim.x + threadIdx.x]] = 1;
}
