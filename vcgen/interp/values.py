"""Values of the IL interpreter: ``bool``; ``int`` for both ``int`` and ``bvW`` (unsigned,
``0 <= v < 2**W``); ``MapVal`` for maps (explicit entries over a deterministic
pseudo-random default), and the deterministic hashing that picks "arbitrary" values."""
from __future__ import annotations

import random
import zlib

from .. import il
from ..il.printer import type_str

M64 = (1 << 64) - 1
MISSING = object()


class InterpError(ValueError):
    """The program cannot be run: unsatisfiable inputs, step bound, unsupported construct."""


class Infeasible(Exception):
    """The current path violates an ``assume`` (internal: triggers backtracking)."""


# ------------------------------------------------------------------------ values


def mix(*xs: int) -> int:
    """splitmix64-style hash of integers (deterministic across processes)."""
    h = 0x9E3779B97F4A7C15
    for x in xs:
        h = ((h ^ (x & M64) ^ ((x >> 64) & M64)) * 0xBF58476D1CE4E5B9) & M64
        h = ((h ^ (h >> 31)) * 0x94D049BB133111EB) & M64
        h ^= h >> 29
    return h


def name_hash(s: str) -> int:
    return zlib.crc32(s.encode())


class MapVal:
    """A map value: ``entries`` (explicitly written cells) over a pseudo-random default
    determined by ``seed`` and the index; ``range`` is the (resolved) range type."""
    __slots__ = ("seed", "range", "entries")

    def __init__(self, seed: int, range_: il.Type, entries: dict | None = None):
        self.seed = seed
        self.range = range_
        self.entries = {} if entries is None else entries

    def get(self, key):
        v = self.entries.get(key, MISSING)
        if v is MISSING:
            return value_from_hash(self.range, mix(self.seed, key_hash(key)))
        return v

    def stored(self, key, value) -> "MapVal":
        m = MapVal(self.seed, self.range, dict(self.entries))
        m.entries[key] = value
        return m

    def copy(self) -> "MapVal":
        return MapVal(self.seed, self.range, {k: owned(v) for k, v in self.entries.items()})

    def __eq__(self, other) -> bool:
        if not isinstance(other, MapVal):
            return NotImplemented
        if self.seed != other.seed:
            # pseudo-random defaults over an unbounded domain differ somewhere
            return False
        keys = self.entries.keys() | other.entries.keys()
        return all(self.get(k) == other.get(k) for k in keys)

    def __hash__(self) -> int:
        return key_hash(self)

    def fingerprint(self) -> int:
        h = self.seed
        for k in sorted(self.entries, key=key_hash):
            v = self.entries[k]
            if v != value_from_hash(self.range, mix(self.seed, key_hash(k))):
                h = mix(h, key_hash(k), key_hash(v))
        return h

    def __repr__(self) -> str:
        return f"MapVal(seed={self.seed:#x}, {self.entries})"


def key_hash(v) -> int:
    if isinstance(v, MapVal):
        return v.fingerprint()
    return int(v)


def owned(v):
    return v.copy() if isinstance(v, MapVal) else v


def to_signed(v: int, w: int) -> int:
    """The two's-complement value of the ``w``-bit unsigned ``v``."""
    return v - (1 << w) if v >> (w - 1) & 1 else v


def value_from_hash(t: il.Type, h: int):
    """A value of type ``t`` chosen by the 64-bit hash ``h``, biased towards small and
    boundary values (so random inputs often satisfy preconditions and loop bounds)."""
    c, r = h % 100, h >> 7
    if isinstance(t, il.BoolType):
        return bool(h & 1)
    if isinstance(t, il.BvType):
        m = (1 << t.width) - 1
        if c < 45:
            return (r % 17) & m
        if c < 60:
            return (0, 1, m, (m + 1) >> 1, m >> 1)[r % 5]
        return r & m
    if isinstance(t, il.IntType):
        if c < 50:
            return r % 33 - 16
        if c < 60:
            return (0, 1, -1, 2**31 - 1, -2**31)[r % 5]
        return r % 2**32 - 2**31
    if isinstance(t, il.MapType):
        return MapVal(mix(h, 0x5EED), t.range)
    return r % 1024  # opaque type: an arbitrary element


def random_value(t: il.Type, rng: random.Random):
    """A random value of type ``t`` (same bias as ``value_from_hash``)."""
    return value_from_hash(t, rng.getrandbits(64))


def coerce(v, t: il.Type, name: str):
    """A caller-given value for ``name`` of type ``t``: bool, int (masked to bv width), or
    for maps a dict of cells (the rest pseudo-random)."""
    if isinstance(t, il.BoolType):
        if isinstance(v, bool):
            return v
        if v in (0, 1):
            return bool(v)
    elif isinstance(t, il.BvType):
        if isinstance(v, int) and not isinstance(v, bool) and -(1 << t.width) < v < (1 << t.width):
            return v & ((1 << t.width) - 1)
    elif isinstance(t, (il.IntType, il.NamedType)):
        if isinstance(v, int) and not isinstance(v, bool):
            return v
    elif isinstance(t, il.MapType):
        if isinstance(v, MapVal):
            return v.copy()
        if isinstance(v, dict):
            m = MapVal(mix(name_hash(name), 0xD1C7), t.range)
            for k, x in v.items():
                m.entries[coerce(k, t.domain, name)] = coerce(x, t.range, name)
            return m
    raise InterpError(f"value {v!r} given for {name} does not fit its type {type_str(t)}")


def format_value(v) -> str:
    """Readable text of a value (bv and int in decimal)."""
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, MapVal):
        cells = ", ".join(f"{format_value(k)}: {format_value(x)}"
                          for k, x in sorted(v.entries.items(), key=lambda kv: key_hash(kv[0])))
        return "{" + cells + "} (other cells arbitrary)"
    return str(v)


def json_value(v):
    """JSON-compatible form of a value; maps are ``{"cells": {"index": value}}``."""
    if isinstance(v, MapVal):
        return {"cells": {str(key_hash(k)): json_value(x) for k, x in v.entries.items()}}
    return v
