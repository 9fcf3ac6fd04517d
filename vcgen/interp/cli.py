"""``vcgen run``: execute an IL program on concrete values and print its trace."""
from __future__ import annotations

import json
from typing import Any

import click

from .. import il
from ..il.errors import ExitCode, ToolError
from ..il.files import read_text
from ..il.parser import ILParseError, parse_program
from ..il.typecheck import ILTypeError
from .interpreter import Interpreter, entry_name
from .trace import Run
from .values import InterpError, format_value

def _parse_value(text: str):
    t = text.strip()
    if t in ("true", "false"):
        return t == "true"
    if "bv" in t and t.split("bv")[0].lstrip("-").isdigit():
        t = t.split("bv")[0]
    try:
        return int(t, 0)
    except ValueError:
        raise ToolError(f"--set: cannot read value {text!r} (expected an integer, "
                        "NbvW, true or false)", ExitCode.COMMAND_LINE_ERROR) from None


def _parse_sets(sets, program: il.Program, entry: str | None):
    """``NAME=VALUE`` / ``NAME[INDEX]=VALUE`` settings split into (consts, params)."""
    it_entry = entry_name(program, entry)
    proc = next(p for p in program.procedures() if p.name == it_entry)
    param_names = {n for n, _ in proc.params}
    consts: dict[str, Any] = {}
    params: dict[str, Any] = {}
    for s in sets:
        if "=" not in s:
            raise ToolError(f"--set {s}: expected NAME=VALUE", ExitCode.COMMAND_LINE_ERROR)
        name, value = s.split("=", 1)
        name = name.strip()
        target = params if name in param_names else consts
        if name.endswith("]") and "[" in name:
            base, idx = name[:-1].split("[", 1)
            cells = target.setdefault(base, {})
            if not isinstance(cells, dict):
                raise ToolError(f"--set {s}: {base} was given a scalar value",
                                ExitCode.COMMAND_LINE_ERROR)
            cells[_parse_value(idx)] = _parse_value(value)
        else:
            target[name] = _parse_value(value)
    return consts, params


def _print_text(run: Run) -> None:
    out = click.echo
    out("inputs:")
    for n, v in run.consts.items():
        out(f"  const {n} = {format_value(v)}")
    for n, v in run.params.items():
        out(f"  param {n} = {format_value(v)}")
    if not run.feasible:
        return
    out("trace:")
    for e in run.events:
        out(f"  {e}")
    if run.stopped:
        out("  (stopped at the first failed assertion)")
    out(f"assertion failures: {len(run.assert_failures)}")
    out("final globals:")
    for n, v in run.final_globals.items():
        out(f"  {n} = {format_value(v)}")
    out("final locals:")
    for n, v in run.final_locals.items():
        out(f"  {n} = {format_value(v)}")
    out(f"steps: {run.steps}")


@click.command("run")
@click.argument("file")
@click.option("--set", "sets", multiple=True, metavar="NAME=VALUE",
              help="Value of a constant, global variable or kernel parameter "
                   "(NAME[INDEX]=VALUE sets one map cell).  Repeatable.")
@click.option("--seed", type=int, default=0, show_default=True, help="Random seed.")
@click.option("--json", "as_json", is_flag=True, help="Print the run as JSON.")
@click.option("--stop-on-failure", is_flag=True, help="Stop at the first failed assertion.")
@click.option("--max-steps", type=int, default=10**6, show_default=True,
              help="Bound on executed commands (over all explored paths).")
@click.option("--entry", default=None, help="Procedure to run (default: the {:kernel} one).")
@click.pass_context
def run_command(ctx, file, sets, seed, as_json, stop_on_failure, max_steps, entry):
    """Execute an IL program (.gbpl one thread, .bpl a pair of threads) on concrete values.

    Prints the inputs, the trace of array accesses, barriers and failed assertions, and
    the final state.  Exit code 0 if no assertion failed, 6 if one did, 5 on errors
    (parse/type error, unsatisfiable axioms, step bound, no feasible path).
    """
    try:
        program = parse_program(read_text(file), file)
        consts, params = _parse_sets(sets, program, entry)
        run = Interpreter(program, consts, params, seed, stop_on_failure=stop_on_failure,
                          max_steps=max_steps, entry=entry).run()
    except ToolError as e:
        click.echo(f"vcgen run: {e}", err=True)
        ctx.exit(int(e.code))
    except (ILParseError, ILTypeError, InterpError) as e:
        click.echo(f"vcgen run: {file}: {e}" if not str(e).startswith(file) else f"vcgen run: {e}",
                   err=True)
        ctx.exit(int(ExitCode.GPUVERIFYVCGEN_ERROR))
    if as_json:
        click.echo(json.dumps(run.to_json(), indent=1))
    else:
        _print_text(run)
    if not run.feasible:
        click.echo(f"vcgen run: {file}: no feasible path (every path violates an assume)",
                   err=True)
        ctx.exit(int(ExitCode.GPUVERIFYVCGEN_ERROR))
    ctx.exit(int(ExitCode.NOT_ALL_VERIFIED) if run.assert_failures else 0)
