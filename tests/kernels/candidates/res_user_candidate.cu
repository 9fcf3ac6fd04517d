//pass
//--blockDim=* --gridDim=*

// A user's guess about a grid-stride loop, i % s == g, modulo the product of two symbolic
// sizes: stated over the residue RESIDUE32 (symbolic_stride.residue_form), not a
// bit-vector divider; Houdini proves or drops it in seconds, rule res proves the kernel.
__global__ void halve(unsigned n, float *v) {
  __requires(n <= 0x40000000u && gridDim.x <= 65536);
  unsigned g = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned s = blockDim.x * gridDim.x;
  for (unsigned i = g; __candidate_invariant(i % s == g), i < n; i += s)
    v[i] = v[i] * 0.5f;
}
