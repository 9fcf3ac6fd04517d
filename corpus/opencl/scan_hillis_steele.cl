//pass
//--local_size=64 --num_groups=8

// Inclusive Hillis-Steele scan of a 64-element block with double buffering:
// each step reads one local buffer and writes the other, so one barrier per
// step suffices. Two steps per loop iteration alternate the buffers
// (offsets 1, 2 | 4, 8 | 16, 32).
__kernel void scan(__global const int *in, __global int *out) {
  __local int bufA[64];
  __local int bufB[64];
  unsigned lid = get_local_id(0);
  bufA[lid] = in[get_global_id(0)];
  barrier(CLK_LOCAL_MEM_FENCE);
  for (unsigned off = 1; off < 64; off *= 4) {
    bufB[lid] = lid >= off ? bufA[lid] + bufA[lid - off] : bufA[lid];
    barrier(CLK_LOCAL_MEM_FENCE);
    unsigned off2 = 2 * off;
    bufA[lid] = lid >= off2 ? bufB[lid] + bufB[lid - off2] : bufB[lid];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  out[get_global_id(0)] = bufA[lid];
}
