"""Make the kernel's CFG acyclic: cut loops with their invariants, or unwind them.

``cut_loops`` is the standard loop-cutting transformation (paper 003 section 2.1; docs/design.md
section 6): for a loop with header ``H`` and invariants ``I`` (the invariant asserts at the
start of ``H``, see ``header_invariants``)

* every entry edge goes to a new block ``H$entry``: ``assert I`` (tagged
  ``{:loop_check "entry"}``), ``havoc`` the variables the loop (nested loops included)
  modifies, the marker ``CUT_POINT``, ``assume I``;
* every back edge ``L -> H`` goes to a new block ``H$back$L``: ``assert I`` (tagged
  ``{:loop_check "maintained"}``), ``assume false``.

``unwind_loops`` is bug-finding mode (``--findbugs``, ``--loop-unwind=N``): N copies of each
loop body followed by one copy in which assertions are only assumed (it lets paths leave
the loop after N complete iterations); its back edges end in ``assume false``.  Candidate
invariants are dropped, other invariants become ordinary checks of each iteration.

``k_induction`` is ``--k-induction-depth=K``: each loop proved by k-induction (base case of K
checked iterations, step case of K assumed iterations after a havoc and one checked).

All keep every assert's attributes, so a model can still say which check failed.
"""
from __future__ import annotations

from dataclasses import replace
from typing import NamedTuple

from ..analysis import cfg
from ..analysis.loops import Loop, natural_loops
from .. import il
from ..il.errors import ExitCode, ToolError

LOOP_CHECK = "loop_check"  # attribute added to the copies of invariant asserts
# ``assume {:cut_point} true;`` right after the havoc of an ``H$entry`` block: from here on the
# state is "the loop's modified variables arbitrary, its invariants assumed", which the
# per-loop slices of the final check (vcgen.vc.slicing.cut_slices) start from
CUT_POINT = il.Assume(il.TRUE, (il.Attr("cut_point"),))
# Attributes that make an ``assert`` at the start of a loop header a loop invariant.
INVARIANT_ATTRS = ("invariant", "user_invariant", "candidate")


def is_invariant_assert(c: il.Cmd) -> bool:
    return isinstance(c, il.Assert) and any(il.has_attr(c.attrs, a) for a in INVARIANT_ATTRS)


class HeaderSplit(NamedTuple):
    """A loop header's leading invariant asserts and the rest of its commands."""
    invariants: tuple[il.Assert, ...]
    rest: tuple[il.Cmd, ...]


def header_invariants(block: il.Block) -> HeaderSplit:
    """(invariant asserts, remaining commands) of a loop header block.

    The invariants are the maximal prefix of ``assert``s carrying ``{:invariant}``,
    ``{:user_invariant}`` or ``{:candidate}`` (docs/IL.md, "Two-thread programs");
    ``assume``s carrying only ``{:sourceloc}`` markers may be interleaved and are kept
    with the rest.
    """
    invs, rest = [], []
    cmds = list(block.cmds)
    i = 0
    while i < len(cmds):
        c = cmds[i]
        if is_invariant_assert(c):
            invs.append(c)
        elif _is_marker(c):
            rest.append(c)
        else:
            break
        i += 1
    return HeaderSplit(tuple(invs), tuple(rest + cmds[i:]))


def _is_marker(c: il.Cmd) -> bool:
    return isinstance(c, il.Assume) and c.expr == il.TRUE


def _tag(a: il.Assert, how: str) -> il.Assert:
    return il.Assert(a.expr, a.attrs + (il.Attr(LOOP_CHECK, (how,)),))


def _retarget(b: il.Block, mapping) -> il.Block:
    if isinstance(b.transfer, il.Goto):
        return replace(b, transfer=il.Goto(tuple(mapping(t) for t in b.transfer.targets)))
    return b


def _check_no_calls(proc: il.ProcedureDecl) -> None:
    for b in proc.body():
        for c in b.cmds:
            if isinstance(c, il.Call):
                raise ToolError(f"{proc.name}: block {b.label}: call to {c.proc} in the "
                                "two-thread program (VC generation needs inlined code)",
                                ExitCode.GPUVERIFYVCGEN_ERROR)


def fresh_label(label: str, taken: set) -> str:
    """``label`` or ``label$N``, the first not in ``taken``; it is added to ``taken``."""
    out, i = label, 0
    while out in taken:
        i += 1
        out = f"{label}${i}"
    taken.add(out)
    return out


def cut_loops(proc: il.ProcedureDecl) -> il.ProcedureDecl:
    """The procedure with every natural loop cut by its invariants (acyclic result).

    Raises ToolError(GPUVERIFYVCGEN_ERROR) on irreducible control flow or calls.
    """
    _check_no_calls(proc)
    loops = natural_loops(proc)
    if not loops:
        return proc
    blocks = cfg.block_map(proc)
    taken = set(blocks)
    by_header = {lp.header: lp for lp in loops}
    new_blocks: dict = {}
    entry_label: dict = {}
    back_label: dict = {}
    for h, lp in by_header.items():
        invs, rest = header_invariants(blocks[h])
        modified = sorted(cfg.modified_vars(blocks[b] for b in lp.blocks))
        pre: list[il.Cmd] = [_tag(a, "entry") for a in invs]
        if modified:
            pre.append(il.Havoc(tuple(modified)))
        pre.append(CUT_POINT)
        pre += [il.Assume(a.expr) for a in invs]
        entry_label[h] = fresh_label(f"{h}$entry", taken)
        new_blocks[entry_label[h]] = il.Block(entry_label[h], tuple(pre), il.Goto((h,)))
        blocks[h] = replace(blocks[h], cmds=rest)
        for latch in sorted(lp.latches):
            lab = fresh_label(f"{h}$back${latch}", taken)
            back_label[(latch, h)] = lab
            cmds = tuple(_tag(a, "maintained") for a in invs) + (il.Assume(il.FALSE),)
            new_blocks[lab] = il.Block(lab, cmds, il.Return())

    def target(src: str):
        def go(t: str) -> str:
            if (src, t) in back_label:
                return back_label[(src, t)]
            return entry_label.get(t, t)
        return go

    out = []
    first = proc.body()[0].label
    if first in entry_label:
        out.append(new_blocks.pop(entry_label[first]))
    for b in proc.body():
        blk = _retarget(blocks[b.label], target(b.label))
        if b.label in entry_label and entry_label[b.label] in new_blocks:
            out.append(new_blocks.pop(entry_label[b.label]))
        out.append(blk)
        for (latch, h), lab in back_label.items():
            if latch == b.label:
                out.append(new_blocks.pop(lab))
    return replace(proc, blocks=tuple(out))


def unwind_loops(proc: il.ProcedureDecl, depth: int) -> il.ProcedureDecl:
    """Bug-finding mode: each loop unrolled ``depth`` times (acyclic result, an
    under-approximation: every path of the result is a path of ``proc``).

    Innermost loops are unrolled first, so nested loops multiply.  Raises ToolError on
    irreducible control flow, calls, or ``depth < 0``.
    """
    if depth < 0:
        raise ToolError("--loop-unwind must be at least 0", ExitCode.COMMAND_LINE_ERROR)
    _check_no_calls(proc)
    return _innermost_first(_drop_candidates(proc), lambda p, lp: _unroll_one(p, lp, depth))


def _innermost_first(proc: il.ProcedureDecl, transform) -> il.ProcedureDecl:
    """``proc`` with ``transform(proc, loop)`` applied to an innermost loop until no loop
    is left (``transform`` must remove the loop it is given)."""
    while True:
        loops = natural_loops(proc)
        if not loops:
            return proc
        proc = transform(proc, next(lp for lp in reversed(loops) if not lp.children))


def _drop_candidates(proc: il.ProcedureDecl) -> il.ProcedureDecl:
    blocks = tuple(replace(b, cmds=tuple(c for c in b.cmds if not (
        isinstance(c, il.Assert) and il.has_attr(c.attrs, "candidate")))) for b in proc.body())
    return replace(proc, blocks=blocks)


def _unroll_one(proc: il.ProcedureDecl, lp: Loop, depth: int) -> il.ProcedureDecl:
    h = lp.header

    def cmds(b: il.Block, k: int) -> tuple[il.Cmd, ...]:
        out = []
        for c in b.cmds:
            if isinstance(c, il.Assert):
                if k == depth and il.has_attr(c.attrs, "vacuity_check"):
                    continue
                if k == depth:
                    c = il.Assume(c.expr, c.attrs)
                elif b.label == h and is_invariant_assert(c):
                    c = _tag(c, "entry" if k == 0 else "maintained")
            out.append(c)
        return tuple(out)
    return unroll_loop(proc, lp, depth, "u", f"{h}$unwound", last_body=True, cmds=cmds)


def unroll_loop(proc: il.ProcedureDecl, lp: Loop, depth: int, tag: str, cut_name: str,
                last_body: bool, cmds=None) -> il.ProcedureDecl:
    """``proc`` with the natural loop ``lp`` replaced by copies: copy ``k`` (0..depth-1) of
    every loop block (labels ``<label>$<tag><k>``), then copy ``depth`` of every loop block
    (``last_body``) or of the header only.  A back edge of copy ``k`` enters copy ``k+1``'s
    header; a back edge of the last copy, or an edge from it to a block it lacks, goes to
    ``cut_name: assume false; return;``.  Edges from outside enter copy 0's header.
    ``cmds(block, k)`` gives the commands of copy ``k`` of ``block`` (default: unchanged).
    Shared by ``unwind_loops`` and the LU(k) refutation engine (``refutation.smt``)."""
    blocks = cfg.block_map(proc)
    taken = set(blocks)
    h = lp.header
    # the header first: it may be the procedure's entry block
    body = [h] + [b.label for b in proc.body() if b.label in lp.blocks and b.label != h]
    layers = [(k, body) for k in range(depth)] + [(depth, body if last_body else [h])]
    names = {(lab, k): fresh_label(f"{lab}${tag}{k}", taken) for k, labs in layers for lab in labs}
    cut = fresh_label(cut_name, taken)

    def copy(lab: str, k: int) -> il.Block:
        def go(t: str) -> str:
            if t == h:
                return names[(h, k + 1)] if k < depth else cut
            return names.get((t, k), cut) if t in lp.blocks else t
        b = blocks[lab]
        b = replace(b, label=names[(lab, k)], cmds=cmds(b, k) if cmds else b.cmds)
        return _retarget(b, go)

    copies = [copy(lab, k) for k, labs in layers for lab in labs]
    cut_block = il.Block(cut, (il.Assume(il.FALSE),), il.Return())
    out = []
    for b in proc.body():
        if b.label == h:
            out += copies + [cut_block]
        elif b.label not in lp.blocks:
            out.append(_retarget(b, lambda t: names[(h, 0)] if t == h else t))
    return replace(proc, blocks=tuple(out))


def k_induction(proc: il.ProcedureDecl, depth: int) -> il.ProcedureDecl:
    """Every loop verified by k-induction of depth ``depth`` >= 1 (acyclic result, an
    over-approximation of ``proc`` like ``cut_loops``).

    k-induction (Sheeran, Singh and Stalmarck, FMCAD 2000; for loops of programs as in
    Donaldson, Haller, Kroening and Ruemmer, "Software Verification Using k-Induction",
    SAS 2011; GPUVerify's ``--k-induction-depth``).  A loop with header ``H`` becomes

    * the *base case*: copies 0..k-1 of the loop body entered from outside, every
      assertion checked (``H``'s invariants tagged ``{:loop_check "entry"}`` in copy 0,
      ``"maintained"`` after), exits leaving as in ``proc``; the back edge of copy k-1
      goes to
    * the *step case*: ``havoc`` of the variables the loop modifies (an arbitrary
      iteration), k copies of the body whose assertions are only assumed (k consecutive
      iterations in which everything held; their exits are cut), and one copy with every
      assertion checked, invariants tagged ``"maintained"``, whose exits leave the loop
      and whose back edge is cut (``assume false``).

    A property that holds in the first k iterations and after any k consecutive
    iterations that satisfied it holds in every iteration; a path leaving the loop after
    n > k iterations is the checked copy's exit from the state after iteration n-1.
    Invariants need not be inductive on their own: the k assumed iterations strengthen
    them (``a != b`` of three values rotated each iteration holds for depth 3).  Inner
    loops are transformed first (innermost first, as ``unwind_loops``), so nested loops
    multiply their copies.  Raises ToolError on irreducible control flow, calls, or
    ``depth < 1``.
    """
    if depth < 1:
        raise ToolError("--k-induction-depth must be at least 1", ExitCode.COMMAND_LINE_ERROR)
    _check_no_calls(proc)
    return _innermost_first(proc, lambda p, lp: _k_induct_one(p, lp, depth))


def _k_induct_one(proc: il.ProcedureDecl, lp: Loop, depth: int) -> il.ProcedureDecl:
    """``proc`` with the loop ``lp`` replaced by its base and step copies (``k_induction``)."""
    blocks = cfg.block_map(proc)
    taken = set(blocks)
    h = lp.header
    body = [h] + [b.label for b in proc.body() if b.label in lp.blocks and b.label != h]
    # copies: ("b", j) base j < depth, ("s", j) assumed step j < depth, ("c", 0) checked step
    copies = [("b", j) for j in range(depth)] + [("s", j) for j in range(depth)] + [("c", 0)]
    names = {(lab, c): fresh_label(f"{lab}$k{c[0]}{c[1]}", taken) for c in copies for lab in body}
    step = fresh_label(f"{h}$kstep", taken)
    cut = fresh_label(f"{h}$kcut", taken)
    modified = sorted(cfg.modified_vars(blocks[b] for b in lp.blocks))

    def next_copy(c: tuple) -> str:
        kind, j = c
        if kind == "b":
            return names[(h, ("b", j + 1))] if j + 1 < depth else step
        if kind == "s":
            return names[(h, ("s", j + 1))] if j + 1 < depth else names[(h, ("c", 0))]
        return cut

    def commands(b: il.Block, c: tuple) -> tuple[il.Cmd, ...]:
        out: list[il.Cmd] = []
        for cmd in b.cmds:
            if isinstance(cmd, il.Assert):
                if c[0] == "s":
                    if il.has_attr(cmd.attrs, "vacuity_check"):
                        continue
                    cmd = il.Assume(cmd.expr, cmd.attrs)
                elif b.label == h and is_invariant_assert(cmd):
                    cmd = _tag(cmd, "entry" if c == ("b", 0) else "maintained")
            out.append(cmd)
        return tuple(out)

    def copy(lab: str, c: tuple) -> il.Block:
        def go(t: str) -> str:
            if t == h:
                return next_copy(c)
            if t in lp.blocks:
                return names[(t, c)]
            return cut if c[0] == "s" else t  # the assumed iterations' exits are cut
        b = blocks[lab]
        return _retarget(replace(b, label=names[(lab, c)], cmds=commands(b, c)), go)

    new = [copy(lab, c) for c in copies for lab in body]
    step_block = il.Block(step, (il.Havoc(tuple(modified)),) if modified else (), il.Goto((names[(h, ("s", 0))],)))
    cut_block = il.Block(cut, (il.Assume(il.FALSE),), il.Return())
    out = []
    for b in proc.body():
        if b.label == h:
            out += new[:len(body) * depth] + [step_block] + new[len(body) * depth:] + [cut_block]
        elif b.label not in lp.blocks:
            out.append(_retarget(b, lambda t: names[(h, ("b", 0))] if t == h else t))
    return replace(proc, blocks=tuple(out))
