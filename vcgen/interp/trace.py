"""What one interpreter run records: events (array accesses, barriers, failed assertions),
assertion failures and the ``Run`` itself, with their text and JSON forms."""
from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from .values import format_value, json_value

@dataclass
class Event:
    """One trace event.

    ``kind``: ``"read"`` / ``"write"`` (``map``, ``index``, ``value``, ``pc`` set), ``"barrier"``
    (``args``: the barrier's argument values), ``"assert"`` (a failed assertion; ``failure``
    set).  ``sourceloc``: ``(file, line, column)`` of the latest marker, or None.
    """
    kind: str
    proc: str
    block: str
    sourceloc: tuple | None = None
    map: str | None = None
    index: Any = None
    value: Any = None
    args: tuple = ()
    failure: "AssertFailure | None" = None
    pc: int | None = None  # index of the command in its block (read/write events)

    def to_json(self) -> dict[str, Any]:
        d: dict[str, Any] = {"kind": self.kind, "proc": self.proc, "block": self.block,
             "sourceloc": list(self.sourceloc) if self.sourceloc else None}
        if self.kind in ("read", "write"):
            d.update(map=self.map, index=json_value(self.index), value=json_value(self.value))
        elif self.kind == "barrier":
            d["args"] = [json_value(a) for a in self.args]
        elif self.failure is not None:
            d["assertion"] = self.failure.to_json()
        return d

    def __str__(self) -> str:
        at = f" at {':'.join(map(str, self.sourceloc))}" if self.sourceloc else ""
        where = f"  [{self.proc}/{self.block}]"
        if self.kind == "read":
            return f"read    {self.map}[{format_value(self.index)}] -> {format_value(self.value)}{at}{where}"
        if self.kind == "write":
            return f"write   {self.map}[{format_value(self.index)}] := {format_value(self.value)}{at}{where}"
        if self.kind == "barrier":
            return f"barrier ({', '.join(format_value(a) for a in self.args)}){at}{where}"
        return f"assertion failed{at}: {self.failure}{where}"


@dataclass
class AssertFailure:
    """A failed ``assert`` (or checked ``requires``/``ensures``: ``kind``).

    ``attrs``: the command's attributes (``il.Attr``); ``attr_values``: attribute name ->
    list of argument values (strings as written, expressions evaluated, None if they
    cannot be evaluated); ``expr``: the asserted expression as IL text.
    """
    kind: str  # "assert" | "requires" | "ensures"
    proc: str
    block: str
    expr: str
    attrs: tuple
    attr_values: dict
    sourceloc: tuple | None

    def to_json(self) -> dict[str, Any]:
        return {"kind": self.kind, "proc": self.proc, "block": self.block, "expr": self.expr,
                "attrs": {k: [json_value(x) for x in v] for k, v in self.attr_values.items()},
                "sourceloc": list(self.sourceloc) if self.sourceloc else None}

    def __str__(self) -> str:
        show = lambda x: json.dumps(x) if isinstance(x, str) else "?" if x is None \
            else format_value(x)
        attrs = " ".join("{:" + k + (" " + ", ".join(map(show, v)) if v else "") + "}"
                         for k, v in self.attr_values.items())
        return f"{self.kind} {attrs + ' ' if attrs else ''}{self.expr}"


@dataclass(frozen=True)
class HavocView:
    """The state at a ``havoc`` (the fifth argument of ``havoc_policy`` when
    ``havoc_view=True``).  Read only: ``globals`` maps constants and global variables to
    their current values, ``locals`` the current frame's variables; ``proc``/``block``
    name the havoc's position; ``events`` is the trace of the current path so far."""
    globals: dict
    locals: dict
    proc: str
    block: str
    events: list


@dataclass
class Run:
    """Result of one run.  ``feasible`` is False when every path violates an ``assume``
    (then the trace and finals are empty).  ``stopped`` is True when execution stopped at
    a failed assertion (``stop_on_failure``).  Values are as described in the module doc;
    ``consts``/``params`` are the inputs used, ``initial_globals`` the initial values of
    global variables, ``final_locals`` the entry procedure's locals/params/outs at exit."""
    feasible: bool
    events: list = field(default_factory=list)
    assert_failures: list = field(default_factory=list)
    final_globals: dict = field(default_factory=dict)
    final_locals: dict = field(default_factory=dict)
    consts: dict = field(default_factory=dict)
    params: dict = field(default_factory=dict)
    initial_globals: dict = field(default_factory=dict)
    steps: int = 0
    stopped: bool = False

    def to_json(self) -> dict[str, Any]:
        scal = lambda d: {k: json_value(v) for k, v in d.items()}
        return {"feasible": self.feasible, "stopped": self.stopped, "steps": self.steps,
                "consts": scal(self.consts), "params": scal(self.params),
                "initial_globals": scal(self.initial_globals),
                "events": [e.to_json() for e in self.events],
                "assert_failures": [f.to_json() for f in self.assert_failures],
                "final_globals": scal(self.final_globals), "final_locals": scal(self.final_locals)}
