"""What every command line of the project shares (``bugle``, ``vcgen``, ``gpuverify``):
GPUVerify exit codes for usage errors, and one guard that turns failures into a one-line
message and an exit code (docs/design.md section 7-8: never a traceback).
"""
from __future__ import annotations

import gc
import os
import signal
import sys
from typing import Any, Callable, NoReturn

import click

from .errors import ExitCode, ToolError

# Messages that already say where they come from are printed as they are.
_LOCATED_SUFFIXES = (".cl", ".cu", ".bpl", ".gbpl", ".ll")


def error_message(e: ToolError) -> str:
    """The stderr line of a ToolError: its text, prefixed with ``error: `` unless it already
    names a file (``k.bpl:3:4: parse error: ...``) or says ``error``."""
    text = str(e)
    if text.startswith("error") or ": error" in text or text.split(":")[0].endswith(_LOCATED_SUFFIXES):
        return text
    return f"error: {text}"


def guarded(body: Callable[[], int | None], nested_message: str = "error: program too deeply nested") -> None:
    """Run a command ``body`` and exit with its result (None = 0).

    A ToolError exits with its code and ``error_message``; Ctrl-C with CTRL_C (8);
    too-deep recursion with GPUVERIFYVCGEN_ERROR and ``nested_message``; any other
    exception is a bug of ours (``internal_error``).  Never returns.
    """
    try:
        code = body()
    except ToolError as e:
        click.echo(error_message(e), err=True)
        sys.exit(int(e.code))
    except KeyboardInterrupt:
        click.echo("interrupted", err=True)
        sys.exit(int(ExitCode.CTRL_C))
    except RecursionError:
        click.echo(nested_message, err=True)
        sys.exit(int(ExitCode.GPUVERIFYVCGEN_ERROR))
    except Exception as e:  # never a traceback for the user (unless asked for)
        internal_error(e)
    sys.exit(int(code or 0))


def internal_error(e: Exception) -> None:
    """A bug of ours reached the top: one line and exit GPUVERIFYVCGEN_ERROR, or the
    traceback when ``GPUVERIFY_DEBUG`` is set.  Never returns."""
    if os.environ.get("GPUVERIFY_DEBUG"):
        raise e
    click.echo(f"internal error: {type(e).__name__}: {e} (set GPUVERIFY_DEBUG=1 for a traceback)", err=True)
    sys.exit(int(ExitCode.GPUVERIFYVCGEN_ERROR))


class PrefixCommand(click.Command):
    """A command that also takes an unambiguous prefix of a long option, as GPUVerify's
    option parser does (``--vcgen-op=X`` is ``--vcgen-opt=X``); an ambiguous prefix is a
    usage error naming the candidates (exit 1)."""

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        longs = sorted({o for p in self.get_params(ctx) if isinstance(p, click.Option)
                        for o in p.opts + p.secondary_opts if o.startswith("--")})
        return super().parse_args(ctx, [self._expand(a, longs) for a in args])

    @staticmethod
    def _expand(arg: str, longs: list[str]) -> str:
        if not arg.startswith("--") or arg == "--":
            return arg
        name, eq, value = arg.partition("=")
        if name in longs:
            return arg
        hits = [o for o in longs if o.startswith(name)]
        if len(hits) > 1:
            raise click.UsageError(f"option {name} is ambiguous: {', '.join(hits)}")
        return hits[0] + eq + value if hits else arg


class ExitCodeGroup(click.Group):
    """Usage errors exit with COMMAND_LINE_ERROR (1), as GPUVerify does, not click's 2."""

    def main(self, *args: Any, **kwargs: Any) -> Any:
        kwargs["standalone_mode"] = False
        try:
            rv = super().main(*args, **kwargs)
        except click.exceptions.NoArgsIsHelpError as e:
            click.echo(e.format_message() if hasattr(e, "format_message") else str(e))
            sys.exit(0)
        except click.UsageError as e:
            e.show()
            sys.exit(int(ExitCode.COMMAND_LINE_ERROR))
        except click.exceptions.Abort:
            sys.exit(int(ExitCode.CTRL_C))
        sys.exit(rv if isinstance(rv, int) else 0)


def _terminated(signum: int, frame: object) -> None:
    raise KeyboardInterrupt  # SIGTERM (``timeout``, make, a batch system) is an interrupt too


def start_program(load: Callable[[], click.Command], argv: list[str] | None = None) -> NoReturn:
    """Start a command-line program: ``load()`` imports the verifier and returns its click
    command, which then runs on ``argv``.  Ctrl-C while loading exits CTRL_C (8) at once,
    without a traceback (nothing needs cleaning up yet).  SIGTERM is handled as Ctrl-C:
    exit 8, temporary files removed, solver processes stopped, a query of z3 in-process
    interrupted (it runs on a worker thread while this one waits:
    ``vcgen.vc.solvers.inprocess.Z3Backend``).  ``argv`` None (a program run, on
    ``sys.argv``): the exit skips the last garbage collection (``_skip_last_collection``)."""
    signal.signal(signal.SIGTERM, _terminated)
    if argv is None:
        _collect_less_often()
    try:
        command = load()
    except KeyboardInterrupt:
        click.echo("interrupted", err=True)
        sys.stderr.flush()
        os._exit(int(ExitCode.CTRL_C))  # half-built modules must not run their finalizers
    try:
        command.main(args=argv, standalone_mode=False)
    except click.UsageError as e:
        e.show()
        sys.exit(int(ExitCode.COMMAND_LINE_ERROR))
    except click.exceptions.Abort:
        click.echo("interrupted", err=True)
        sys.exit(int(ExitCode.CTRL_C))
    finally:
        if argv is None:
            _skip_last_collection()
    sys.exit(0)


# Allocations between two collections of the youngest generation (CPython's default: 700).
YOUNG_THRESHOLD = 10_000


def _collect_less_often() -> None:
    """Collect the youngest generation every ``YOUNG_THRESHOLD`` net allocations, not 700.
    A run builds millions of long-lived IL nodes, closures and z3 terms and frees few
    cycles: with the default, full collections repeatedly walk the whole program (17 of
    them before Houdini's first query on rodinia heartwall, about a fifth of the set-up's
    CPU time: 24-27 -> 22 s; DYN's interpreter set-up alone 2.6 -> 0.8 s with no collector).
    The older generations keep their thresholds, so garbage cycles are still collected,
    only later.  Only for a program run: a caller in-process keeps its own settings."""
    _, older, oldest = gc.get_threshold()
    gc.set_threshold(YOUNG_THRESHOLD, older, oldest)


def _skip_last_collection() -> None:
    """Spare the process the interpreter's garbage collection at exit (the run's IL, VCs and
    z3 terms, all garbage now): ``gc.freeze`` puts every object out of the collector's reach,
    and the exit still runs the ``atexit`` handlers, flushes the standard streams and
    closes what reference counting frees.  AMD Reduction: exit 0.33 -> 0.06 s after the
    verdict at load 7.  Only for a program run (``argv`` None): a caller in-process
    (tests) keeps collecting."""
    gc.freeze()
