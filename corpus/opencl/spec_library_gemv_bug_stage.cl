//xfail:NOT_ALL_VERIFIED
//--local_size=64 --num_groups=16
//possible write-read race on xs\[
//Read by work item \d+ with local id \d+ in work group \d+, from external source location \(the call at .*spec_library_gemv_bug_stage.cl:36:12\)

// Like spec_library_gemv.cl, but the barrier after staging the tile is missing: the
// vendor routine (known only by its specification function) may read an element of xs
// before the work item that stages it has written it.

#define TILE 64

float __spec_vendor_sdot(__global const float *a, __local const float *b, int len) {
  __requires(len > 0);
  __reads_from(a, b);
  return 0.0f;
}

// y[i] = alpha * v + beta * y[i] for the caller's global id i
void __spec_vendor_axpby_store(__global float *y, float v, float alpha, float beta) {
  __reads_from(y);
  __writes_to(y);
  __ensures(__read_implies(y, __read_offset_bytes(y) / sizeof(float) == get_global_id(0)));
  __ensures(__write_implies(y, __write_offset_bytes(y) / sizeof(float) == get_global_id(0)));
}

__kernel void gemv_tiled(__global const float *A, __global const float *x, __global float *y, int n,
                         float alpha, float beta) {
  __requires(n > 0);
  __local float xs[TILE];
  size_t row = get_global_id(0);
  size_t lid = get_local_id(0);
  float acc = 0.0f;
  for (int t = 0; t < n; t += TILE) {
    xs[lid] = x[t + lid];
    // missing: barrier(CLK_LOCAL_MEM_FENCE);
    acc += __spec_vendor_sdot(A + row * n + t, xs, TILE);
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  __spec_vendor_axpby_store(y, acc, alpha, beta);
}
