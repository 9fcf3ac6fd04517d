//pass
//--local_size=64 --num_groups=8

// A uniform switch on an opcode argument, each case writing the work item's
// own element (switch is lowered to a compare tree).
__kernel void dispatch(__global int *data, int op) {
  unsigned i = get_global_id(0);
  int x = data[i];
  switch (op) {
  case 0: data[i] = x + 1; break;
  case 1: data[i] = x * 2; break;
  case 7: data[i] = -x; break;
  default: data[i] = 0; break;
  }
}
