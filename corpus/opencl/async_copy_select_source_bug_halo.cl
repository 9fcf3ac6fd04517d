//xfail:NOT_ALL_VERIFIED
//--local_size=64 --num_groups=16
//possible (read-write|write-read) race on (even|odd)\[
//async_copy_select_source_bug_halo.cl:(17|21):

// As async_copy_select_source.cl, but updated in place: the group prefetches
// its tile plus the first element of the next tile (the right halo) from the
// current buffer and writes the result back into the same buffer.  Within the
// group the wait and the barrier order the copy before the stores, but the
// halo element belongs to the next group, which may already have overwritten
// it: an inter-group race through the copy's read of one of two arrays.
__kernel void smooth_step_in_place(__global float *even, __global float *odd,
                                   __local float *tile, int step) {
  size_t n = get_local_size(0), lid = get_local_id(0);
  size_t base = get_group_id(0) * n;
  __global float *cur = (step & 1) ? odd : even;
  event_t ev = async_work_group_copy(tile, cur + base, n + 1, 0);
  wait_group_events(1, &ev);
  barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);
  float right = tile[lid + 1];
  cur[base + lid] = 0.5f * (tile[lid] + right);
}
