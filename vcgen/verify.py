"""Final verification of a two-thread program and counterexample extraction.

``verify_program`` cuts loops with their invariants (running Houdini first on the same
solver instance if candidates remain), checks every real assertion, and turns each
failure into an ``ErrorRecord`` read from the model: kind, source locations, both threads'
ids, the racing element and the kernel's scalar arguments.  After a proof it checks
vacuity (can the end of the kernel be reached?).  ``--findbugs`` unwinds loops instead
(DESIGN.md section 6) and never claims a proof.

Verdicts (``VerificationResult.status``) and exit codes (DESIGN.md section 7):
``verified`` 0, ``no_bugs_found`` 0 (findbugs), ``errors`` 6, ``vacuous`` 6, ``unknown`` 6,
``timeout`` 7.  Nothing but all-``unsat`` answers yields ``verified``.
"""
from __future__ import annotations

import os
import sys
import time
from dataclasses import dataclass, field

import click

from . import houdini, il, loopcut, passify, vc as vcmod
from .exitcodes import ExitCode, ToolError
from .solvers import make_backend

DEFAULT_UNWIND = 2


@dataclass
class VerifyOptions:
    """Options of ``vcgen verify`` / the driver.  ``timeout`` is seconds per solver query;
    ``solver`` None = z3 in-process, else a short name or command line (``solvers``);
    ``source`` the kernel source file (for ``Verified: FILE`` and source lines);
    ``math_int``: bit-vectors as mathematical integers (``vc.MathIntOps``; unsound for
    overflow, the report must print ``solvers.MATH_INT_WARNING``)."""
    timeout: float | None = None
    solver: str | None = None
    findbugs: bool = False
    loop_unwind: int | None = None
    source: str | None = None
    json: bool = False
    max_errors: int = 20
    search_dirs: tuple = ()  # extra directories to find source files in
    refutation: str | None = None  # Houdini's refutation engines (vcgen.refutation); None = default
    disable_rules: tuple = ()  # candidate rules dropped before Houdini ("r7", ...)
    math_int: bool = False


@dataclass(frozen=True)
class Location:
    file: str
    line: int
    col: int

    def __str__(self) -> str:
        return f"{self.file}:{self.line}:{self.col}"


@dataclass
class ThreadInfo:
    """Ids of one of the two threads, each a (x, y, z) tuple."""
    thread: int
    local_id: tuple
    group_id: tuple
    global_id: tuple


@dataclass
class ErrorRecord:
    """One failing check.  ``kind`` is one of ``race``, ``barrier_divergence``,
    ``user_assert``, ``null_pointer``, ``array_bounds``, ``invariant_entry``,
    ``invariant_maintained``, ``postcondition``, ``precondition``, ``assertion``.  For
    races, ``location``/``thread`` are thread 2's (checked) access and ``other_*`` thread
    1's (logged) access; ``access_kinds`` is (thread 1's, thread 2's), e.g. ("write",
    "read").  For a precondition checked at a call, ``location`` is the call and
    ``other_location`` the ``__requires``."""
    kind: str
    location: Location | None
    thread: ThreadInfo | None
    label: str
    access_kinds: tuple = ()
    array: str | None = None
    element: str | None = None
    other_location: Location | None = None
    other_thread: ThreadInfo | None = None
    args: dict = field(default_factory=dict)  # scalar kernel argument -> value
    array_name: str | None = None  # source name of an out-of-bounds array

    def as_dict(self) -> dict:
        def th(t):
            return None if t is None else {"thread": t.thread, "local_id": list(t.local_id),
                                           "group_id": list(t.group_id), "global_id": list(t.global_id)}
        def loc(l):
            return None if l is None else {"file": l.file, "line": l.line, "column": l.col}
        return {"kind": self.kind, "location": loc(self.location), "thread": th(self.thread),
                "race": "-".join(self.access_kinds) or None, "array": self.array,
                "element": self.element, "other_location": loc(self.other_location),
                "other_thread": th(self.other_thread), "kernel_args": self.args,
                "label": self.label}


@dataclass
class VerificationResult:
    status: str  # verified | no_bugs_found | errors | vacuous | unknown | timeout
    file: str
    language: str = "opencl"
    dims: int = 1
    errors: list = field(default_factory=list)
    reason: str = ""
    findbugs: bool = False
    unwind: int | None = None
    houdini: houdini.HoudiniStats | None = None
    claims: list = field(default_factory=list)
    timeout: float | None = None
    seconds: float = 0.0
    search_dirs: tuple = ()

    @property
    def exit_code(self) -> int:
        return int({"verified": ExitCode.SUCCESS, "no_bugs_found": ExitCode.SUCCESS,
                    "timeout": ExitCode.TIMEOUT}.get(self.status, ExitCode.NOT_ALL_VERIFIED))

    def as_dict(self) -> dict:
        return {"file": self.file, "status": self.status, "exit_code": self.exit_code,
                "reason": self.reason, "findbugs": self.findbugs, "loop_unwind": self.unwind,
                "language": self.language, "claims": self.claims,
                "errors": [e.as_dict() for e in self.errors],
                "houdini": self.houdini.as_dict() if self.houdini else None,
                "seconds": round(self.seconds, 3)}


# ------------------------------------------------------------------ model reading

_DIMS = ("x", "y", "z")


def _sourceloc(attrs: il.Attrs) -> Location | None:
    a = il.attr(attrs, "sourceloc")
    if a is None or len(a.args) < 2:
        return None
    vals = [x if isinstance(x, str) else getattr(x, "value", None) for x in a.args]
    try:
        return Location(str(vals[0]), int(vals[1]), int(vals[2]) if len(vals) > 2 else 0)
    except (TypeError, ValueError):
        return None


class _ModelReader:
    """Reads thread ids, sizes, arguments and check details from the current model."""

    def __init__(self, program: il.Program, vc: vcmod.VC, backend):
        self.program = program
        self.vc = vc
        self.backend = backend
        self.consts = program.consts()
        self.kernel = program.kernel()
        self.sourcelocs = {}
        for d in self.consts.values():
            n = il.attr(d.attrs, "sourceloc_num")
            if n is not None and n.args:
                self.sourcelocs[getattr(n.args[0], "value", n.args[0])] = _sourceloc(d.attrs)
        self.arrays = {d.name: d for d in program.globals()}

    def _values(self, names: list) -> dict:
        known = [n for n in names if n in self.consts]
        vals = self.backend.values([self.vc.translator.const(n) for n in known])
        return dict(zip(known, vals))

    def sizes(self) -> dict:
        names = [f"{k}_{d}" for k in ("group_size", "num_groups") for d in _DIMS]
        v = self._values(names)
        return {n: v.get(n, 1) for n in names}

    def dims(self) -> int:
        s = self.sizes()
        return 1 if all(s[f"{k}_{d}"] == 1 for k in ("group_size", "num_groups") for d in "yz") else 3

    def thread(self, t: int) -> ThreadInfo:
        names = [f"{k}_{d}${t}" for k in ("local_id", "group_id") for d in _DIMS]
        v = self._values(names)
        sizes = self.sizes()
        lid = tuple(v.get(f"local_id_{d}${t}", 0) for d in _DIMS)
        gid = tuple(v.get(f"group_id_{d}${t}", 0) for d in _DIMS)
        glob = tuple(g * sizes[f"group_size_{d}"] + l for g, l, d in zip(gid, lid, _DIMS))
        return ThreadInfo(t, lid, gid, glob)

    def args(self) -> dict:
        params = [n for n, _ in self.kernel.params]
        if not params:
            return {}
        vals = self.backend.values([self.vc.translator.const(n) for n in params])
        return {n.lstrip("$"): v for n, v in zip(params, vals)}

    def value_at(self, e: il.Expr, site) -> object:
        return self.backend.values([self.vc.translator.term(e)])[0] if site else None

    def var_at(self, name: str, site):
        inc = site.env.get(name)
        if inc is None:
            return None
        return self.backend.values([self.vc.translator.const(inc)])[0]

    def array_info(self, name: str):
        d = self.arrays.get(name) or self.arrays.get(name + "$1")
        attrs = d.attrs if d is not None else ()
        src = il.attr(attrs, "source_name")
        source_name = str(src.args[0]) if src and src.args else name.lstrip("$")
        width = il.attr(attrs, "elem_width")
        etype = il.attr(attrs, "elem_type") or il.attr(attrs, "image")  # image: "image2d_t", access
        return (source_name, getattr(width.args[0], "value", None) if width and width.args else None,
                str(etype.args[0]) if etype and etype.args else None)


_C_TYPE_BITS = {"char": 8, "uchar": 8, "bool": 8, "short": 16, "ushort": 16, "half": 16, "int": 32,
                "uint": 32, "float": 32, "long": 64, "ulong": 64, "double": 64, "size_t": 32,
                "signed char": 8, "unsigned char": 8, "unsigned short": 16, "unsigned int": 32,
                "unsigned": 32, "long long": 64, "unsigned long": 64, "unsigned long long": 64}


def _type_bits(ctype: str | None) -> int | None:
    if not ctype:
        return None
    t = ctype.strip()
    if t.endswith("*"):
        return None
    if t in _C_TYPE_BITS:
        return _C_TYPE_BITS[t]
    base = t.rstrip("0123456789")  # OpenCL vectors: float4
    if base in _C_TYPE_BITS and base != t:
        return _C_TYPE_BITS[base] * int(t[len(base):])
    return None


_IMAGE_DIMS = {"image1d_t": 1, "image2d_t": 2, "image3d_t": 3}


def element_text(source_name: str, index, elem_width, elem_type) -> str:
    """``p[5]``, ``((char*)p)[k]`` for a byte-level array of a wider element type, or
    ``img at (x, y) = (3, 5)`` for an image (index: coordinates packed 32 bits each, x
    lowest; docs/IL.md "Images")."""
    if elem_type in _IMAGE_DIMS and isinstance(index, int):
        n = _IMAGE_DIMS[elem_type]
        coords = ", ".join(str((index >> (32 * k)) & 0xFFFFFFFF) for k in range(n))
        return f"{source_name} at ({', '.join('xyz'[:n])}) = ({coords})"
    idx = "?" if index is None else str(index)
    bits = _type_bits(elem_type)
    if elem_width == 8 and bits is not None and bits > 8:
        return f"((char*){source_name})[{idx}]"
    return f"{source_name}[{idx}]"


def _kind_of(check: vcmod.Check) -> str:
    if check.has("race"):
        return "race"
    for k in ("barrier_divergence", "user_assert", "null_pointer", "unreachable", "array_bounds", "postcondition",
              "precondition"):
        if check.has(k):
            return k
    lc = check.attr(loopcut.LOOP_CHECK)
    if lc is not None and lc.args:
        return "invariant_entry" if lc.args[0] == "entry" else "invariant_maintained"
    if check.has("user_invariant") or check.has("invariant"):
        return "invariant_maintained"
    return "assertion"


def _thread_of(check: vcmod.Check) -> int:
    a = check.attr("thread")
    if a is not None and a.args:
        try:
            return int(getattr(a.args[0], "value", a.args[0]))
        except (TypeError, ValueError):
            pass
    return 1


def error_key(check: vcmod.Check) -> tuple:
    """Checks with the same key are one user-visible assertion (e.g. copies of one
    access's check in unwound loops, or per-byte checks)."""
    loc = _sourceloc(check.site.attrs) if check.site else None
    race = check.attr("race")
    call = check.attr("call_site")  # one precondition fails at each call on its own
    return (_kind_of(check), loc, tuple(map(str, race.args)) if race else (),
            None if loc else check.index, tuple(map(str, call.args)) if call else ())


def _error_record(check: vcmod.Check, reader: _ModelReader) -> ErrorRecord:
    kind = _kind_of(check)
    site = check.site
    loc = _sourceloc(site.attrs)
    rec = ErrorRecord(kind, loc, None, check.label, args=reader.args())
    if kind == "race":
        race = check.attr("race")
        words = str(race.args[0]).split("-") if race.args else ["access", "access"]
        array = str(race.args[1]) if len(race.args) > 1 else "?"
        rec.access_kinds = (words[0], words[-1])
        name, width, etype = reader.array_info(array)
        rec.array = name
        off = check.attr("check_offset")
        index = reader.value_at(off.args[0], site) if off is not None and off.args else None
        rec.element = element_text(name, index, width, etype)
        src_num = reader.var_at(f"_{words[0].upper()}_SOURCE_{array}", site)
        rec.other_location = reader.sourcelocs.get(src_num)
        rec.other_thread = reader.thread(1)
        rec.thread = reader.thread(2)
    else:
        rec.thread = reader.thread(_thread_of(check))
        call = _sourceloc((il.Attr("sourceloc", check.attr("call_site").args),)) if check.has("call_site") else None
        if kind == "precondition" and call is not None:  # reported at the call (GPUVerify's shape)
            rec.location, rec.other_location = call, loc
        if kind == "array_bounds":
            a = check.attr("array_bounds")
            if a is not None and a.args:
                name, width, etype = reader.array_info(str(a.args[0]))
                rec.array_name = rec.array = name
                off = check.attr("check_offset")
                if off is not None and off.args:
                    rec.element = element_text(name, reader.value_at(off.args[0], site), width, etype)
    return rec


# ------------------------------------------------------------------------ driving


def _claims(program: il.Program, language: str) -> list:
    k = program.kernel()
    groups = "thread blocks" if language == "cuda" else "work groups"
    out = []
    if not il.has_attr(k.attrs, "only_divergence"):
        out.append(f"no data races within {groups}")
        if not il.has_attr(k.attrs, "only_intra_group"):
            out.append(f"no data races between {groups}")
    out += ["no barrier divergence", "no assertion failures"]
    if il.has_attr(k.attrs, "check_array_bounds"):
        out.append("no out-of-bounds accesses to arrays of known size")
    return out


def _language(kernel: il.ProcedureDecl) -> str:
    a = il.attr(kernel.attrs, "language")
    return str(a.args[0]) if a is not None and a.args else "opencl"


def _display_file(kernel: il.ProcedureDecl, options: VerifyOptions, filename: str) -> str:
    if options.source:
        return options.source
    a = il.attr(kernel.attrs, "source_file")
    return str(a.args[0]) if a is not None and a.args else filename


def find_errors(program: il.Program, vc: vcmod.VC, backend, alive: set | None,
                max_errors: int) -> tuple:
    """``(errors, last outcome, dims)``: distinct failing real assertions (at most
    ``max_errors``), each read from its own model; a failing check is then switched off
    and the query repeated."""
    reader = _ModelReader(program, vc, backend)
    real = [c for c in vc.checks if not c.is_candidate and not c.is_vacuity]
    enabled = {c.index for c in real}
    errors, seen, dims = [], set(), 1
    out = None
    while enabled and len(errors) < max_errors:
        out = backend.check(vc.assumptions(enabled, alive))
        if out.status != "sat":
            break
        on = [c for c in real if c.index in enabled]
        failing = [c for c, v in zip(on, backend.values([c.fail for c in on])) if v is True]
        if not failing:
            raise ToolError("internal error: a model fails no assertion", ExitCode.GPUVERIFYVCGEN_ERROR)
        dims = max(dims, reader.dims())
        for c in failing:
            key = error_key(c)
            enabled -= {d.index for d in real if error_key(d) == key}
            if key not in seen and len(errors) < max_errors:
                seen.add(key)
                errors.append(_error_record(c, reader))
    return errors, out, dims


def verify_program(program: il.Program, options: VerifyOptions | None = None,
                   filename: str = "<input>") -> VerificationResult:
    """Verify (or, with ``findbugs``, bug-hunt) a two-thread program.

    Raises ToolError(GPUVERIFYVCGEN_ERROR) for malformed programs (no kernel, calls,
    irreducible loops, ill-typed expressions) and ToolError(CONFIGURATION_ERROR) for an
    unusable ``--solver``.
    """
    options = options or VerifyOptions()
    start = time.monotonic()
    kernel = houdini._kernel(program)
    lang = _language(kernel)
    result = VerificationResult("unknown", _display_file(kernel, options, filename), lang,
                                findbugs=options.findbugs, timeout=options.timeout,
                                search_dirs=options.search_dirs)
    if options.findbugs:
        result.unwind = DEFAULT_UNWIND if options.loop_unwind is None else options.loop_unwind
        acyclic = loopcut.unwind_loops(kernel, result.unwind)
    else:
        acyclic = loopcut.cut_loops(kernel)
    vc = vcmod.build_vc(program, passify.passify(program, acyclic), math_int=options.math_int)
    backend = make_backend(vc, options.solver, options.timeout)
    try:
        alive = None
        if any(c.is_candidate for c in vc.checks):
            stats = houdini.HoudiniStats()
            alive = houdini.houdini_fixpoint(vc, backend, stats)
            houdini.fill_stats(stats, houdini.candidate_rules(vc), alive)
            result.houdini = stats
        errors, out, dims = find_errors(program, vc, backend, alive, options.max_errors)
        result.errors, result.dims = errors, dims
        if errors:
            result.status = "errors"
            if out is not None and out.status in ("unknown", "timeout"):
                result.reason = f"the search for further errors stopped: solver {out.status}"
        elif out is not None and out.status != "unsat":
            result.status, result.reason = out.status, out.reason
        elif options.findbugs:
            result.status = "no_bugs_found"
        else:
            _vacuity(vc, backend, alive, result)
    finally:
        backend.close()
    if result.status == "verified":
        result.claims = _claims(program, lang)
    result.seconds = time.monotonic() - start
    return result


def _vacuity(vc: vcmod.VC, backend, alive, result: VerificationResult) -> None:
    """Is the end of the kernel reachable under preconditions and launch constraints?"""
    vac = {c.index for c in vc.checks if c.is_vacuity}
    out = backend.check(vc.assumptions(vac, alive))
    if out.status == "sat":
        result.status = "verified"
    elif out.status == "unsat":
        result.status = "vacuous"
    else:
        result.status = out.status
        result.reason = f"vacuity check: {out.reason or out.status}"


# ------------------------------------------------------------------- commands

def load_program(path: str) -> il.Program:
    """Parse an IL file; ToolError(GPUVERIFYVCGEN_ERROR) on syntax errors."""
    from .parser import ILParseError, parse_file
    try:
        return parse_file(path)
    except ILParseError as e:
        raise ToolError(str(e), ExitCode.GPUVERIFYVCGEN_ERROR) from None


def run_tool(fn) -> None:
    """Run ``fn()``; a ToolError becomes ``error: message`` on stderr and its exit code."""
    try:
        code = fn()
    except ToolError as e:
        click.echo(f"error: {e}", err=True)
        sys.exit(int(e.code))
    except KeyboardInterrupt:
        click.echo("error: interrupted", err=True)
        sys.exit(int(ExitCode.CTRL_C))
    sys.exit(int(code or 0))


def _timeout(value: float | None) -> float | None:
    return value if value and value > 0 else None


@click.command("verify")
@click.argument("input_file", metavar="IN")
@click.option("--timeout", type=float, default=None, help="Seconds per solver query (0 = none).")
@click.option("--solver", default=None, help="SMT-LIB2 solver: z3|cvc5|yices|bitwuzla or a command line.")
@click.option("--json", "as_json", is_flag=True, help="Print the result as JSON.")
@click.option("--findbugs", is_flag=True, help="Bug-finding mode: unwind loops, no invariants.")
@click.option("--loop-unwind", type=int, default=None, help="Unwinding depth (implies --findbugs; default 2).")
@click.option("--source", default=None, help="The kernel source file (report and source lines).")
@click.option("--infer-info", is_flag=True, help="Print Houdini statistics.")
@click.option("--math-int", is_flag=True, help="Mathematical integers for bit-vectors (faster; unsound for overflow).")
def verify_command(input_file, timeout, solver, as_json, findbugs, loop_unwind, source, infer_info,
                   math_int):
    """Verify a two-thread program (running Houdini first if it has candidates)."""
    def go():
        program = load_program(input_file)
        dirs = tuple(d for d in {os.path.dirname(os.path.abspath(input_file)),
                                 os.path.dirname(os.path.abspath(source)) if source else None} if d)
        opts = VerifyOptions(_timeout(timeout), solver, findbugs or loop_unwind is not None,
                             loop_unwind, source, as_json, search_dirs=dirs, math_int=math_int)
        result = verify_program(program, opts, input_file)
        from .report import render_report
        if math_int and not as_json:
            from .solvers import MATH_INT_WARNING
            click.echo(MATH_INT_WARNING)
        click.echo(render_report(result, opts), nl=False)
        if infer_info and result.houdini is not None and not as_json:
            click.echo("\n".join(result.houdini.lines()))
        return result.exit_code
    run_tool(go)


@click.command("smt")
@click.argument("input_file", metavar="IN")
@click.option("-o", "--output", required=True, help="Output .smt2 file (- = stdout).")
@click.option("--loop-unwind", type=int, default=None, help="Unwind loops instead of cutting them.")
@click.option("--math-int", is_flag=True, help="Mathematical integers for bit-vectors (unsound for overflow).")
def smt_command(input_file, output, loop_unwind, math_int):
    """Write the verification query of IN as a standalone SMT-LIB2 script (unsat = verified).

    Candidates still present are checked as invariants (their guards asserted true)."""
    def go():
        from .fileio import write_text
        program = load_program(input_file)
        text = smt_query(program, loop_unwind, title=f"verification condition of {input_file}",
                         math_int=math_int)
        write_text(output, text, input_file)
        return 0
    run_tool(go)


def smt_query(program: il.Program, loop_unwind: int | None = None, title: str = "",
              math_int: bool = False) -> str:
    """SMT-LIB2 text of the final query: every real assertion and candidate checked
    (``math_int``: bit-vectors as integers)."""
    from .solvers import smt_script
    kernel = houdini._kernel(program)
    acyclic = loopcut.unwind_loops(kernel, loop_unwind) if loop_unwind is not None \
        else loopcut.cut_loops(kernel)
    vc = vcmod.build_vc(program, passify.passify(program, acyclic), math_int=math_int)
    enabled = {c.index for c in vc.checks if not c.is_vacuity}
    return smt_script(vc, vc.assumptions(enabled, None), title)
