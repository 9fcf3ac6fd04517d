//xfail:NOT_ALL_VERIFIED
//--local_size=64 --num_groups=8
//possible (read-write|write-read|write-write) race on .*data\[
//Write by work item [0-9]+ with local id [0-9]+ in work group [0-9]+, .*switch_dispatch_bug_case.cl:14:

// switch_dispatch.cl where case 7 writes the neighbour's element, which the
// neighbour reads (and writes) itself.
__kernel void dispatch(__global int *data, int op) {
  unsigned i = get_global_id(0);
  int x = data[i];
  switch (op) {
  case 0: data[i] = x + 1; break;
  case 1: data[i] = x * 2; break;
  case 7: data[i + 1] = -x; break;
  default: data[i] = 0; break;
  }
}
