"""Launch sizes read from the host code (issue 13, ``bugle/launch_sites.py``, README
"Launch sizes from the host code"): decoding a dim3 from the x86-64 argument pair, matching
a configuration call to its kernel, what makes sizes unknown (symbolic), and ``gpuverify``
verifying each launch, reporting which launch a verdict belongs to, falling back to
symbolic sizes, and giving way to size flags and ``--no-launch-inference``."""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from bugle.cc import compile_kernel
from bugle.launch_sites import HostLaunches, LaunchSite, device_name, host_launches, read_launches
from bugle.translate import kernel_table
from vcgen.il.errors import ExitCode, ToolError

ROOT = Path(__file__).resolve().parent.parent
CORPUS = ROOT / "corpus" / "cuda"
VERIFIED, NOT_VERIFIED = 0, 6


def gpuverify(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "vcgen.driver", *args], capture_output=True, text=True,
                          cwd=ROOT, timeout=600)


# ---------------------------------------------------------------- host IR by hand

HOST_IR = """
@table = global ptr null
declare i32 @cudaConfigureCall(i64, i32, i64, i32, i64, ptr)
declare i32 @cudaLaunch(ptr)
define void @_Z16__device_stub__kPi(ptr %p) {{
entry:
  %r = call i32 @cudaLaunch(ptr @_Z16__device_stub__kPi)
  ret void
}}
define void @_Z16__device_stub__gPi(ptr %p) {{
entry:
  %r = call i32 @cudaLaunch(ptr @_Z16__device_stub__gPi)
  ret void
}}
define void @host(i32 %n, i1 %b) {{
entry:
  %z = zext i32 %n to i64
{compute}
  %c = call i32 @cudaConfigureCall(i64 {grid}, i32 {gz}, i64 4294967360, i32 1, i64 0, ptr null)
  %ok = icmp eq i32 %c, 0
  br i1 %ok, label %go, label %end
go:
  call void @_Z16__device_stub__kPi(ptr null)
  br label %end
end:
  ret void
}}
"""


def one_site(compute: str = "", grid: str = "4294967300", gz: str = "1") -> LaunchSite:
    found = read_launches(HOST_IR.format(compute=compute, grid=grid, gz=gz))
    assert found.unclear is None and not found.unknown, found
    assert len(found.sites) == 1, found.sites
    site = found.sites[0]
    assert site.kernel == "_Z1kPi" and site.block == (64, 1, 1)
    return site


@pytest.mark.parametrize("compute,grid,gz,expected", [
    ("", "4294967300", "1", (4, 1, 1)),                                  # x | y << 32, both constant
    ("", "12884901890", "5", (2, 3, 5)),
    ("  %g = or disjoint i64 %z, 8589934592", "%g", "1", (None, 2, 1)),  # dim3(n, 2): x from a runtime value
    ("  %s = shl i64 %z, 32\n  %g = or i64 %s, 16", "%g", "1", (16, None, 1)),  # dim3(16, n)
    ("  %g = add i64 %z, 4294967296", "%g", "1", (None, 1, 1)),          # low half of the constant 0: no carry
    ("  %g = add i64 %z, 4294967297", "%g", "1", (None, None, 1)),       # a carry may reach y: unknown
    ("  %g = and i64 %z, 4294967295", "%g", "1", (None, None, 1)),       # y = 0 is no launch size
    ("  %g = select i1 %b, i64 4294967300, i64 4294967304", "%g", "1", (None, None, 1)),  # one of two: unknown
    ("", "4294967296", "%n", (None, 1, None)),                           # x = 0 (a failing launch), z runtime
    ("", "9223372041149743105", "1", (1, None, 1)),                      # y = 2^31 + 1: too large, unknown
])
def test_dim3_halves(compute, grid, gz, expected):
    """A dim3 is (i64 x | y << 32, i32 z) in the x86-64 ABI; every dimension is read on its
    own, and anything not provably one constant size is symbolic (None)."""
    assert one_site(compute, grid, gz).grid == expected


def test_stub_names_map_to_device_kernels():
    assert device_name("_Z26__device_stub__setupStatesP17curandStateXORWOWy") == "_Z11setupStatesP17curandStateXORWOWy"
    assert device_name("_ZN2ns20__device_stub__innerEPi") == "_ZN2ns5innerEPi"
    assert device_name("_Z17__device_stub__tkIfEvPT_") == "_Z2tkIfEvPT_"
    assert device_name("__device_stub__ck") == "ck"
    assert device_name("main") is None and device_name("_Z4mainv") is None


def test_escaped_stub_is_unknown():
    """A kernel whose address is stored may be launched anywhere: its sizes are unknown."""
    ir = HOST_IR.format(compute="", grid="4294967300", gz="1").replace(
        "@table = global ptr null", "@table = global ptr @_Z16__device_stub__gPi")
    found = read_launches(ir)
    assert found.unknown == {"_Z1gPi"} and found.configurations("_Z1gPi") == []
    assert [block for _, block, _ in found.configurations("_Z1kPi")] == [(64, 1, 1)]


def test_configuration_leading_to_two_kernels_is_unclear():
    """A configuration call from which two different kernels are launched cannot be
    attributed: no size of the module is trusted."""
    ir = HOST_IR.format(compute="", grid="4294967300", gz="1").replace(
        "br i1 %ok, label %go, label %end", "br i1 %b, label %go, label %other").replace(
        "end:\n", "other:\n  call void @_Z16__device_stub__gPi(ptr null)\n  br label %end\nend:\n")
    found = read_launches(ir)
    assert found.unclear is not None and found.configurations("_Z1kPi") == []


def test_same_configuration_twice_is_one_run():
    site = LaunchSite("k", (4, 1, 1), (64, 1, 1))
    other = LaunchSite("k", (8, 1, 1), (64, 1, 1))
    runs = HostLaunches((site, site, other)).configurations("k")
    assert [(grid, len(s)) for grid, _, s in runs] == [((4, 1, 1), 2), ((8, 1, 1), 1)]
    assert HostLaunches((site,)).configurations("never_launched") == []


# ---------------------------------------------------------------- real host code

PROGRAM = r"""
#include <cstdlib>
namespace img { __global__ void clear(int *p) { p[threadIdx.x] = 0; } }
template <typename T> __global__ void tile(T *p) { p[threadIdx.y * 16 + threadIdx.x] = 0; }
extern "C" __global__ void plain(int *p) { p[threadIdx.x] = 0; }
__global__ void grow(int *p, int n) { p[threadIdx.x] = n; }
int main(int argc, char **argv) {
  int *d = 0;
  int n = atoi(argv[1]);
  const int threads = 3 * 64;
  img::clear<<<(1 << 12) / threads, threads>>>(d);
  tile<float><<<dim3(2, 3), dim3(16, 16)>>>((float *)d);
  plain<<<n, 32>>>(d);
  for (int s = 32; s <= 1024; s *= 2)
    grow<<<1, s>>>(d, s);
  return 0;
}
"""


def test_host_sites_match_device_kernels(tmp_path):
    """Every launched kernel is found under its device-side LLVM name (namespaces,
    templates, extern "C"), with constant-folded sizes; a loop's varying size is symbolic,
    never one of its values."""
    src = tmp_path / "prog.cu"
    src.write_text(PROGRAM)
    found = host_launches(str(src))
    device = {llvm for _, llvm in kernel_table(compile_kernel(str(src)))}
    assert {s.kernel for s in found.sites} == device
    by_name = {s.name: s for s in found.sites}
    assert (by_name["clear"].grid, by_name["clear"].block) == ((21, 1, 1), (192, 1, 1))
    assert (by_name["tile<float>"].grid, by_name["tile<float>"].block) == ((2, 3, 1), (16, 16, 1))
    assert (by_name["plain"].grid, by_name["plain"].block) == ((None, 1, 1), (32, 1, 1))
    assert (by_name["grow"].grid, by_name["grow"].block) == ((1, 1, 1), (None, 1, 1))
    assert [s.location.line for s in found.sites if s.location] == [11, 12, 13, 15]


def test_host_compile_error_is_a_tool_error(tmp_path):
    src = tmp_path / "bad.cu"
    src.write_text("__global__ void k(int *p) { p[0] = 0; }\n#ifndef __CUDA_ARCH__\nint main() { nope(); }\n#endif\n")
    with pytest.raises(ToolError) as e:
        host_launches(str(src))
    assert e.value.code == ExitCode.CLANG_ERROR and "nope" in str(e.value)


# ---------------------------------------------------------------- gpuverify

def test_constant_launch_verifies_only_with_host_sizes():
    """prog_launch_chunks.cu is race-free only for its launch's 128 threads per block: it
    verifies with the host's sizes, fails with symbolic ones, and a size flag wins."""
    kernel = str(CORPUS / "prog_launch_chunks.cu")
    p = gpuverify(kernel)
    assert p.returncode == VERIFIED, p.stdout + p.stderr
    assert "(sizes read from the host code): for the launch with blockDim = (128, 1, 1), gridDim = (8192, 1, 1)" \
        in p.stdout
    off = gpuverify("--no-launch-inference", kernel)
    assert off.returncode == NOT_VERIFIED and "host code" not in off.stdout, off.stdout
    flags = gpuverify("--blockDim=256", "--gridDim=64", kernel)
    assert flags.returncode == NOT_VERIFIED and "host code" not in flags.stdout, flags.stdout
    assert "Launch with" not in flags.stdout  # concrete flag sizes: no launch line, as before


def test_two_launches_only_the_racy_one_reported():
    p = gpuverify("--json", str(CORPUS / "prog_launch_chunks_bug_retuned.cu"))
    assert p.returncode == NOT_VERIFIED, p.stdout + p.stderr
    errors = json.loads(p.stdout)["errors"]
    assert errors and all(e["kind"] == "race" for e in errors)
    assert {(tuple(e["launch"]["local_size"]), e["launch_site"].split(":")[-2]) for e in errors} == {((256, 1, 1), "44")}


def test_runtime_sizes_fall_back_to_symbolic():
    p = gpuverify(str(CORPUS / "prog_launch_saxpy_runtime.cu"))
    assert p.returncode == VERIFIED, p.stdout + p.stderr
    assert "for every launch with blockDim = (*, 1, 1), gridDim = (*, 1, 1)" in p.stdout


TWO_KERNELS = r"""
__global__ void launched(float *out) { out[blockIdx.x * 32 + threadIdx.x] = blockIdx.x; }
__global__ void helper(float *out) { out[blockIdx.x * blockDim.x + threadIdx.x] = 2.0f; }
#ifndef __CUDA_ARCH__
int main() {
  float *d = 0;
  launched<<<8, 32>>>(d);
  return 0;
}
#endif
"""


def test_kernel_never_launched_keeps_symbolic_sizes(tmp_path):
    """``launched`` indexes with 32, correct for its launch only (other block sizes make
    blocks overlap, writing different values); ``helper`` is never launched in the file,
    so it is verified for every size."""
    src = tmp_path / "two.cu"
    src.write_text(TWO_KERNELS)
    p = gpuverify(str(src))
    assert p.returncode == VERIFIED, p.stdout + p.stderr
    assert "kernel launched, launched at" in p.stdout and "blockDim = (32, 1, 1), gridDim = (8, 1, 1)" in p.stdout
    assert "kernel helper (no launch sizes in the host code): for every launch with blockDim = (*, *, *)" in p.stdout
    one = gpuverify("--kernel=launched", str(src))
    assert one.returncode == VERIFIED and "helper" not in one.stdout, one.stdout
    off = gpuverify("--kernel=launched", "--no-launch-inference", str(src))
    assert off.returncode == NOT_VERIFIED and "race on out" in off.stdout, off.stdout


def test_host_compile_failure_falls_back_with_one_warning(tmp_path):
    """The host side does not compile (an undeclared function outside device code): the
    kernel is still verified, with symbolic sizes, and stderr has one warning line."""
    src = tmp_path / "host_broken.cu"
    src.write_text(TWO_KERNELS.replace("launched<<<8, 32>>>(d);", "launched<<<8, 32>>>(d); undeclared(d);")
                   .replace("blockIdx.x * 32 + threadIdx.x] = blockIdx.x", "blockIdx.x * blockDim.x + threadIdx.x] = 1.0f"))
    p = gpuverify(str(src))
    assert p.returncode == VERIFIED, p.stdout + p.stderr
    warnings = [ln for ln in p.stderr.splitlines() if ln.strip()]
    assert len(warnings) == 1 and warnings[0].startswith("warning: cannot read the launch sizes from the host code")
    assert "every size is symbolic" in warnings[0] and "host code)" not in p.stdout


def test_bugle_launches_command(tmp_path):
    src = tmp_path / "prog.cu"
    src.write_text(PROGRAM)
    p = subprocess.run([sys.executable, "-m", "bugle.cli", "launches", str(src)], capture_output=True, text=True,
                       cwd=ROOT, timeout=120)
    assert p.returncode == 0, p.stderr
    assert "prog.cu:12:" in p.stdout and "tile<float> (_Z4tileIfEvPT_): --gridDim=[2,3,1] --blockDim=[16,16,1]" in p.stdout
    bad = subprocess.run([sys.executable, "-m", "bugle.cli", "launches", str(ROOT / "corpus/opencl/reduce.cl")],
                         capture_output=True, text=True, cwd=ROOT, timeout=120)
    assert bad.returncode == ExitCode.COMMAND_LINE_ERROR and "CUDA" in bad.stderr
