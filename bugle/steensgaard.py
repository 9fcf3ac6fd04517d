"""Steensgaard-style points-to analysis: which arrays each pointer value may point to.

Paper 000 (GPUVerify TOPLAS 2014) section 5.1 ("Modeling Pointers", "Points-to
Analysis"): each pointer is a (base, offset) pair whose base ranges over the arrays of
the kernel; a flow- and
context-insensitive unification analysis (Steensgaard) over the whole module gives each
pointer a small set of possible bases, so dereferences case-split over that set only.

After ``bugle cc`` every callee is inlined into the kernel, so "the whole module" is the
kernel function, and context insensitivity costs nothing.  Pointers stored in memory give
the graph a second level, as in Steensgaard's algorithm: every class has at most one
*content* class (``content``), the class of the pointers stored in the objects of the
class; unifying two classes unifies their contents (recursively), so a pointer loaded
from memory may point to whatever any pointer stored in that memory may point to
(``bugle.stored_pointers``).

Shape: nodes are hashable keys chosen by the caller (e.g. ``("val", "%p")`` for an SSA
value, ``("array", "$$A")`` for an array object, ``NULL`` for the null pointer).
"""
from __future__ import annotations

from typing import Any

import networkx as nx
from networkx.utils import UnionFind

NULL = ("null",)


class PointsTo:
    """Union-find over pointer values and array objects.

    ``unify(a, b)`` records that ``a`` and ``b`` may point into the same objects (GEP
    results with their base, phi/select results with their operands, casts).
    ``targets(v)`` is the frozenset of array objects (and possibly ``NULL``) in ``v``'s
    class.  ``class_of(v)`` is a canonical representative usable as a dict key.
    """

    def __init__(self) -> None:
        self._uf = UnionFind()
        self._objects: set = set()
        self._cache: dict | None = None
        self._content: dict = {}  # class representative -> content node
        self._content_count = 0

    def add_object(self, obj) -> None:
        """Declare an array object (or NULL) as a possible pointer target."""
        self._objects.add(obj)
        self._cache = None
        self._uf[obj]  # noqa: B018 - registers the node

    def add_value(self, v) -> None:
        self._uf[v]  # noqa: B018

    def unify(self, a, b) -> None:
        """Merge the classes of ``a`` and ``b``, and (Steensgaard) their content classes."""
        self._cache = None
        pending = [(a, b)]
        while pending:
            x, y = pending.pop()
            rx, ry = self._uf[x], self._uf[y]
            if rx == ry:
                continue
            cx, cy = self._content.pop(rx, None), self._content.pop(ry, None)
            self._uf.union(rx, ry)
            if cx is not None or cy is not None:
                self._content[self._uf[rx]] = cx if cx is not None else cy
            if cx is not None and cy is not None:
                pending.append((cx, cy))

    def content(self, v):
        """The content node of ``v``'s class: the (class of the) pointers stored in the
        objects ``v`` may point to; created on first use."""
        r = self._uf[v]
        c = self._content.get(r)
        if c is None:
            self._content_count += 1
            c = ("content", self._content_count)
            self._uf[c]  # noqa: B018
            self._content[r] = c
        return c

    def stored(self, v):
        """The content node of ``v``'s class if pointers were ever stored in (or loaded
        from) its objects, else None (``content`` without creating one)."""
        return self._content.get(self._uf[v])

    def class_of(self, v):
        return self._uf[v]

    def targets(self, v) -> frozenset[Any]:
        """Objects that pointer ``v`` may point to (its class's objects)."""
        return self._targets_by_class().get(self._uf[v], frozenset())

    def classes(self) -> dict[Any, frozenset[Any]]:
        """Representative -> frozenset of objects, for every class containing an object."""
        return dict(self._targets_by_class())

    def _targets_by_class(self) -> dict:
        if self._cache is not None:
            return self._cache
        out: dict = {}
        for o in self._objects:
            out.setdefault(self._uf[o], set()).add(o)
        self._cache = {k: frozenset(v) for k, v in out.items()}
        return self._cache

    def graph(self) -> nx.Graph:
        """Debug view: a graph with one connected component per class."""
        g = nx.Graph()
        for s in self._uf.to_sets():
            s = list(s)
            g.add_nodes_from(s)
            g.add_edges_from(zip(s, s[1:]))
        return g
