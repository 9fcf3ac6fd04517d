"""The structure of ``bugle/`` and ``vcgen/`` (README "How the code is organised").

Checked over the sources with ``ast`` (nothing is imported):

* no import cycle between modules (module-level imports; ``if TYPE_CHECKING:`` imports are
  for annotations only and do not count);
* no private name (``_x``) imported from another module, no ``module._x`` reached through
  an imported module, and no private member of another object (``obj._x`` where ``obj``
  is not ``self``/``cls``) unless the line before says ``# private-ok: REASON``;
* ``bugle`` depends on the IL package ``vcgen.il`` only (DESIGN: bugle builds and prints
  IL programs; everything else in vcgen reads them);
* an import inside a function is an exception that says why, in a ``# lazy: REASON``
  comment on its line (optional packages, a module that must not load eagerly);
* a public function says what it returns: never a bare ``dict``/``list``/``set``/``tuple``
  (``set[str]``, a named tuple or dataclass instead).

``python tests/test_code_structure.py`` prints every violation.
"""
from __future__ import annotations

import ast
import sys
from dataclasses import dataclass, field
from pathlib import Path

import networkx as nx

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("bugle", "vcgen")
BUGLE_MAY_IMPORT = ("vcgen.il",)
LAZY_MARK = "# lazy:"


@dataclass
class Module:
    """One source module: its dotted ``name``, whether it is a package ``__init__``, and
    its import facts."""
    name: str
    path: Path
    is_package: bool
    edges: set = field(default_factory=set)  # project modules imported at module level
    private: list = field(default_factory=list)  # "line: what" of private-name imports
    lazy: list = field(default_factory=list)  # (line, text, has reason) of function-level imports
    foreign: list = field(default_factory=list)  # "line: module" of imports outside the allowed set
    members: list = field(default_factory=list)  # "line: obj._x" of private members of other objects


def module_name(path: Path) -> tuple:
    rel = path.relative_to(ROOT).with_suffix("")
    parts = list(rel.parts)
    is_package = parts[-1] == "__init__"
    if is_package:
        parts = parts[:-1]
    return ".".join(parts), is_package


def all_modules() -> dict:
    out = {}
    for pkg in PACKAGES:
        for path in sorted((ROOT / pkg).rglob("*.py")):
            name, is_package = module_name(path)
            out[name] = Module(name, path, is_package)
    return out


def _resolve(mod: Module, level: int, target: str | None) -> str:
    """The absolute module name of a (possibly relative) import in ``mod``."""
    if level == 0:
        return target or ""
    base = mod.name.split(".")
    if not mod.is_package:
        base = base[:-1]
    base = base[:len(base) - (level - 1)] if level > 1 else base
    return ".".join(base + ([target] if target else []))


def _is_type_checking(node: ast.If) -> bool:
    t = node.test
    return (isinstance(t, ast.Name) and t.id == "TYPE_CHECKING") or \
        (isinstance(t, ast.Attribute) and t.attr == "TYPE_CHECKING")


def _imports(tree: ast.Module):
    """(import node, at module level) for every import, skipping ``if TYPE_CHECKING:``."""
    def walk(nodes, top: bool):
        for n in nodes:
            if isinstance(n, (ast.Import, ast.ImportFrom)):
                yield n, top
            elif isinstance(n, ast.If) and _is_type_checking(n):
                continue
            elif isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
                yield from walk(ast.iter_child_nodes(n), False)
            elif isinstance(n, ast.ClassDef):
                yield from walk(ast.iter_child_nodes(n), top)
            else:
                yield from walk(ast.iter_child_nodes(n), top)
    yield from walk(tree.body, True)


def _private(name: str) -> bool:
    return name.startswith("_") and not (name.startswith("__") and name.endswith("__"))


def analyse(modules: dict) -> None:
    """Fill in the import facts of every module."""
    for mod in modules.values():
        source = mod.path.read_text()
        lines = source.splitlines()
        tree = ast.parse(source, str(mod.path))
        bound: dict = {}  # local name -> project module it is bound to
        for node, top in _imports(tree):
            targets = []
            if isinstance(node, ast.Import):
                for a in node.names:
                    targets.append((a.name, None))
                    if a.name in modules:
                        bound[a.asname or a.name.split(".")[0]] = a.asname and a.name or a.name.split(".")[0]
            else:
                base = _resolve(mod, node.level, node.module)
                for a in node.names:
                    sub = f"{base}.{a.name}"
                    if sub in modules:
                        targets.append((sub, None))
                        bound[a.asname or a.name] = sub
                    else:
                        targets.append((base, a.name))
                        if _private(a.name) and base in modules and base != mod.name:
                            mod.private.append(f"{node.lineno}: from {base} import {a.name}")
            for target, _ in targets:
                if target.split(".")[0] not in PACKAGES:
                    continue
                if mod.name.startswith("bugle") and target.startswith("vcgen") and \
                        not any(target == p or target.startswith(p + ".") for p in BUGLE_MAY_IMPORT):
                    if f"{node.lineno}: {target}" not in mod.foreign:
                        mod.foreign.append(f"{node.lineno}: {target}")
            if not top:
                text = lines[node.lineno - 1].strip()
                mod.lazy.append((node.lineno, text, LAZY_MARK in lines[node.lineno - 1]))
                continue
            for target, _ in targets:
                if target in modules and target != mod.name:
                    mod.edges.add(target)
                    # importing a.b.c runs a/__init__ and a/b/__init__ first
                    parts = target.split(".")
                    for i in range(1, len(parts)):
                        parent = ".".join(parts[:i])
                        if parent in modules and not mod.name.startswith(parent + ".") and parent != mod.name:
                            mod.edges.add(parent)
        for node in ast.walk(tree):
            if not (isinstance(node, ast.Attribute) and _private(node.attr) and isinstance(node.value, ast.Name)):
                continue
            if node.value.id in bound and bound[node.value.id] != mod.name:
                mod.private.append(f"{node.lineno}: {bound[node.value.id]}.{node.attr}")
            elif node.value.id not in ("self", "cls", "os", "sys") and \
                    "# private-ok:" not in lines[node.lineno - 2]:
                mod.members.append(f"{node.lineno}: {node.value.id}.{node.attr}")


BARE_CONTAINERS = {"dict", "list", "set", "tuple", "frozenset"}


def _bare(node) -> bool:
    """Is a return annotation a bare container (``list``, ``tuple | None``, ``"dict"``)?"""
    if isinstance(node, ast.Name):
        return node.id in BARE_CONTAINERS
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.BitOr):
        return _bare(node.left) or _bare(node.right)
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        try:
            return _bare(ast.parse(node.value, mode="eval").body)
        except SyntaxError:
            return False
    return False


def bare_returns(modules: dict) -> list:
    """``module:line: name -> annotation`` of public functions returning a bare container."""
    out = []
    for m in modules.values():
        for n in ast.walk(ast.parse(m.path.read_text())):
            if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef)) and not n.name.startswith("_") \
                    and n.returns is not None and _bare(n.returns):
                out.append(f"{m.name}:{n.lineno}: {n.name} -> {ast.unparse(n.returns)}")
    return out


def graph(modules: dict) -> nx.DiGraph:
    g = nx.DiGraph()
    for m in modules.values():
        g.add_node(m.name)
        g.add_edges_from((m.name, t) for t in m.edges)
    return g


def cycles(modules: dict) -> list:
    """Strongly connected groups of modules (each a sorted list), largest first."""
    sccs = [sorted(c) for c in nx.strongly_connected_components(graph(modules)) if len(c) > 1]
    return sorted(sccs, key=len, reverse=True)


MODULES = all_modules()
analyse(MODULES)


def test_no_import_cycle():
    assert cycles(MODULES) == []


def test_no_private_import_across_modules():
    bad = [f"{m.name}:{p}" for m in MODULES.values() for p in m.private]
    assert bad == []


def test_no_private_member_of_another_object():
    bad = [f"{m.name}:{p}" for m in MODULES.values() for p in m.members]
    assert bad == []


def test_bugle_depends_on_the_il_package_only():
    bad = [f"{m.name}:{f}" for m in MODULES.values() for f in m.foreign]
    assert bad == []


def test_function_level_imports_say_why():
    bad = [f"{m.name}:{line}: {text}" for m in MODULES.values() for line, text, ok in m.lazy if not ok]
    assert bad == []


def test_public_functions_say_what_they_return():
    assert bare_returns(MODULES) == []


def test_checker_sees_the_packages():
    """The checker reads the real tree: the IL package and both command groups exist."""
    assert {"vcgen.il", "vcgen.cli", "bugle.cli"} <= set(MODULES)
    assert graph(MODULES).number_of_edges() > 50


if __name__ == "__main__":
    for c in cycles(MODULES):
        print("cycle:", " ".join(c))
    for m in MODULES.values():
        for p in m.private:
            print(f"private: {m.name}:{p}")
        for p in m.members:
            print(f"member: {m.name}:{p}")
        for f in m.foreign:
            print(f"bugle imports: {m.name}:{f}")
        for line, text, ok in m.lazy:
            if not ok:
                print(f"lazy: {m.name}:{line}: {text}")
    for b in bare_returns(MODULES):
        print(f"bare return: {b}")
    sys.exit(0)
