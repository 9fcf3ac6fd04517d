//pass
//--local_size=64 --num_groups=8

// Scale an array of any length n with a grid-stride loop: work item gid
// handles elements gid, gid + G, gid + 2G, ... where G is the global size.
__kernel void scale(__global const float *in, __global float *out, float f,
                    unsigned n) { __requires(n <= 0x40000000u);
  for (unsigned i = get_global_id(0); i < n; i += get_global_size(0))
    out[i] = f * in[i];
}
