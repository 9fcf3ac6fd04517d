"""Print IL programs as Boogie 2 text (the inverse of ``vcgen.il.parser``).

Binary operators are printed with explicit parentheses around every compound operand,
so the text is unambiguous whatever Boogie's precedence table says and
``parse(print(p)) == p`` holds without precedence reasoning in the printer.
"""
from __future__ import annotations

from . import ast as il


def type_str(t: il.Type) -> str:
    if isinstance(t, il.BvType):
        return f"bv{t.width}"
    if isinstance(t, il.BoolType):
        return "bool"
    if isinstance(t, il.IntType):
        return "int"
    if isinstance(t, il.MapType):
        return f"[{type_str(t.domain)}]{type_str(t.range)}"
    if isinstance(t, il.NamedType):
        return t.name
    raise TypeError(f"not a type: {t!r}")


def _string(s: str) -> str:
    return '"' + s.replace("\\", "\\\\").replace('"', '\\"') + '"'


def attrs_str(attrs: il.Attrs) -> str:
    out = []
    for a in attrs:
        args = ", ".join(_string(x) if isinstance(x, str) else expr_str(x) for x in a.args)
        out.append("{:" + a.name + (" " + args if args else "") + "}")
    return " ".join(out)


def _atomic(e: il.Expr) -> bool:
    return isinstance(e, (il.BvLit, il.BoolLit, il.Var, il.FunApp, il.MapSelect, il.MapStore,
                          il.BvExtract, il.Old)) or (isinstance(e, il.IntLit) and e.value >= 0)


def _paren(e: il.Expr) -> str:
    s = expr_str(e)
    return s if _atomic(e) else f"({s})"


def expr_str(e: il.Expr) -> str:
    if isinstance(e, il.BvLit):
        return f"{e.value}bv{e.width}"
    if isinstance(e, il.BoolLit):
        return "true" if e.value else "false"
    if isinstance(e, il.IntLit):
        return str(e.value) if e.value >= 0 else f"-{-e.value}"
    if isinstance(e, il.Var):
        return e.name
    if isinstance(e, il.FunApp):
        return f"{e.name}({', '.join(expr_str(a) for a in e.args)})"
    if isinstance(e, il.MapSelect):
        return f"{_paren(e.map)}[{expr_str(e.index)}]"
    if isinstance(e, il.MapStore):
        return f"{_paren(e.map)}[{expr_str(e.index)} := {expr_str(e.value)}]"
    if isinstance(e, il.BinOp):
        return f"{_paren(e.left)} {e.op} {_paren(e.right)}"
    if isinstance(e, il.UnOp):
        if e.op == "-" and isinstance(e.operand, il.IntLit):
            return f"-({expr_str(e.operand)})"  # `-5` would read back as the literal IntLit(-5)
        return f"{e.op}{_paren(e.operand)}"
    if isinstance(e, il.IfThenElse):
        return f"if {expr_str(e.cond)} then {expr_str(e.then)} else {expr_str(e.els)}"
    if isinstance(e, il.BvConcat):
        return f"{_paren(e.left)} ++ {_paren(e.right)}"
    if isinstance(e, il.BvExtract):
        return f"{_paren(e.operand)}[{e.hi}:{e.lo}]"
    if isinstance(e, il.Old):
        return f"old({expr_str(e.operand)})"
    if isinstance(e, il.Quantifier):
        vs = ", ".join(f"{n}: {type_str(t)}" for n, t in e.vars)
        a = attrs_str(e.attrs)
        trig = "".join("{ " + ", ".join(expr_str(t) for t in p) + " } " for p in e.triggers)
        return f"({e.kind} {vs} :: {a + ' ' if a else ''}{trig}{expr_str(e.body)})"
    raise TypeError(f"not an expression: {e!r}")


def _lhs_str(l: il.Lhs) -> str:
    if isinstance(l, il.MapLhs):
        return f"{l.name}[{expr_str(l.index)}]"
    return l.name


def _with_attrs(kw: str, attrs: il.Attrs) -> str:
    a = attrs_str(attrs)
    return f"{kw} {a}" if a else kw


def cmd_str(c: il.Cmd) -> str:
    if isinstance(c, il.Assign):
        return f"{', '.join(_lhs_str(l) for l in c.lhss)} := {', '.join(expr_str(r) for r in c.rhss)};"
    if isinstance(c, il.Assume):
        return f"{_with_attrs('assume', c.attrs)} {expr_str(c.expr)};"
    if isinstance(c, il.Assert):
        return f"{_with_attrs('assert', c.attrs)} {expr_str(c.expr)};"
    if isinstance(c, il.Havoc):
        return f"havoc {', '.join(c.vars)};"
    if isinstance(c, il.Call):
        outs = f"{', '.join(c.outs)} := " if c.outs else ""
        return f"{_with_attrs('call', c.attrs)} {outs}{c.proc}({', '.join(expr_str(a) for a in c.args)});"
    raise TypeError(f"not a command: {c!r}")


def _params(ps: tuple) -> str:
    return ", ".join(f"{n}: {type_str(t)}" if n else type_str(t) for n, t in ps)


def block_lines(b: il.Block) -> list[str]:
    lines = [f"  {b.label}:"]
    lines += [f"    {cmd_str(c)}" for c in b.cmds]
    if isinstance(b.transfer, il.Return):
        lines.append("    return;")
    else:
        lines.append(f"    goto {', '.join(b.transfer.targets)};")
    return lines


def decl_str(d: il.Decl) -> str:
    if isinstance(d, il.TypeDecl):
        rhs = f" = {type_str(d.synonym)}" if d.synonym is not None else ""
        return f"{_with_attrs('type', d.attrs)} {d.name}{rhs};"
    if isinstance(d, il.ConstDecl):
        u = "unique " if d.unique else ""
        return f"{_with_attrs('const', d.attrs)} {u}{d.name}: {type_str(d.type)};"
    if isinstance(d, il.AxiomDecl):
        return f"{_with_attrs('axiom', d.attrs)} {expr_str(d.expr)};"
    if isinstance(d, il.VarDecl):
        return f"{_with_attrs('var', d.attrs)} {d.name}: {type_str(d.type)};"
    if isinstance(d, il.FunctionDecl):
        head = f"{_with_attrs('function', d.attrs)} {d.name}({_params(d.params)}): {type_str(d.ret)}"
        return f"{head} {{ {expr_str(d.body)} }}" if d.body is not None else head + ";"
    if isinstance(d, il.ProcedureDecl):
        return _procedure_str(d)
    raise TypeError(f"not a declaration: {d!r}")


def _procedure_str(p: il.ProcedureDecl) -> str:
    head = f"{_with_attrs('procedure', p.attrs)} {p.name}({_params(p.params)})"
    if p.outs:
        head += f" returns ({_params(p.outs)})"
    lines = [head + (";" if p.blocks is None else "")]
    if p.modifies:
        lines.append(f"  modifies {', '.join(p.modifies)};")
    for s in p.specs:
        kw = ("free " if s.free else "") + s.kind
        lines.append(f"  {_with_attrs(kw, s.attrs)} {expr_str(s.expr)};")
    if p.blocks is not None:
        lines.append("{")
        for v in p.locals:
            lines.append(f"  {decl_str(v)}")
        if p.locals:
            lines.append("")
        for b in p.blocks:
            lines += block_lines(b)
        lines.append("}")
    return "\n".join(lines)


def program_str(p: il.Program) -> str:
    """Boogie text of a whole program, one declaration per line (procedures span lines)."""
    return "\n".join(decl_str(d) for d in p.decls) + "\n"
