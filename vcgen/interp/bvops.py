"""SMT-LIB bit-vector operations on the interpreter's unsigned integers (``bvudiv x 0 = all
ones``, ``bvurem x 0 = x``, ``bvsdiv``/``bvsrem``/``bvsmod`` via the unsigned ones, shifts by
>= width give 0 / the sign fill), and Euclidean ``div``/``mod`` on ints."""
from __future__ import annotations

from typing import Callable

from .values import InterpError, to_signed

def _sdiv(a, b, w, m):
    sa, sb = a >> (w - 1), b >> (w - 1)
    udiv = lambda x, y: m if y == 0 else x // y
    if not sa and not sb:
        return udiv(a, b)
    if sa and not sb:
        return -udiv(-a & m, b) & m
    if not sa and sb:
        return -udiv(a, -b & m) & m
    return udiv(-a & m, -b & m)


def _srem(a, b, w, m):
    sa, sb = a >> (w - 1), b >> (w - 1)
    urem = lambda x, y: x if y == 0 else x % y
    if not sa and not sb:
        return urem(a, b)
    if sa and not sb:
        return -urem(-a & m, b) & m
    if not sa and sb:
        return urem(a, -b & m)
    return -urem(-a & m, -b & m) & m


def _smod(a, b, w, m):
    sa, sb = a >> (w - 1), b >> (w - 1)
    abs_a, abs_b = (-a & m) if sa else a, (-b & m) if sb else b
    u = abs_a if abs_b == 0 else abs_a % abs_b
    if u == 0 or (not sa and not sb):
        return u
    if sa and not sb:
        return (-u + b) & m
    if not sa and sb:
        return (u + b) & m
    return -u & m


def bv_builtin(spec: str, widths: list, fname: str) -> Callable:
    """The Python function of SMT-LIB operation ``spec`` (e.g. ``"bvadd"``,
    ``"zero_extend 24"``, ``"extract 7 0"``) on arguments of bit widths ``widths``."""
    parts = spec.replace("(", " ").replace(")", " ").replace("_ ", " ").split()
    if not parts or not widths:
        raise InterpError(f"function {fname}: unsupported bvbuiltin {spec!r}")
    op, nums = parts[0], [int(x) for x in parts[1:] if x.isdigit()]
    w = widths[0]
    m = (1 << w) - 1
    s = lambda v: to_signed(v, w)
    binary = {
        "bvadd": lambda a, b: (a + b) & m,
        "bvsub": lambda a, b: (a - b) & m,
        "bvmul": lambda a, b: (a * b) & m,
        "bvudiv": lambda a, b: m if b == 0 else a // b,
        "bvurem": lambda a, b: a if b == 0 else a % b,
        "bvsdiv": lambda a, b: _sdiv(a, b, w, m),
        "bvsrem": lambda a, b: _srem(a, b, w, m),
        "bvsmod": lambda a, b: _smod(a, b, w, m),
        "bvand": lambda a, b: a & b,
        "bvor": lambda a, b: a | b,
        "bvxor": lambda a, b: a ^ b,
        "bvnand": lambda a, b: ~(a & b) & m,
        "bvnor": lambda a, b: ~(a | b) & m,
        "bvxnor": lambda a, b: ~(a ^ b) & m,
        "bvshl": lambda a, b: 0 if b >= w else (a << b) & m,
        "bvlshr": lambda a, b: 0 if b >= w else a >> b,
        "bvashr": lambda a, b: (s(a) >> min(b, w)) & m,
        "bvcomp": lambda a, b: int(a == b),
        "bvult": lambda a, b: a < b,
        "bvule": lambda a, b: a <= b,
        "bvugt": lambda a, b: a > b,
        "bvuge": lambda a, b: a >= b,
        "bvslt": lambda a, b: s(a) < s(b),
        "bvsle": lambda a, b: s(a) <= s(b),
        "bvsgt": lambda a, b: s(a) > s(b),
        "bvsge": lambda a, b: s(a) >= s(b),
    }
    if op in binary and len(widths) == 2:
        return binary[op]
    if op == "concat" and len(widths) == 2:
        wb = widths[1]
        return lambda a, b: (a << wb) | b
    if len(widths) != 1:
        raise InterpError(f"function {fname}: unsupported bvbuiltin {spec!r} with {len(widths)} arguments")
    if op == "bvnot":
        return lambda a: ~a & m
    if op == "bvneg":
        return lambda a: -a & m
    if op == "zero_extend" and len(nums) == 1:
        return lambda a: a
    if op == "sign_extend" and len(nums) == 1:
        mk = (1 << (w + nums[0])) - 1
        return lambda a: s(a) & mk
    if op == "extract" and len(nums) == 2:
        hi, lo = nums
        mk = (1 << (hi - lo + 1)) - 1
        return lambda a: (a >> lo) & mk
    if op in ("rotate_left", "rotate_right") and len(nums) == 1:
        k = nums[0] % w if op == "rotate_left" else (w - nums[0] % w) % w
        return lambda a: ((a << k) | (a >> (w - k))) & m
    if op == "repeat" and len(nums) == 1:
        n = nums[0]
        return lambda a: sum(a << (w * i) for i in range(n))
    raise InterpError(f"function {fname}: unsupported bvbuiltin {spec!r}")


def euclid(a: int, b: int) -> tuple[int, int]:
    r = a % abs(b)
    return (a - r) // b, r
