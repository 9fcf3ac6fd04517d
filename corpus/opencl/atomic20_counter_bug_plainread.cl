//xfail:NOT_ALL_VERIFIED
//--local_size=128 --num_groups=4
//possible (read-atomic|atomic-read) race on max_val\[0\]
//atomic20_counter_bug_plainread.cl:1[0-3]:

// atomic20_counter.cl whose first read of the maximum is a plain load of the
// atomic object: it races with other work items' compare-exchanges.
__kernel void max_and_count(__global const int *in, __global atomic_int *max_val,
                            __global atomic_uint *visits) {
  int v = in[get_global_id(0)];
  int cur = *max_val;
  while (cur < v &&
         !atomic_compare_exchange_weak_explicit(max_val, &cur, v, memory_order_acq_rel,
                                                memory_order_relaxed, memory_scope_device))
    ;
  atomic_fetch_add(visits, 1u);
}
