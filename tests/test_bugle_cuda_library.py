"""The CUDA library surface and whole CUDA programs (bugle/include/bugle_cuda_*.h,
bugle/include/system/, bugle/cuda_library.py, and the driver verifying every kernel of
a file): each test states a semantic fact that breaks if the model is wrong."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from bugle.cc import compile_kernel
from bugle.translate import kernel_names, translate_ir
from vcgen.il.errors import ExitCode, ToolError
from vcgen.il.printer import program_str

GPUVERIFY = [sys.executable, "-m", "vcgen.driver"]

HOST_PROGRAM = """
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <cmath>
#include <stdint.h>
#include <cassert>
#include <iostream>
#include <vector>
#include <algorithm>
#include <cuda_runtime.h>
#include <helper_cuda.h>
__global__ void scale(float *a, float s, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) a[i] *= s;
}
__global__ void shiftLeft(int *a) { a[threadIdx.x] = a[threadIdx.x + 1]; }
int main(int argc, char **argv) {
  std::vector<float> h(1024, 1.0f);
  float *d = NULL;
  int *e;
  uint32_t bytes = h.size() * sizeof(float);
  checkCudaErrors(cudaMalloc(&d, bytes));
  cudaMalloc((void **)&e, bytes);
  cudaMemcpy(d, h.data(), bytes, cudaMemcpyHostToDevice);
  scale<<<dim3(4), dim3(256), 0, 0>>>(d, 2.0f, 1024);
  shiftLeft<<<1, 64>>>(e);
  cudaDeviceSynchronize();
  std::cout << "max " << std::max(1, 2) << std::endl;
  printf("%f %d\\n", std::sqrt(2.0), abs(-3));
  memset(h.data(), 0, bytes);
  cudaFree(d);
  return EXIT_SUCCESS;
}
"""


def run_gv(path: Path, *flags: str) -> subprocess.CompletedProcess:
    return subprocess.run(GPUVERIFY + list(flags) + [str(path)], capture_output=True, text=True)


def write(tmp_path: Path, text: str, name: str = "k.cu") -> Path:
    f = tmp_path / name
    f.write_text(text)
    return f


def gbpl(tmp_path: Path, text: str, kernel: str | None = None) -> str:
    f = write(tmp_path, text)
    return program_str(translate_ir(compile_kernel(str(f)), kernel, source_path="k.cu"))


# ------------------------------------------------------------------ whole programs
def test_host_program_compiles_and_lists_both_kernels(tmp_path):
    f = write(tmp_path, HOST_PROGRAM)
    names = kernel_names(compile_kernel(str(f)))
    assert names == ["scale", "shiftLeft"]


def test_every_kernel_of_a_file_is_verified(tmp_path):
    """Without --kernel both kernels are checked: the race is in the second one."""
    f = write(tmp_path, HOST_PROGRAM)
    r = run_gv(f, "--blockDim=64", "--gridDim=4")
    assert r.returncode == ExitCode.NOT_ALL_VERIFIED, r.stdout + r.stderr
    assert "possible read-write race on a[" in r.stdout
    ok = run_gv(f, "--blockDim=64", "--gridDim=4", "--kernel=scale")
    assert ok.returncode == 0, ok.stdout + ok.stderr


def test_several_correct_kernels_name_them_all(tmp_path):
    f = write(tmp_path, HOST_PROGRAM.replace("a[threadIdx.x] = a[threadIdx.x + 1];",
                                             "a[threadIdx.x] = 1;"))
    r = run_gv(f, "--blockDim=64", "--gridDim=1")
    assert r.returncode == 0, r.stdout + r.stderr
    assert "for every kernel of the file: scale, shiftLeft" in r.stdout


def test_template_kernel_instantiated_by_its_launch(tmp_path):
    text = ("template <class T> __global__ void fill(T *a, T v) { a[threadIdx.x + 1] = v; }\n"
            "int main() { int *d; cudaMalloc(&d, 400); fill<int><<<1, 64>>>(d, 0); return 0; }\n")
    f = write(tmp_path, text)
    assert len(kernel_names(compile_kernel(str(f)))) == 1
    assert run_gv(f, "--blockDim=64", "--gridDim=1").returncode == 0


def test_user_header_of_a_standard_name_wins(tmp_path):
    """Our headers come after the user's -I directories."""
    (tmp_path / "inc").mkdir()
    (tmp_path / "inc" / "helper_cuda.h").write_text("#define MY_OWN_HELPER 7\n")
    f = write(tmp_path, "#include <helper_cuda.h>\n__global__ void k(int *a) { a[threadIdx.x] = MY_OWN_HELPER; }\n")
    r = run_gv(f, "--blockDim=32", "--gridDim=1", "-I", str(tmp_path / "inc"))
    assert r.returncode == 0, r.stdout + r.stderr


# ------------------------------------------------------------------ textures
TEXTURE = """
texture<float, 2, cudaReadModeElementType> texA;
texture<float, 2, cudaReadModeElementType> texB;
texture<uchar4, 2, cudaReadModeNormalizedFloat> texC;
__global__ void k(float *out, cudaTextureObject_t obj) {
  int i = threadIdx.x;
  float4 c = tex2D(texC, i, 0);
  out[i] = tex2D(texA, i, 0) + tex2D(texB, i, 0) + tex1Dfetch<float>(obj, i) + c.w;
}
"""


def test_texture_reads_are_uninterpreted_functions_of_a_handle_per_texture(tmp_path):
    text = gbpl(tmp_path, TEXTURE)
    # a texel is F$__bugle_texel(handle, component, layer, x, y, z, level)
    assert "function F$__bugle_texel(bv64, bv32, bv32, bv32, bv32, bv32, bv32): bv32;" in text
    assert "F$__bugle_texel_fetch($obj, 0bv32" in text
    handles = {line.split(":=")[1].strip() for line in text.splitlines()
               if ":=" in line and "$texsurf_handle" in line.split(":=")[0]}
    assert len(handles) == 3  # texA, texB and texC are different textures
    # reads of a texture are not memory accesses: only `out` is an array
    assert "$$out" in text and "$$texA" not in text and "$$tex" not in text.replace("$$texsurf", "")


def test_same_texel_same_value_in_both_threads(tmp_path):
    """A texture is read-only: equal coordinates give equal values (a branch on it is
    uniform), different coordinates may not."""
    uniform = ("texture<int, 1, cudaReadModeElementType> t;\n"
               "__global__ void k(int *a) { if (tex1Dfetch(t, 5) > 0) __syncthreads(); a[threadIdx.x] = 1; }\n")
    f = write(tmp_path, uniform)
    assert run_gv(f, "--blockDim=32", "--gridDim=1").returncode == 0
    f2 = write(tmp_path, uniform.replace("tex1Dfetch(t, 5)", "tex1Dfetch(t, threadIdx.x)"), "k2.cu")
    r = run_gv(f2, "--blockDim=32", "--gridDim=1")
    assert r.returncode == ExitCode.NOT_ALL_VERIFIED
    assert "barrier may be reached by non-uniform control flow" in r.stdout


def test_surface_write_is_an_error_naming_it(tmp_path):
    f = write(tmp_path, "__global__ void k(cudaSurfaceObject_t s) { surf2Dwrite(1.0f, s, 4 * threadIdx.x, 0); }\n")
    r = run_gv(f, "--blockDim=32", "--gridDim=1")
    assert r.returncode == ExitCode.BUGLE_ERROR
    assert "k.cu:1:" in r.stderr and "surface writes (surf*write) are not supported" in r.stderr


# ------------------------------------------------------------------ curand
def test_curand_per_thread_state_is_race_free_and_shared_state_races(tmp_path):
    own = ("#include <curand_kernel.h>\n"
           "__global__ void k(curandState *s, float *a) {\n"
           "  int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
           "  curand_init(7, i, 0, &s[i]);\n"
           "  a[i] = curand_uniform(&s[i]) + curand_normal(&s[i]);\n}\n")
    assert run_gv(write(tmp_path, own), "--blockDim=64", "--gridDim=2").returncode == 0
    shared = own.replace("curand_uniform(&s[i])", "curand_uniform(&s[0])")
    r = run_gv(write(tmp_path, shared, "k2.cu"), "--blockDim=64", "--gridDim=2")
    assert r.returncode == ExitCode.NOT_ALL_VERIFIED
    assert "race on s[" in r.stdout and "k2.cu:5:" in r.stdout


def test_curand_values_are_arbitrary_per_thread(tmp_path):
    """curand returns arbitrary values: an index drawn from it may collide."""
    text = ("#include <curand_kernel.h>\n"
            "__global__ void k(curandState *s, int *a) {\n"
            "  int i = threadIdx.x;\n"
            "  a[curand(&s[i]) % 64] = i;\n}\n")
    r = run_gv(write(tmp_path, text), "--blockDim=64", "--gridDim=1")
    assert r.returncode == ExitCode.NOT_ALL_VERIFIED
    assert "write-write race on a[" in r.stdout


def test_mtgp32_is_block_collective(tmp_path):
    text = ("__global__ void k(curandStateMtgp32_t *s, unsigned *a) {\n"
            "  if (threadIdx.x < 16) a[threadIdx.x] = curand(s);\n}\n")
    r = run_gv(write(tmp_path, text), "--blockDim=64", "--gridDim=1")
    assert r.returncode == ExitCode.NOT_ALL_VERIFIED
    assert "barrier may be reached by non-uniform control flow" in r.stdout


# ------------------------------------------------------------------ cooperative groups
CG = """
#include <cooperative_groups.h>
namespace cg = cooperative_groups;
__global__ void k(int *out) {
  __shared__ int s[64];
  cg::thread_block b = cg::this_thread_block();
  s[threadIdx.x] = threadIdx.x;
  SYNC;
  out[blockIdx.x * 64 + threadIdx.x] = s[READ];
}
"""


@pytest.mark.parametrize("sync,read,code", [
    ("cg::sync(b)", "63 - threadIdx.x", 0),
    ("cg::tiled_partition<32>(b).sync()", "63 - threadIdx.x", 6),   # crosses warps
    ("cg::tiled_partition<8>(b).sync()", "threadIdx.x ^ 7", 0),     # inside the tile
    ("cg::tiled_partition<8>(b).sync()", "threadIdx.x ^ 8", 6),     # the neighbouring tile
])
def test_cooperative_group_barriers(tmp_path, sync, read, code):
    f = write(tmp_path, CG.replace("SYNC", sync).replace("READ", read))
    r = run_gv(f, "--blockDim=64", "--gridDim=2")
    assert r.returncode == code, r.stdout + r.stderr


GRID = """
#include <cooperative_groups.h>
namespace cg = cooperative_groups;
__global__ void k(int *a) {
  cg::grid_group g = cg::this_grid();
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int v = a[READ];
  if (GUARD) SYNC;
  a[i] = v;
}
"""


@pytest.mark.parametrize("sync,read,guard,code,why", [
    # the neighbour's element, read before the grid barrier, written after it: race-free
    ("g.sync()", "(i + 1) % (gridDim.x * blockDim.x)", "true", 0, None),
    # a block barrier does not order the last thread of block 0 and the first of block 1
    ("cg::this_thread_block().sync()", "(i + 1) % (gridDim.x * blockDim.x)", "true", 6, "race on a["),
    # a grid barrier reached by the blocks of one parity only: divergence across blocks
    ("cg::synchronize(g)", "i", "blockIdx.x % 2 == 0", 6, "barrier may be reached by non-uniform control flow"),
])
def test_grid_barrier_synchronises_every_block(tmp_path, sync, read, guard, code, why):
    text = GRID.replace("SYNC", sync).replace("READ", read).replace("GUARD", guard)
    r = run_gv(write(tmp_path, text), "--blockDim=64", "--gridDim=4")
    assert r.returncode == code, r.stdout + r.stderr
    assert why is None or why in r.stdout, r.stdout


# ------------------------------------------------------------------ intrinsics
INTRINSICS = [
    ("__ffs(0)", 0), ("__ffs(8)", 4), ("__clz(0)", 32), ("__clz(1)", 31), ("__popc(0xF0F0u)", 8),
    ("(int)__brev(1u)", -2147483648), ("abs(-5)", 5), ("min(3, 7u)", 3), ("max(-1, 2u)", -1),
    ("__mulhi(0x40000000, 8)", 2), ("(int)__byte_perm(0x11223344u, 0x55667788u, 0x4321u)", -2012143053),
    ("(int)sizeof(floor(2.0f))", 4), ("(int)sizeof(floor(2.0))", 8),
]


def test_integer_intrinsics_are_exact(tmp_path):
    """Assertions on the exact values verify (one kernel for all); off by one, they fail."""
    body = "".join(f"  assert(({e}) == {v});\n" for e, v in INTRINSICS)
    f = write(tmp_path, f"#include <cassert>\n__global__ void k(int *a) {{\n{body}}}\n")
    r = run_gv(f, "--blockDim=2", "--gridDim=1")
    assert r.returncode == 0, r.stdout + r.stderr
    off = "".join(f"  if (a[{k}] == 0) assert(({e}) == {v + 1});\n" for k, (e, v) in enumerate(INTRINSICS))
    g = write(tmp_path, f"#include <cassert>\n__global__ void k(int *a) {{\n{off}}}\n", "k2.cu")
    r = run_gv(g, "--blockDim=2", "--gridDim=1")
    assert r.returncode == ExitCode.NOT_ALL_VERIFIED
    failing = {int(line.split(":")[1]) for line in r.stdout.splitlines() if "this assertion might not hold" in line}
    assert failing == set(range(3, 3 + len(INTRINSICS))), r.stdout


def test_device_assert_failure_is_reported_at_its_line(tmp_path):
    f = write(tmp_path, "#include <assert.h>\n__global__ void k(int *a) {\n  assert(threadIdx.x < 16);\n}\n")
    r = run_gv(f, "--blockDim=32", "--gridDim=1")
    assert r.returncode == ExitCode.NOT_ALL_VERIFIED
    assert "k.cu:3:" in r.stdout and "this assertion might not hold" in r.stdout
    g = write(tmp_path, "#define NDEBUG\n#include <assert.h>\n__global__ void k(int *a) { assert(threadIdx.x < 16); }\n",
              "k2.cu")
    assert run_gv(g, "--blockDim=32", "--gridDim=1").returncode == 0


def test_vector_operators_and_user_definitions(tmp_path):
    """float4 arithmetic works without definitions; a kernel's own operator wins."""
    text = ("__global__ void k(float4 *a) { float4 v = a[threadIdx.x]; a[threadIdx.x] = v * 2.0f - v + v / v; }\n")
    assert run_gv(write(tmp_path, text), "--blockDim=32", "--gridDim=1").returncode == 0
    own = ("__device__ float4 operator+(float4 a, float4 b) { return make_float4(a.x, b.y, 0, 0); }\n"
           "__global__ void k(float4 *a) { a[threadIdx.x] = a[threadIdx.x] + a[threadIdx.x]; }\n")
    assert run_gv(write(tmp_path, own, "k2.cu"), "--blockDim=32", "--gridDim=1").returncode == 0


def test_printf_in_device_code_is_ignored_and_null_uint_exist(tmp_path):
    text = ('__global__ void k(uint *a, int *p = NULL) {\n'
            '  printf("thread %d\\n", threadIdx.x);\n'
            '  if (p != NULL) p[threadIdx.x] = 0;\n  a[threadIdx.x] = 1;\n}\n')
    r = run_gv(write(tmp_path, text), "--blockDim=32", "--gridDim=1")
    assert r.returncode == 0, r.stdout + r.stderr


def test_inline_ptx_is_an_error_quoting_it(tmp_path):
    text = ('__global__ void k(unsigned *a) {\n  unsigned l;\n'
            '  asm volatile("mov.u32 %0, %%laneid;" : "=r"(l));\n  a[threadIdx.x] = l;\n}\n')
    r = run_gv(write(tmp_path, text), "--blockDim=32", "--gridDim=1")
    assert r.returncode == ExitCode.BUGLE_ERROR
    assert "k.cu:3:" in r.stderr and 'inline assembly (asm("mov.u32' in r.stderr
    assert "Traceback" not in r.stderr


# ------------------------------------------------------------------ helper_math surface
def test_helper_math_helpers_without_include(tmp_path):
    """The helpers of helper_math.h (make_float3(float), dot, clamp ...) are visible in
    every .cu file, as in the CUDA samples whose host headers bring them in.  Float
    arithmetic is abstract, so the exact-value checks use the integer helpers."""
    text = ("#include <cassert>\n__global__ void k(float *a) {\n"
            "  assert(make_int3(5).y == 5 && clamp(-3, 0, 9) == 0 && clamp(12u, 1u, 9u) == 9u);\n"
            "  float3 v = make_float3(2.0f);\n"
            "  a[threadIdx.x] = dot(v, make_float3(1.0f, 2.0f, 3.0f)) + length(make_float2(3.0f, 4.0f))\n"
            "                   + clamp(5.0f, 0.0f, 1.0f);\n}\n")
    r = run_gv(write(tmp_path, text), "--blockDim=32", "--gridDim=1")
    assert r.returncode == 0, r.stdout + r.stderr
    r = run_gv(write(tmp_path, text.replace("== 9u", "== 12u")), "--blockDim=32", "--gridDim=1")
    assert r.returncode == ExitCode.NOT_ALL_VERIFIED, r.stdout + r.stderr


def test_program_definitions_win_over_the_helper_math_surface(tmp_path):
    """A program's own `dot` and `clamp` are the ones called (non-templates win)."""
    text = ("#include <cassert>\n"
            "__device__ int dot(float3 a, float3 b) { return 42; }\n"
            "__device__ int clamp(int v, int lo, int hi) { return -1; }\n"
            "__global__ void k(float *a) {\n"
            "  assert(dot(make_float3(1.0f), make_float3(1.0f)) == 42 && clamp(5, 0, 9) == -1);\n"
            "  a[threadIdx.x] = 0;\n}\n")
    r = run_gv(write(tmp_path, text), "--blockDim=32", "--gridDim=1")
    assert r.returncode == 0, r.stdout + r.stderr


@pytest.mark.parametrize("suffix", [".cu", ".cl"])
def test_program_typedef_of_size_t_is_the_programs_own(tmp_path, suffix):
    """Programs written for 32-bit targets typedef ``size_t`` as ``unsigned int``; the
    headers' own ``size_t`` steps aside (bugle.cc.run_clang retries) and the program's is
    32 bits wide, so ``2^31 * 2`` wraps to 0 (with the target's 64-bit size_t it does not)."""
    kernel = "__global__ void k(int *a)" if suffix == ".cu" else "__kernel void k(__global int *a)"
    path = write(tmp_path, "typedef unsigned int size_t;\n" + kernel + """ {
  size_t top = 0x80000000u;
  __assert(top * 2 == 0);
  a[0] = 1;
}
""", "k" + suffix)
    # OpenCL: spir64, where the target's size_t is 64 bits too
    flags = ("--blockDim=1", "--gridDim=1") if suffix == ".cu" else ("--local_size=1", "--num_groups=1", "--spir64")
    r = run_gv(path, *flags)
    assert r.returncode == 0, r.stdout + r.stderr
