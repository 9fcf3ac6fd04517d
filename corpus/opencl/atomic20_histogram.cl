//pass
//--local_size=64 --num_groups=8

// OpenCL 2.0 atomics: a 16-bin histogram in __local atomic_uint bins
// (atomic_init, atomic_fetch_add_explicit with relaxed order and work-group
// scope), then each group adds its bins into the global ones with
// atomic_fetch_add.  Every access to a bin between the barriers is atomic.
#define BINS 16

__kernel void histogram20(__global const uint *in, __global atomic_uint *bins) {
  __local atomic_uint local_bins[BINS];
  uint lid = get_local_id(0);
  if (lid < BINS)
    atomic_init(&local_bins[lid], 0u);
  barrier(CLK_LOCAL_MEM_FENCE);
  uint v = in[get_global_id(0)];
  atomic_fetch_add_explicit(&local_bins[v % BINS], 1u, memory_order_relaxed,
                            memory_scope_work_group);
  barrier(CLK_LOCAL_MEM_FENCE);
  if (lid < BINS)
    atomic_fetch_add(&bins[lid], atomic_load(&local_bins[lid]));
}
