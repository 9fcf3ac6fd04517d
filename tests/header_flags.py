"""Print the flags of a kernel's test header that one stage command takes.

Used by the Makefile's stage rules: ``python tests/header_flags.py lockstep k.cl``.
Stages: cc (-D, -I, --spir64, --clang-opt, --no-inline), translate (--kernel), abstract (abstraction choice),
lockstep (launch sizes and checks), houdini / verify (solver flags), all (everything).
"""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from vcgen.testsuite import parse_header  # noqa: E402

STAGE_FLAGS = {
    "cc": ("-D", "-I", "--spir64", "--clang-opt", "--no-inline"),
    "translate": ("--kernel",),
    "abstract": ("--equality-abstraction", "--adversarial-abstraction"),
    "lockstep": ("--local_size", "--num_groups", "--global_size", "--blockDim", "--gridDim", "--global_offset",
                 "--only-intra-group", "--only-divergence", "--no-benign-tolerance", "--no-infer",
                 "--check-array-bounds", "--kernel-args"),
    "houdini": ("--timeout", "--solver"),
    "verify": ("--timeout", "--solver", "--findbugs", "--loop-unwind", "--json"),
}


def stage_flags(stage: str, flags: tuple) -> list:
    if stage == "all":
        return list(flags)
    wanted, out, it = STAGE_FLAGS[stage], [], iter(flags)
    for f in it:
        name = f.split("=", 1)[0]
        if f in ("-D", "-I"):  # separated value
            value = next(it, "")
            if f in wanted:
                out += [f, value]
        elif name in wanted or (name[:2] in ("-D", "-I") and name[:2] in wanted):
            out.append(f)
    return out


if __name__ == "__main__":
    stage, path = sys.argv[1], sys.argv[2]
    # Unquoted: the Makefile splices this into a command line with $(...), where quotes
    # would stay literal; corpus flags contain no spaces.
    print(" ".join(stage_flags(stage, parse_header(path).flags)))
