"""The parsed prelude is cached in the user's cache directory (``vcgen.il.prelude``): a
run that finds the cache never imports lark, and gets the same declarations."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

_PROBE = """\
import sys
from vcgen.il import prelude
from vcgen.il.printer import program_str
from vcgen.il import ast as il
decls = prelude._base()
print("lark" in sys.modules)
print(program_str(il.Program(tuple(decls[k] for k in sorted(decls)))))
"""


def _run(tmp_path: Path, cache_home: str) -> list[str]:
    env = {"PATH": "/usr/bin:/bin", "HOME": str(tmp_path), "XDG_CACHE_HOME": cache_home}
    r = subprocess.run([sys.executable, "-c", _PROBE], capture_output=True, text=True, env=env,
                       cwd=ROOT, timeout=120)
    assert r.returncode == 0 and not r.stderr, r.stderr
    return r.stdout.splitlines()


def test_the_second_run_reads_the_cached_prelude_without_lark(tmp_path):
    cache = tmp_path / "cache"
    cold = _run(tmp_path, str(cache))
    assert cold[0] == "True"  # parsed: lark was needed
    [stored] = (cache / "gpuverify-py").glob("prelude-*.pickle")
    warm = _run(tmp_path, str(cache))
    assert warm == ["False"] + cold[1:]  # same declarations, lark never imported
    assert "BV32_ADD" in "\n".join(warm)


def test_a_damaged_or_missing_cache_means_parsing_again(tmp_path):
    cache = tmp_path / "cache"
    cold = _run(tmp_path, str(cache))
    [stored] = (cache / "gpuverify-py").glob("prelude-*.pickle")
    stored.write_bytes(b"not a pickle")
    again = _run(tmp_path, str(cache))
    assert again == cold  # parsed again (lark imported), same declarations
    assert stored.read_bytes() != b"not a pickle"  # and stored again
    blocked = tmp_path / "file"
    blocked.write_text("")  # a cache "directory" that cannot be created: no cache, no error
    assert _run(tmp_path, str(blocked)) == cold
