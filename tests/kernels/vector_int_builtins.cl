// OpenCL integer builtins on vectors, lane by lane (bugle/builtins.py _opencl_int)
__kernel void foo(__global int4 *out, int4 x)
{
    int4 a = (int4)(1, 2, 3, 0);
    int4 b = (int4)(2, 3, 4, 1);
    int4 c = min(a, b);
    __assert(c.x == 1 && c.y == 2 && c.z == 3 && c.w == 0);
    uint2 u = max((uint2)(1u, 0xffffffffu), (uint2)(2u, 3u));
    __assert(u.x == 2 && u.y == 0xffffffffu);
    int4 d = clamp(a, 1, 2);
    __assert(d.x == 1 && d.y == 2 && d.z == 2 && d.w == 1);
    uint4 e = abs((int4)(-1, 2, -3, 0));
    __assert(e.x == 1 && e.z == 3);
    out[get_global_id(0)] = min(x, x + 1);
}
