"""The back end a ``--solver`` value names (docs/design.md section 6):

* none / ``z3-inprocess``: z3 through its Python API (``inprocess.Z3Backend``);
* ``z3``, ``cvc5``, ``yices``, ``bitwuzla`` or any command line: an SMT-LIB2 process
  (``process.ProcessBackend``);
* ``portfolio`` or ``portfolio:yices,cvc5``: ``portfolio.PortfolioBackend``;
* ``auto`` (the ``gpuverify`` default): ``escalating.EscalatingBackend``; z3 alone when no
  external solver is installed.
"""
from __future__ import annotations

from ...il.errors import ToolError
from ...report import progress
from ..encode import VC
from .backend import Backend
from .escalating import EscalatingBackend
from .inprocess import Z3Backend
from .portfolio import PORTFOLIO_DEFAULT, portfolio
from .process import ProcessBackend, solver_command
from .regional import regional
from .trace import TracedBackend


def _external_solver_installed() -> bool:
    for n in PORTFOLIO_DEFAULT:
        try:
            solver_command(n)
            return True
        except ToolError:
            continue
    return False


def make_backend(vc: VC, solver: str | None = None, timeout: float | None = None) -> Backend:
    """The back end for ``--solver`` (see the module docstring): z3 in-process when
    ``solver`` is None or ``"z3-inprocess"``; for those and ``auto``, on a loop-cut VC,
    each query asked first over its checks' region (``regional.RegionalBackend``); with ``--verbose`` progress lines on, wrapped
    in a ``TracedBackend`` that reports each query.  Raises ToolError(CONFIGURATION_ERROR)
    for a solver that is missing or cannot express the VC."""
    backend = _backend(vc, solver, timeout)
    if solver in (None, "", "z3-inprocess", "inprocess", "auto"):
        backend = regional(vc, backend, timeout)
    return TracedBackend(backend) if progress.enabled() else backend


def _backend(vc: VC, solver: str | None, timeout: float | None) -> Backend:
    if solver in (None, "", "z3-inprocess", "inprocess"):
        return Z3Backend(vc, timeout)
    if solver == "portfolio" or solver.startswith("portfolio:"):
        return portfolio(vc, solver, timeout)
    if solver == "auto":
        if _external_solver_installed():
            return EscalatingBackend(vc, timeout)
        return Z3Backend(vc, timeout)
    return ProcessBackend(vc, solver_command(solver), timeout)
