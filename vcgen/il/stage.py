"""The stage contract (docs/design.md section 2): every stage of the pipeline is
``run(input, options) -> output`` with a frozen dataclass of options, built from the
stage's command-line ``Flag``s.

The list of stages (``vcgen.stages.STAGES``) is the one place that says which flags each
stage takes: the stage commands (``bugle cc``, ``vcgen lockstep``, ...) and ``gpuverify``
get their click options from it, the driver runs its stages in its order, the Makefile's
stage rules are generated from it (``python -m vcgen.stages makefile``) and
``tests/header_flags.py`` picks a kernel header's flags for a stage with it.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable, Generic, Mapping, TypeVar

import click

F = TypeVar("F", bound=Callable[..., Any])
In = TypeVar("In")
Out = TypeVar("Out")
Opts = TypeVar("Opts")


@dataclass(frozen=True)
class Flag:
    """One command-line flag.  ``dest``: the parameter name its value arrives under;
    ``decls``: its spellings, GPUVerify's first; ``is_flag``/``type``/``default``/
    ``multiple``/``metavar``/``choices``: as click's.  ``in_driver``: ``gpuverify`` takes it
    too, with the click settings in ``driver`` overriding the stage command's (a different
    default, say); ``vcgen_opt``: ``gpuverify --vcgen-opt=FLAG`` may give it."""
    dest: str
    decls: tuple[str, ...]
    help: str
    is_flag: bool = False
    type: Any = None
    default: Any = None
    multiple: bool = False
    metavar: str | None = None
    choices: tuple[str, ...] = ()
    in_driver: bool = True
    vcgen_opt: bool = False
    driver: Mapping[str, Any] = field(default_factory=dict)

    def click_kwargs(self, for_driver: bool = False) -> dict[str, Any]:
        kw: dict[str, Any] = {"help": self.help}
        if self.is_flag:
            kw["is_flag"] = True
        else:
            kw["default"] = self.default
        if self.type is not None:
            kw["type"] = self.type
        if self.choices:
            kw["type"] = click.Choice(list(self.choices))
        if self.multiple:
            kw["multiple"] = True
        if self.metavar:
            kw["metavar"] = self.metavar
        if for_driver:
            kw.update(self.driver)
        return kw

    def option(self, for_driver: bool = False) -> Callable[[F], F]:
        """The click option decorator of this flag (for ``gpuverify`` when ``for_driver``)."""
        return click.option(*self.decls, self.dest, **self.click_kwargs(for_driver))


def with_flags(flags: tuple[Flag, ...], for_driver: bool = False) -> Callable[[F], F]:
    """Decorator adding the click options of ``flags`` to a command, in order."""
    def deco(f: F) -> F:
        for fl in reversed(flags):
            f = fl.option(for_driver)(f)
        return f
    return deco


@dataclass(frozen=True)
class MakeRule:
    """How the Makefile chains a stage: pattern ``output`` from each pattern in ``inputs``,
    the header flags read from ``header`` (a make expression naming the kernel source),
    ``extra`` arguments, and the output redirected from stdout when ``stdout`` (with the
    exit code appended)."""
    inputs: tuple[str, ...]
    output: str
    header: str = "$(call src_of,$*)"
    extra: str = ""
    stdout: bool = False


@dataclass(frozen=True)
class Stage(Generic[In, Out, Opts]):
    """A stage: command ``tool name`` (``bugle cc``, ``vcgen lockstep``), its ``flags``, the
    ``options`` builder (flag values by ``Flag.dest`` -> the options dataclass; raises
    ToolError(COMMAND_LINE_ERROR) on bad values), ``run(input, options) -> output``, and its
    Makefile rule.  ``in_pipeline``: ``gpuverify`` runs it."""
    name: str
    tool: str
    summary: str
    flags: tuple[Flag, ...]
    options: Callable[[Mapping[str, Any]], Opts]
    run: Callable[[In, Opts], Out]
    make: MakeRule
    in_pipeline: bool = True

    def spellings(self) -> tuple[str, ...]:
        """Every spelling of every flag of the stage (``--local_size``, ``-D``, ...)."""
        return tuple(d for f in self.flags for d in f.decls)

    def with_flags(self, f: F) -> F:
        """Decorator: the stage's flags as click options of its command."""
        return with_flags(self.flags)(f)


def option_value(params: Mapping[str, Any], dest: str, default: Any = None) -> Any:
    """The value of flag ``dest`` in ``params`` (a command's click parameters or the
    driver's), ``default`` when the command has no such flag."""
    v = params.get(dest, default)
    return default if v is None else v
