//pass
//--local_size=128 --num_groups=4

// OpenCL 2.0 compare-exchange loop: every work item raises a global maximum
// with atomic_compare_exchange_weak_explicit, reading it first with
// atomic_load_explicit, and counts its visit with atomic_fetch_add.
__kernel void max_and_count(__global const int *in, __global atomic_int *max_val,
                            __global atomic_uint *visits) {
  int v = in[get_global_id(0)];
  int cur = atomic_load_explicit(max_val, memory_order_relaxed);
  while (cur < v &&
         !atomic_compare_exchange_weak_explicit(max_val, &cur, v, memory_order_acq_rel,
                                                memory_order_relaxed, memory_scope_device))
    ;
  atomic_fetch_add(visits, 1u);
}
