// Steensgaard: a pointer phi over two arrays, a struct-field pointer, and a cast.
typedef struct { int key; int val; } KV;
__kernel void alias(__global int *a, __global int *b, __global KV *kv, __global int *c, int n) {
  __global int *p = a;
  for (int k = 0; k < n; k++)
    p = (k & 1) ? b : a;                 /* phi of a and b: one class */
  p[get_global_id(0)] = 1;
  __global int *v = &kv[get_global_id(0)].val;  /* field pointer: class of kv */
  *v = 2;
  __global char *bytes = (__global char *)c;    /* cast: class of c, byte level */
  bytes[get_global_id(0)] = 3;
  c[0] = 4;
}
