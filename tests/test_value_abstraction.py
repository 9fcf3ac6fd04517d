"""Value abstraction of irrelevant uninterpreted-function results (issue 12;
``vcgen.analysis.values``, docs/design.md section 5.7): floating-point values that only
end up as written data are havocked, values deciding an address, a branch around an access
or a possibly benign write stay exact."""
import subprocess
import sys
from pathlib import Path

from test_candidates_scaling import escape_time_kernel

ROOT = Path(__file__).resolve().parent.parent
FLAGS = ["--local_size=64", "--num_groups=4"]


def verify(tmp_path: Path, src: str) -> tuple[int, str, str]:
    """(exit code, output, the abstracted one-thread program) of the driver on ``src``."""
    path = tmp_path / "k.cl"
    path.write_text(src)
    p = subprocess.run([sys.executable, "-m", "vcgen.driver", *FLAGS, "--keep-temps", str(path)],
                       capture_output=True, text=True, cwd=ROOT, timeout=600)
    return p.returncode, p.stdout + p.stderr, (tmp_path / "k.abs.gbpl").read_text()


def applications(gbpl: str) -> int:
    """Uses of floating-point operations in commands (not declarations)."""
    return sum(("FMUL32(" in line or "FADD32(" in line or "fma" in line) for line in gbpl.splitlines()
               if not line.startswith("function"))


def test_escape_time_loop_values_are_havocked_and_verify(tmp_path):
    """An escape-time loop (AMD Mandelbrot's shape): its floating-point state decides only
    branches around no access, and the count it writes is data.  Before: candidate
    generation exponential in the chain, Houdini over hundreds of uninterpreted
    applications for each thread; the real kernel timed out after 250 s."""
    code, out, gbpl = verify(tmp_path, escape_time_kernel(16))
    assert code == 0, out
    assert applications(gbpl) == 0


def test_value_deciding_an_access_is_kept(tmp_path):
    src = """__kernel void k(__global float *out, float a) {
  float x = a * (float)get_local_id(0);
  if (x * x > 4.0f)
    out[get_group_id(0)] = x;
}
"""
    code, out, gbpl = verify(tmp_path, src)
    assert code == 6 and "write-write race on out" in out
    assert applications(gbpl) > 0 and "havoc" not in gbpl


def test_possibly_benign_write_value_is_kept(tmp_path):
    """A write every thread makes to one cell is a race unless the values are equal
    (benign): its value stays exact; the separated write's value is havocked."""
    src = """__kernel void k(__global float *out, float a, float b) {
  out[get_local_id(0) + get_group_id(0) * 64] = a * b + 1.0f;
  out[256] = a * b;
}
"""
    code, out, gbpl = verify(tmp_path, src)
    assert code == 0, out
    assert "havoc" in gbpl and applications(gbpl) > 0
    code, out, _ = verify(tmp_path, src.replace("out[256] = a * b;", "out[256] = a * (float)get_local_id(0);"))
    assert code == 6 and "write-write race on out[256]" in out
