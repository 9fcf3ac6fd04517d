"""Shared-state abstraction chooser (``vcgen abstract``): paper 000, sections 5.2 and 6.2.3.

Under the *adversarial* abstraction reads of an array return arbitrary values and the
array disappears from the two-thread program; under the *equality* abstraction each
thread keeps its own copy (docs/design.md 5.7).  Adversarial is cheaper and suffices unless
values read from the array matter for race freedom: an array gets the equality
abstraction when values read from it may flow (through local variables and through
other arrays) into an address, a branch condition, an assertion/assumption, or a
loop invariant.  The analysis is a flow-insensitive backward taint over one-thread IL.

Input and output are one-thread programs; each array ``var`` gets ``{:equality}`` or
``{:adversarial}`` (an existing one is respected unless ``force`` is given).
"""
from __future__ import annotations

from dataclasses import dataclass, replace

from .. import il
from ..il.errors import ExitCode, ToolError
from .values import abstract_values, data_flow, dependency_closure

ATOMICS_WITH_EQUALITY = "GPUVerify: error: --equality-abstraction cannot be used with atomics."


def relevant_arrays(proc: il.ProcedureDecl, arrays: set, group_shared: frozenset = frozenset()) -> set[str]:
    """Arrays whose read values may reach an address, branch condition or assertion, and
    the group-shared arrays (names in ``group_shared``) whose values a write at an index
    independent of the local id publishes (``benign_write_values``).

    ``arrays``: names of the global map variables.  Returns a subset of ``arrays``.
    """
    # Known contents (initializer facts) are no use of the arrays they describe.
    flow = data_flow(proc, lambda c: il.has_attr(c.attrs, "initializer"))
    deps, sinks = flow.deps, flow.sinks
    shared_writes = [(idx, value) for array, idx, value in flow.writes if array in arrays]
    published = dependency_closure(deps, benign_write_values(deps, shared_writes)) & group_shared
    return (dependency_closure(deps, sinks) & arrays) | published


def benign_write_values(deps: dict, writes: list[tuple[set, set]]) -> set[str]:
    """Names read by the values of writes whose index does not depend on the local id.

    Such a write (``sumBuffer[group] = block[last]`` by every work item of a group, after a
    barrier) is a write-write race unless both threads write the same value, which the
    benign-race check compares (paper 000 section 5, benign races): under the adversarial
    abstraction each thread's read of ``block`` is arbitrary, so the values must come
    from arrays with the equality abstraction for the comparison to succeed.  Only
    group-shared sources get it (``relevant_arrays``): a group's result published from
    local memory after a barrier; a plain copy of global input by every thread
    (``B[i] = A[i]``) stays a reported race, as GPUVerify reports it.
    ``deps``: variable -> names its assigned values are computed from; ``writes``:
    (index reads, value reads) per write to an array.  A write whose index depends on the
    local id (data flow only) is left alone: distinct threads mostly write distinct elements.
    """
    users: dict = {}  # name -> variables computed from it
    for v, srcs in deps.items():
        for x in srcs:
            users.setdefault(x, set()).add(v)
    dependent = dependency_closure(users, set(_LOCAL_IDS))  # forward, over the reversed dependencies
    out: set = set()
    for index, value in writes:
        if not (index & dependent):
            out |= value
    return out


_LOCAL_IDS = ("local_id_x", "local_id_y", "local_id_z")


@dataclass(frozen=True)
class AbstractOptions:
    """``force``: "equality" or "adversarial" for every array, None to choose per array."""
    force: str | None = None


def run(program: il.Program, options: AbstractOptions) -> il.Program:
    """The ``vcgen abstract`` stage: ``choose_abstraction`` with the options' ``force``."""
    check_forced_abstraction(program, options.force)
    return choose_abstraction(program, options.force)


def check_forced_abstraction(prog: il.Program, force: str | None) -> None:
    """``--equality-abstraction`` on a kernel with atomics: ToolError(GPUVERIFYVCGEN_ERROR).
    GPUVerify rejects that combination, and scripts written for it expect the error."""
    try:
        kernel = prog.kernel()
    except ValueError:
        return
    if force == "equality" and any(isinstance(c, il.Call) and il.has_attr(c.attrs, "atomic")
                                   for b in kernel.blocks or () for c in b.cmds):
        raise ToolError(ATOMICS_WITH_EQUALITY, ExitCode.GPUVERIFYVCGEN_ERROR)


def choose_abstraction(prog: il.Program, force: str | None = None, values: bool = True) -> il.Program:
    """Annotate every array with ``{:equality}`` or ``{:adversarial}``.

    ``force``: "equality" or "adversarial" to override the analysis for all arrays
    (``--equality-abstraction`` / ``--adversarial-abstraction`` / ``--only-divergence``).
    Arrays used by atomics may get equality (their atomics leave the thread's copy
    arbitrary, docs/design.md 5.9); only the command-line flag is rejected with them
    (``check_forced_abstraction``).  Then the kernel's locals whose values cannot matter
    and that apply uninterpreted functions are havocked (``values.abstract_values``) unless
    ``values`` is false (the differential harness runs the exact values).
    """
    arrays = {d.name for d in prog.globals() if isinstance(d.type, il.MapType)}
    try:
        kernel = prog.kernel()
    except ValueError:
        return prog
    shared = frozenset(d.name for d in prog.globals() if d.name in arrays and il.has_attr(d.attrs, "group_shared"))
    needed = relevant_arrays(kernel, arrays, shared) if force is None else set()
    decls = []
    for d in prog.decls:
        if isinstance(d, il.VarDecl) and d.name in arrays:
            has = il.has_attr(d.attrs, "equality") or il.has_attr(d.attrs, "adversarial")
            if force or not has:
                choice = force or ("equality" if d.name in needed else "adversarial")
                attrs = tuple(a for a in d.attrs if a.name not in ("equality", "adversarial"))
                d = replace(d, attrs=attrs + (il.Attr(choice),))
        decls.append(d)
    out = il.Program(tuple(decls))
    return abstract_values(out) if values else out
