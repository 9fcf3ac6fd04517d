"""Passification: turn an acyclic IL procedure into single-assignment form.

Every assignment or havoc of a variable creates a new *incarnation* (``x@3``); an
assignment becomes ``assume x@3 == e'`` where ``e'`` reads the current incarnations; a
``havoc`` just moves to a fresh, unconstrained incarnation.  At a join, a variable whose
incarnations differ between predecessors gets a fresh join incarnation, and the edge from
each predecessor gets a *copy* ``assume x@j == x@p`` (in an edge block, so copies of
different edges never constrain each other).  The initial incarnation of ``x`` is ``x``
itself, so ``old(e)`` is ``e`` over the initial names, and kernel arguments can be read
from a model by their own names.

Asserts are kept as ``PassiveAssert`` records with the incarnation map at that point, so a
counterexample can be evaluated at the failing assertion (e.g. the access log's source
variable for a race report).  The kernel's ``requires`` become ``assume``s at entry, its
``ensures`` ``assert``s before each ``return``.
"""
from __future__ import annotations

from dataclasses import dataclass, field, replace

from ..analysis import cfg
from .. import il
from ..il.errors import ExitCode, ToolError


# attributes of the ``assume x@k == e`` an assignment becomes: ``x@k`` is fresh and this is
# its only constraint, so the VC may let ``x@k`` stand for ``e`` (encode.DefinitionInliner);
# edge copies at joins (one per predecessor) are not definitions
DEFINITION = (il.Attr("definition"),)
# a join copy ``assume x@j == x@p`` on the edge from a predecessor: not a definition (one per
# edge), but like a definition it constrains nothing else when ``x@j`` is unused
# (vcgen.vc.slicing)
JOIN_COPY = (il.Attr("join_copy"),)
DEFINITION_ATTRS = ("definition", "join_copy")


@dataclass
class PassiveAssert:
    """One assertion of the passive program.

    ``expr`` and the expression arguments of ``attrs`` are over incarnation names;
    ``env`` maps each variable name to its incarnation name at the assertion.
    """
    index: int
    expr: il.Expr
    attrs: il.Attrs
    env: dict
    block: str


@dataclass
class PassiveBlock:
    label: str
    cmds: list  # il.Assume | PassiveAssert
    succs: list  # labels
    is_return: bool = False


@dataclass
class PassiveProgram:
    """Blocks in topological order (entry first); ``types`` gives every incarnation's type."""
    blocks: list
    types: dict
    asserts: list = field(default_factory=list)
    params: tuple = ()  # the kernel's parameters, (name, type)


def subst_current(e: il.Expr, env: dict) -> il.Expr:
    """``e`` with variables renamed to their incarnations in ``env``; ``old(x)`` reads the
    initial incarnation (the name itself).  Quantified names shadow."""
    def go(x: il.Expr, shadow: frozenset) -> il.Expr:
        if isinstance(x, il.Var):
            if x.name in shadow:
                return x
            inc = env.get(x.name)
            return il.Var(inc) if inc is not None and inc != x.name else x
        if isinstance(x, (il.BvLit, il.BoolLit, il.IntLit)):
            return x
        if isinstance(x, il.Old):
            return x.operand
        if isinstance(x, il.FunApp):
            return il.FunApp(x.name, tuple(go(a, shadow) for a in x.args))
        if isinstance(x, il.MapSelect):
            return il.MapSelect(go(x.map, shadow), go(x.index, shadow))
        if isinstance(x, il.MapStore):
            return il.MapStore(go(x.map, shadow), go(x.index, shadow), go(x.value, shadow))
        if isinstance(x, il.BinOp):
            return il.BinOp(x.op, go(x.left, shadow), go(x.right, shadow))
        if isinstance(x, il.UnOp):
            return il.UnOp(x.op, go(x.operand, shadow))
        if isinstance(x, il.IfThenElse):
            return il.IfThenElse(go(x.cond, shadow), go(x.then, shadow), go(x.els, shadow))
        if isinstance(x, il.BvConcat):
            return il.BvConcat(go(x.left, shadow), go(x.right, shadow))
        if isinstance(x, il.BvExtract):
            return il.BvExtract(go(x.operand, shadow), x.hi, x.lo)
        if isinstance(x, il.Quantifier):
            inner = shadow | {n for n, _ in x.vars}
            return replace(x, body=go(x.body, inner),
                           triggers=tuple(tuple(go(t, inner) for t in p) for p in x.triggers))
        raise TypeError(f"not an expression: {x!r}")
    return go(e, frozenset())


def _subst_attrs(attrs: il.Attrs, env: dict) -> il.Attrs:
    """``attrs`` with their expression arguments over incarnations; an attribute without
    expression arguments is kept as the same object: Houdini's record of the invariants it
    proved names them by their ``{:inferred}`` attribute objects
    (``inference.houdini.ProvedInvariants``)."""
    return tuple(a if all(isinstance(x, str) for x in a.args) else
                 il.Attr(a.name, tuple(x if isinstance(x, str) else subst_current(x, env) for x in a.args))
                 for a in attrs)


class _Passifier:
    def __init__(self, program: il.Program, proc: il.ProcedureDecl, copy_propagation: bool = False):
        self.proc = proc
        self.copy_propagation = copy_propagation
        self.var_types: dict = {}
        for d in program.globals():
            self.var_types[d.name] = d.type
        for n, t in proc.params + proc.outs:
            self.var_types[n] = t
        for d in proc.locals:
            self.var_types[d.name] = d.type
        self.types = dict(self.var_types)
        self.position = {n: i for i, n in enumerate(self.var_types)}  # declaration order
        self.const_types = {n: d.type for n, d in program.consts().items()}
        self.counter: dict = {}
        self.asserts: list = []

    def fresh(self, name: str) -> str:
        if name not in self.var_types:
            raise ToolError(f"{self.proc.name}: assignment to undeclared variable {name}",
                            ExitCode.GPUVERIFYVCGEN_ERROR)
        k = self.counter.get(name, 0) + 1
        self.counter[name] = k
        inc = f"{name}@{k}"
        self.types[inc] = self.var_types[name]
        return inc

    def command(self, c: il.Cmd, env: dict, out: list, label: str) -> None:
        if isinstance(c, il.Assume):
            out.append(il.Assume(subst_current(c.expr, env), c.attrs))
        elif isinstance(c, il.Assert):
            pa = PassiveAssert(len(self.asserts), subst_current(c.expr, env),
                               _subst_attrs(c.attrs, env), dict(env), label)
            self.asserts.append(pa)
            out.append(pa)
        elif isinstance(c, il.Havoc):
            for v in c.vars:
                env[v] = self.fresh(v)
        elif isinstance(c, il.Assign):
            self.assign(c, env, out)
        else:
            raise ToolError(f"{self.proc.name}: block {label}: unsupported command "
                            f"{type(c).__name__} in VC generation", ExitCode.GPUVERIFYVCGEN_ERROR)

    def assign(self, c: il.Assign, env: dict, out: list) -> None:
        rhss = [subst_current(r, env) for r in c.rhss]
        new_values = []
        for lhs, rhs in zip(c.lhss, rhss):
            if isinstance(lhs, il.MapLhs):
                cur = il.Var(env.get(lhs.name, lhs.name))
                rhs = il.MapStore(cur, subst_current(lhs.index, env), rhs)
            new_values.append((lhs.name, rhs))
        for name, rhs in new_values:
            if self.copy_propagation and isinstance(rhs, il.Var) \
                    and self.types.get(rhs.name, self.const_types.get(rhs.name)) == self.var_types[name]:
                env[name] = rhs.name  # a copy ``x := y``: x is y's current incarnation, no equation
                continue
            inc = self.fresh(name)
            env[name] = inc
            out.append(il.Assume(il.BinOp("==", il.Var(inc), rhs), DEFINITION))

    def run(self) -> PassiveProgram:
        blocks = cfg.block_map(self.proc)
        succ = cfg.successors(self.proc)
        for src, ts in succ.items():
            for t in ts:
                if t not in blocks:
                    raise ToolError(f"{self.proc.name}: goto to unknown label {t}",
                                    ExitCode.GPUVERIFYVCGEN_ERROR)
        order = _reachable_order(self.proc, succ)
        preds: dict = {l: [] for l in order}
        for l in order:
            for t in succ[l]:
                if l not in preds[t]:
                    preds[t].append(l)
        env_out: dict = {}
        passive: dict = {}
        edge_blocks: dict = {}  # (pred, succ) -> PassiveBlock
        for i, label in enumerate(order):
            env, cmds = self.join(label, preds[label], env_out, edge_blocks)
            if i == 0:
                for s in self.proc.specs:
                    if s.kind == "requires":
                        cmds.append(il.Assume(subst_current(s.expr, env), s.attrs))
            b = blocks[label]
            for c in b.cmds:
                self.command(c, env, cmds, label)
            is_ret = isinstance(b.transfer, il.Return)
            if is_ret:
                for s in self.proc.specs:
                    if s.kind == "ensures" and not s.free:
                        attrs = s.attrs + (il.Attr("postcondition"),)
                        self.command(il.Assert(s.expr, attrs), env, cmds, label)
            env_out[label] = env
            passive[label] = PassiveBlock(label, cmds, list(dict.fromkeys(succ[label])), is_ret)
        out = []
        leaving: dict = {}  # pred -> its edge blocks, in creation order (one pass, not one per block)
        for (src, _), eb in edge_blocks.items():
            leaving.setdefault(src, []).append(eb)
        for label in order:
            pb = passive[label]
            pb.succs = [edge_blocks[(label, t)].label if (label, t) in edge_blocks else t
                        for t in pb.succs]
            out.append(pb)
            out += leaving.get(label, [])
        return PassiveProgram(out, self.types, self.asserts, self.proc.params)

    def _differing(self, first: dict, others: list) -> list:
        """The variables whose incarnations differ between the predecessors' envs, in
        declaration order (the order of their join incarnations' numbers).  Found by set
        differences of the envs' items, evaluated in C: testing every variable at every
        join in Python was quadratic in the size of loop nests (more variables, more
        joins: ``make bench-scaling``, loop family at depth 50, most of the passification)."""
        names = {k for env in others for k, _ in first.items() - env.items()}
        return sorted(names, key=self.position.__getitem__)

    def join(self, label: str, preds: list, env_out: dict, edge_blocks: dict):
        if not preds:
            return {n: n for n in self.var_types}, []
        if len(preds) == 1:
            return dict(env_out[preds[0]]), []
        env = dict(env_out[preds[0]])
        copies: dict = {p: [] for p in preds}
        for v in self._differing(env, [env_out[p] for p in preds[1:]]):
            j = self.fresh(v)
            env[v] = j
            for p in preds:
                copies[p].append(il.Assume(il.BinOp("==", il.Var(j), il.Var(env_out[p][v])), JOIN_COPY))
        for p in preds:
            if copies[p]:
                edge_blocks[(p, label)] = PassiveBlock(f"{p}$to${label}", copies[p], [label])
        return env, []


def _reachable_order(proc: il.ProcedureDecl, succ: dict) -> list:
    entry = proc.body()[0].label
    seen, stack = {entry}, [entry]
    while stack:
        for t in succ[stack.pop()]:
            if t not in seen:
                seen.add(t)
                stack.append(t)
    labels = [b.label for b in proc.body() if b.label in seen]
    return cfg.topological_order(labels, {l: [t for t in succ[l] if t in seen] for l in labels})


def passify(program: il.Program, proc: il.ProcedureDecl, copy_propagation: bool = False) -> PassiveProgram:
    """Passive form of the acyclic procedure ``proc`` (a kernel after loop cutting or
    unwinding).  ``copy_propagation``: an assignment ``x := y`` of a variable or constant
    makes ``y``'s incarnation ``x``'s, without an equation, so one value is one term: with
    symbolic launch sizes both threads' ``group_id * group_size`` then meet the launch's
    global-id lemmas (``vcgen/twothread/launch.py``) instead of being two multipliers the
    solver must prove equal bit by bit (minutes, versus a fraction of a second).  Raises
    ToolError(GPUVERIFYVCGEN_ERROR) on cycles, calls, unknown labels or assignments to
    undeclared variables."""
    return _Passifier(program, proc, copy_propagation).run()
