//pass
//--local_size=[32] --num_groups=[2]

#pragma OPENCL EXTENSION cl_khr_fp64 : enable

// PPCG-style code: `long` counters index a 32-bit offset, which keeps the low 32
// bits of the 64-bit sum (r1 pushes the truncation through + and *: the residue of
// c1 modulo 1048576 survives it).  The read log of A also holds the pivot read
// before the loop: the residues are stated for the loop's own sources and the
// pivot's offset for its source (rule id).
__kernel void divide_column(__global double *A, int n, long c0) {
  __requires(n == 64);
  __requires(c0 >= 0 & c0 < 62 & c0 % 2 == 0);
  long b0 = get_group_id(0);
  long t0 = get_local_id(0);
  __local double pivot[1];
  if (t0 == 0)
    pivot[0] = A[(c0 / 2) * n + c0 / 2];
  barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);
  for (long c1 = 32 * b0; c1 < n; c1 += 1048576)
    if (n >= t0 + c1 + 1 && t0 + c1 > c0 / 2)
      A[(t0 + c1) * n + c0 / 2] /= pivot[0];
}
