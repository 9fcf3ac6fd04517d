"""Run a command and succeed iff it exits with the expected code (lit has only `not`).

Usage: python expect_exit.py CODE COMMAND [ARGS...]; the command's stdout and stderr are
passed through (stderr to stderr) so FileCheck can read them; a Python traceback in
either stream is a failure too (docs/design.md section 8: no failure ends in a traceback).
"""
import subprocess
import sys

want = int(sys.argv[1])
proc = subprocess.run(sys.argv[2:], capture_output=True, text=True)
sys.stdout.write(proc.stdout)
sys.stderr.write(proc.stderr)
if "Traceback (most recent call last)" in proc.stdout + proc.stderr:
    sys.stderr.write("expect_exit: the command printed a Python traceback\n")
    sys.exit(1)
if proc.returncode != want:
    sys.stderr.write(f"expect_exit: exit code {proc.returncode}, expected {want}\n")
    sys.exit(1)
