"""The oracle's kernel AST: a small structured language that prints as OpenCL C or CUDA.

Every value is an ``unsigned int`` (32-bit, wrapping); comparisons and ``&&``/``||``
give 0 or 1.  Arrays hold ``unsigned int`` elements and are indexed in elements.  The
AST is deliberately independent of the project's IL and front end: the reference
(``reference.py``) interprets this AST, the verifier sees only the printed source.

Shapes:

* expressions: ``Const``, ``Id`` (a work-item builtin in one dimension), ``Var`` (a
  private scalar: local, loop counter, function or kernel parameter), ``Bin``, ``Cond``
  (``c ? a : b``), ``Load`` (``A[i]``), ``Call`` (a device function returning a value),
  ``Atomic`` (``atomic_add(&A[i], v)``, value = the old element);
* statements: ``Decl`` (``unsigned x = e;``), ``Assign``, ``Store`` (``A[i] = e;``),
  ``Eval`` (an expression statement: a call or an atomic whose result is unused),
  ``If``, ``For`` (``for (unsigned i = 0; i < bound; i += step)``), ``Barrier``,
  ``Assert`` (``__assert(e)``), ``Return`` (leave the kernel);
* ``Array`` (global or group-shared, with its size in elements), ``Function``,
  ``Kernel`` (launch, arrays, scalar parameters, functions, body).
"""
from __future__ import annotations

from dataclasses import dataclass, field

MASK = 0xFFFFFFFF
ARITH = ("+", "-", "*", "&", "|", "^", "<<", ">>", "/", "%")
COMPARE = ("==", "!=", "<", "<=", ">", ">=")
LOGIC = ("&&", "||")
ATOMIC_OPS = ("add", "or", "max", "xchg")
# Id kinds: local id, group id, global id, local size, number of groups
ID_KINDS = ("lid", "gid", "glob", "lsize", "ngroups")


# ---------------------------------------------------------------------- expressions


@dataclass(frozen=True)
class Const:
    value: int


@dataclass(frozen=True)
class Id:
    kind: str  # one of ID_KINDS
    dim: int  # 0 = x, 1 = y


@dataclass(frozen=True)
class Var:
    name: str


@dataclass(frozen=True)
class Bin:
    op: str  # ARITH, COMPARE or LOGIC
    left: object
    right: object


@dataclass(frozen=True)
class Cond:
    cond: object
    then: object
    other: object


@dataclass(frozen=True)
class Load:
    array: str  # an array name, or a pointer parameter of the enclosing function
    index: object


@dataclass(frozen=True)
class Call:
    func: str
    args: tuple  # expressions; a pointer argument is the array name as a Var


@dataclass(frozen=True)
class Atomic:
    op: str  # ATOMIC_OPS
    array: str
    index: object
    value: object


# ---------------------------------------------------------------------- statements


@dataclass(frozen=True)
class Decl:
    name: str
    value: object


@dataclass(frozen=True)
class Assign:
    name: str
    value: object


@dataclass(frozen=True)
class Store:
    array: str
    index: object
    value: object


@dataclass(frozen=True)
class Eval:
    expr: object  # Call or Atomic, result discarded


@dataclass(frozen=True)
class If:
    cond: object
    then: tuple
    other: tuple = ()


@dataclass(frozen=True)
class For:
    var: str
    bound: object  # loop while var < bound (re-evaluated before each iteration)
    step: int
    body: tuple


@dataclass(frozen=True)
class Barrier:
    """``fences``: the memory spaces ordered, a subset of {"local", "global"} (OpenCL
    ``CLK_LOCAL_MEM_FENCE`` / ``CLK_GLOBAL_MEM_FENCE``; CUDA ``__syncthreads`` orders
    both).  ``ident``: a number unique in the kernel (barrier identity for divergence)."""
    fences: frozenset
    ident: int


@dataclass(frozen=True)
class Assert:
    cond: object
    ident: int


@dataclass(frozen=True)
class Return:
    """``return;`` from the kernel (only in the kernel body, never in a device function)."""


# ---------------------------------------------------------------------- declarations


@dataclass(frozen=True)
class Array:
    name: str
    space: str  # "global" (kernel pointer argument) or "shared" (__local / __shared__)
    size: int  # elements
    as_param: bool = True  # shared arrays: OpenCL `__local unsigned *L` argument vs declared in the kernel


@dataclass(frozen=True)
class Function:
    """A device function.  ``params``: (name, kind) with kind "value" or "ptr:SPACE";
    returns ``result`` (an expression) unless it is None (``void``)."""
    name: str
    params: tuple
    body: tuple
    result: object = None


@dataclass
class Launch:
    """Work-group size and number of groups, per dimension (1-D or 2-D)."""
    local: tuple
    groups: tuple

    @property
    def dims(self) -> int:
        return len(self.local)

    @property
    def threads_per_group(self) -> int:
        n = 1
        for d in self.local:
            n *= d
        return n

    @property
    def num_groups(self) -> int:
        n = 1
        for d in self.groups:
            n *= d
        return n


@dataclass
class Kernel:
    name: str
    lang: str  # "opencl" or "cuda" (CUDA barriers order both spaces)
    launch: Launch
    arrays: tuple  # Array
    scalars: tuple  # names of scalar kernel arguments (unsigned)
    functions: tuple  # Function
    body: tuple
    features: set = field(default_factory=set)  # generator features used (for reports)

    def array(self, name: str) -> Array:
        return next(a for a in self.arrays if a.name == name)
