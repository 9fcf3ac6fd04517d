// A private array indexed dynamically stays a (procedure-local) map.
__kernel void priv(__global int *out, int k) {
  int t[8];
  for (int i = 0; i < 8; i++) t[i] = i * k;
  out[get_global_id(0)] = t[k & 7];
}
