"""Steensgaard-style points-to analysis: which arrays each pointer value may point to.

Paper 000 (GPUVerify TOPLAS 2014) section 6.1 ("pointers"): each pointer is a (base,
offset) pair whose base ranges over the arrays of the kernel; a flow- and
context-insensitive unification analysis (Steensgaard) over the whole module gives each
pointer a small set of possible bases, so dereferences case-split over that set only.

After ``bugle cc`` every callee is inlined into the kernel, so "the whole module" is the
kernel function, and context insensitivity costs nothing.  Pointers are never stored in
memory in the supported subset (the translator rejects pointer loads/stores), so the
points-to graph has one level: unification of pointer values with each other and with
the array objects they are derived from is exactly Steensgaard's algorithm here.

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

    def add_object(self, obj) -> None:
        """Declare an array object (or NULL) as a possible pointer target."""
        self._objects.add(obj)
        self._cache = None
        self._uf[obj]  # noqa: B018 - registers the node

    def add_value(self, v) -> None:
        self._uf[v]  # noqa: B018

    def unify(self, a, b) -> None:
        self._cache = None
        self._uf.union(a, b)

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
