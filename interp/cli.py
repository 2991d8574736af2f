"""The ``interp`` command. Thin: every command is one call into the packages.

User mistakes surface as :class:`interp.errors.InterpError` and are printed as one message
(exit 2); problems found in a program (``check``, a hang) exit 1; any other exception is a bug
in interp, printed as one line (exit 3; ``--debug`` shows the traceback).
"""

from __future__ import annotations

import os
import sys

import click

from interp import collector, deepstack
from interp.engine.stepbudget import DEFAULT_MAX_STEPS, MAX_STEPS
from interp.errors import InterpError
from interp.resources import DEFAULT_MACHINE  # not interp.system: --help loads no SymPy


class _Group(click.Group):
    """The exit-code contract: 0 done, 1 problems found, 2 usage or input error (an
    InterpError, or click's own usage errors), 3 an internal error (a bug in interp), printed
    as one line; ``--debug`` (or ``INTERP_DEBUG=1``) shows its traceback instead."""

    def main(self, *args, **kwargs):
        return deepstack.run(super().main, *args, **kwargs)

    def invoke(self, ctx: click.Context):
        try:
            result = super().invoke(ctx)
            sys.stdout.flush()  # (a reader that left unread meets a closed pipe here, not in click)
            return result
        except InterpError as err:
            click.echo(err.render(), err=True)
            sys.exit(err.exit_code)
        except (click.exceptions.ClickException, click.exceptions.Exit, click.exceptions.Abort,
                KeyboardInterrupt):
            raise  # click's own usage errors (2) and ^C keep click's handling
        except BrokenPipeError:  # the reader of the output left (`interp ... | head`): done
            try:  # (what is still buffered for the closed pipe goes nowhere at exit)
                os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
            except (OSError, ValueError):  # an output with no file descriptor
                pass
            sys.exit(0)
        except Exception as err:  # anything else is a bug in interp, never the user's fault
            if ctx.meta.get(DEBUG_META) or os.environ.get("INTERP_DEBUG") == "1":
                raise
            first = (str(err).splitlines() or [""])[0][:200]
            click.echo(f"internal error (a bug in interp): {type(err).__name__}: {first}; "
                       "rerun with --debug (or INTERP_DEBUG=1) for the traceback", err=True)
            sys.exit(INTERNAL_ERROR)


DEBUG_META = "interp.debug"
INTERNAL_ERROR = 3


@click.group(cls=_Group, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="interp")
@click.option("--debug", is_flag=True, expose_value=False, is_eager=True,
              callback=lambda ctx, param, value: ctx.meta.__setitem__(DEBUG_META, value),
              help="Show the Python traceback of an internal error (exit 3).")
def main() -> None:
    """Predict the performance of message-passing Fortran 77 programs without running them."""


def run() -> None:
    """The ``interp`` process (the console script, ``python -m interp``): :data:`main` with
    the collector set up for a process whose objects live until it ends (collector.py)."""
    collector.for_process()
    main(prog_name="interp")


def _remember(key: str):
    def store(ctx: click.Context, param: click.Parameter, value):
        ctx.meta[key] = value
        return value
    return store


def SOURCES(f):
    """FILES, with ``-I DIR`` (folders searched for INCLUDE files after the including file's
    own) and ``--input-file NAME=PATH`` (the file the program's OPEN of NAME reads); both are
    kept in the click context and reach :func:`interp.api.Program.load` through
    :func:`_program`."""
    f = click.option("--input-file", "input_files", multiple=True, metavar="NAME=PATH",
                     expose_value=False, callback=_remember("interp.input_files"),
                     help="Use PATH for the file the program OPENs as NAME (repeatable).")(f)
    f = click.option("-I", "include_dirs", multiple=True, metavar="DIR", expose_value=False,
                     type=click.Path(file_okay=False), callback=_remember("interp.include_dirs"),
                     help="Search DIR for INCLUDE files (repeatable).")(f)
    return click.argument("files", nargs=-1, required=True, type=click.Path(dir_okay=False))(f)


def _program(files, granularity: str = "largest"):
    """:class:`interp.api.Program` of FILES with the command's -I and --input-file options."""
    from interp import api

    meta = click.get_current_context().meta
    return api.Program.load(files, granularity, meta.get("interp.include_dirs", ()),
                            input_files=_parse_input_files(meta.get("interp.input_files", ())))


def _parse_input_files(pairs) -> dict[str, str]:
    out = {}
    for pair in pairs:
        name, sep, path = pair.partition("=")
        if not sep or not name.strip() or not path.strip():
            raise InterpError(f"--input-file {pair!r}: expected NAME=PATH",
                              hint="e.g. --input-file inputbt.data=runs/bt.S.data")
        out[name.strip()] = path.strip()
    return out


def _load_machine(ctx: click.Context, param: click.Parameter, value: str):
    from interp import api

    return api.Machine.load(value).sag


def machine_option(f):
    """``--machine NAME|FILE`` (default ``ipsc860``); the command receives ``machine: SAG``.
    A bad spec raises SpecError, which the ``interp`` group prints as one message (exit 2)."""
    return click.option("--machine", "machine", default=DEFAULT_MACHINE, show_default=True,
                        metavar="NAME|FILE", callback=_load_machine,
                        help="Machine spec: a name from machine_specs/ or a YAML file.")(f)


@main.command()
@SOURCES
@click.option("--format", "fmt", type=click.Choice(["tree", "json", "dot"]), default="tree",
              show_default=True, help="How to print the AAG.")
@click.option("--granularity", type=click.Choice(["largest", "statement"]), default="largest",
              show_default=True, help="Cluster statements into the largest Seq AAUs, or one per statement.")
@click.option("--saag", is_flag=True, help="Show the SAAG: per-process chains and their "
              "communication edges (needs -P).")
@click.option("-P", "--nprocs", type=click.IntRange(min=1), default=1, show_default=True,
              help="Number of nodes, for --saag.")
@click.option("--set", "sets", multiple=True, metavar="NAME=VALUE", help="Input values, for --saag.")
@click.option("--machine", "machine_name", default=DEFAULT_MACHINE, show_default=True,
              metavar="NAME|FILE", help="Machine spec, for --saag.")
def graph(files: tuple[str, ...], fmt: str, granularity: str, saag: bool, nprocs: int,
          sets: tuple[str, ...], machine_name: str) -> None:
    """Print the Application Abstraction Graph (AAG) of FILES, or with --saag its SAAG."""
    from interp import api
    from interp.output import graph_view

    aag = _program(files, granularity).aag
    if saag:
        from interp.output import saag_view

        built = api.saag(aag, machine_name, nprocs, _parse_sets(sets))
        render = {"json": saag_view.render_json, "dot": saag_view.render_dot}.get(
            fmt, saag_view.render_text)
        click.echo(render(built))
        return
    if fmt == "json":
        click.echo(graph_view.render_json(aag))
    elif fmt == "dot":
        click.echo(graph_view.render_dot(aag))
    else:
        from interp.output.console import make_console

        make_console().print(graph_view.render_tree(aag))


# --- machine: the Systems module (SAGs of machine_specs/*.yaml) -------------------------------
# Imports are inside the commands so that `interp --help` does not load SymPy and Lark.


def _parse_sets(values: tuple[str, ...], counts: bool = True) -> dict:
    """``--set NAME=VALUE``: a program input and a plain number (never evaluated as code).
    ``counts``: with the measured values of --counts under them."""
    import math
    import re

    import sympy as sp

    out = dict(_counts()) if counts else {}  # measured data-dependent values; --set wins
    for item in values:
        m = re.fullmatch(r"\s*([A-Za-z][A-Za-z0-9_$]*(?:\.[A-Za-z][A-Za-z0-9_$]*)?"
                         r"(?:\(\s*[+-]?\d+(?:\s*,\s*[+-]?\d+)*\s*\))?)\s*=\s*"
                         r"([+-]?(?:\d+\.?\d*|\.\d+)(?:[eEdD][+-]?\d+)?)\s*", item)
        if not m:
            raise click.UsageError(f"--set {item!r}: expected NAME=NUMBER, e.g. --set N=1000000, "
                                   "or an array element or whole array: --set 'A(1)=0', --set A=0")
        name = re.sub(r"\s+", "", m.group(1).upper())
        text = m.group(2).replace("d", "e").replace("D", "e")
        value = float(text)
        if not math.isfinite(value) or (value == 0 and re.search(r"[1-9]", text.split("e")[0])):
            raise click.UsageError(f"--set {item!r}: {m.group(2)} is outside the range of a "
                                   "double-precision number (about 1e-308 to 1e308)")
        out[name] = sp.Integer(int(value)) if value.is_integer() and abs(value) < 2**63 else sp.Float(value)
    return out


def _parse_pairs(option: str, values: tuple[str, ...], kind) -> dict:
    """``--routine NAME=SECONDS`` / ``--iterations WHERE=COUNT``: a key and a plain number."""
    out = {}
    for item in values:
        key, sep, text = item.rpartition("=")
        try:
            if not sep or not key.strip():
                raise ValueError
            value = kind(text)
            if value < 0:
                raise ValueError
        except ValueError:
            example = "SOLVE=1.5e-3" if kind is float else "node.f:42=100"
            raise click.UsageError(f"{option} {item!r}: expected KEY=VALUE with a non-negative "
                                   f"{'number' if kind is float else 'whole number'}, e.g. "
                                   f"{option} {example}") from None
        out[key.strip()] = value
    return out


def _prediction(files, nprocs, machine, sets, bound, routines=(), iterations=(), trace=False,
                exact=False, interval=False):
    """:func:`interp.api.predict` with the command's options and --what-if statements; a missing
    critical input is asked for on a terminal. ``trace``: record every AAU execution and message
    (for --trace and reports); ``interval``: the range is printed too (worked out meanwhile)."""
    from interp import api

    args = _analysis_args(files, nprocs, machine, sets, bound, routines, iterations)
    return api.predict(what_if=_what_ifs(), ask=_ask if sys.stdin.isatty() else None,
                       trace=trace, exact=exact, interval=interval, **args)


SYMBOLIC_OPTION = click.option(
    "--symbolic", type=click.Choice(["P"]), default=None,
    help="Also keep P a symbol: the formula in P, recovered from interpretations at P = 1, 2, "
         "4, ..., --p-max and verified at the three largest (several interpretations).")
P_MAX_OPTION = click.option("--p-max", type=click.IntRange(min=16), default=None,
                            help="Largest P interpreted for --symbolic P (default 64).")


def _formula_in_p(files, machine, sets, bound, routines, iterations, p_max):
    from interp import api

    args = _analysis_args(files, 1, machine, sets, bound, routines, iterations)
    del args["nprocs"]
    return api.formula_in_p(what_if=_what_ifs(), p_max=p_max, **args)


def _ask(need) -> dict:
    click.echo(need.message, err=True)
    return _parse_sets(tuple(f"{name}={click.prompt(f'value of {name}')}" for name in need.names))


PREDICT_OPTIONS = [
    click.option("-P", "--nprocs", type=click.IntRange(min=1), default=1, show_default=True,
                 help="Number of nodes (processes) the node program runs on."),
    click.option("--set", "sets", multiple=True, metavar="NAME=VALUE",
                 help="Value of an external input (repeatable); UNIT.NAME when units share a name."),
    click.option("--bound", type=click.Choice(["min", "mid", "max"]), default="mid",
                 show_default=True, help="Which end of the spec's [min, max] ranges to use."),
    click.option("--routine", "routines", multiple=True, metavar="NAME=SECONDS",
                 help="Your own time for a (non-communicating) subroutine, used instead of "
                      "interpreting its body."),
    click.option("--iterations", "iterations", multiple=True, metavar="WHERE=COUNT",
                 help="Iteration count for a loop interp would unroll (DO WHILE, GO TO loops); "
                      "WHERE is UNIT:LINE or FILE:LINE of the loop."),
    click.option("--max-steps", type=click.IntRange(min=1), default=DEFAULT_MAX_STEPS,
                 show_default=True, expose_value=False, callback=lambda _c, _p, v: MAX_STEPS.set(v),
                 help="Step budget: AAU executions one process may interpret step by step; a "
                      "loop still running past it stops with its location."),
]


WHAT_IF_META = "interp.what_ifs"
COUNTS_META = "interp.counts"


def _store_counts(ctx: click.Context, param: click.Parameter, value: str | None):
    """``--counts FILE``: read now (a bad file is an error before any work) and kept in the
    context, where :func:`_parse_sets` adds its values under every --set."""
    if value:
        import sympy as sp

        from interp.analysis.profile import read_counts

        ctx.meta[COUNTS_META] = {k.upper(): sp.Float(v) for k, v in read_counts(value).items()}
    return value


def _counts() -> dict:
    ctx = click.get_current_context(silent=True)
    return ctx.meta.get(COUNTS_META, {}) if ctx is not None else {}


COUNTS_OPTION = click.option(
    "--counts", "counts", metavar="FILE", expose_value=False, callback=_store_counts,
    is_eager=True,
    help="Measured branch probabilities (the file `interp profile -o FILE` writes): they "
         "set the data-dependent symbols; --set overrides them.")


def _store_what_ifs(ctx: click.Context, param: click.Parameter, value: tuple[str, ...]):
    """``--what-if``: parsed now (a bad statement is an error before any work) and kept in the
    context, where :func:`_prediction` applies it; commands need no parameter for it."""
    if value:
        from interp.engine.whatif import Scenario

        Scenario.from_texts(value)
    ctx.meta[WHAT_IF_META] = tuple(value)
    return value


WHAT_IF_OPTION = click.option(
    "--what-if", "what_ifs", multiple=True, metavar="STMT", expose_value=False,
    callback=_store_what_ifs,
    help="A what-if scenario (repeatable, applied in order): a machine parameter "
         "('node.cs.dynamic.per_byte *= 0.5', 'node.cs.*.per_hop /= 2', 'clock = 80MHz', "
         "'node.p.ops.real_div = 20 clk'), 'P = 32', an input ('N *= 10') or a run-time "
         "parameter ('load = 0.3'). Operators = *= /= += -=.")


def predict_options(f):
    for option in reversed(PREDICT_OPTIONS):
        f = option(f)
    if not any("--what-if" in getattr(p, "opts", ()) for p in getattr(f, "__click_params__", ())):
        f = WHAT_IF_OPTION(f)  # (a command with its own --what-if, e.g. report, keeps it)
    return machine_option(COUNTS_OPTION(f))


def _emit(result, fmt: str, render_json, print_text, plot_path: str | None = None,
          plot=None) -> None:
    """Write the plot when asked (``plot(result, path)``), then print the result as JSON or
    as text."""
    if plot_path:
        plot(result, plot_path)
        click.echo(f"wrote {plot_path}", err=True)
    if fmt == "json":
        click.echo(render_json(result))
    else:
        print_text(result)


def _what_ifs() -> tuple[str, ...]:
    ctx = click.get_current_context(silent=True)
    return ctx.meta.get(WHAT_IF_META, ()) if ctx is not None else ()


@main.command()
@SOURCES
@predict_options
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text",
              show_default=True)
@click.option("--top", type=click.IntRange(min=0), default=8, show_default=True,
              help="How many of the costliest AAUs to list.")
@click.option("--at", "at", multiple=True, metavar="WHERE",
              help="Statistics of a part (repeatable): FILE:FIRST-LAST (a line range), a "
                   "SUBROUTINE or PROGRAM name, aau:ID (one AAU), or aag (the whole program).")
@click.option("--annotate", "show_source", is_flag=True,
              help="Also print the annotated source: predicted time per line.")
@click.option("--trace", "trace_path", metavar="FILE.json",
              help="Write a Chrome trace (Perfetto, chrome://tracing) of the interpretation.")
@SYMBOLIC_OPTION
@P_MAX_OPTION
@click.option("--calibration", "calibration", metavar="MODEL.json",
              help="Predict with the fitted segment times of `interp semiemp fit` instead of "
                   "the spec's op costs, algorithm G playing the thread graph (the same as "
                   "`interp semiemp predict`; docs/accuracy.md).")
@click.option("--exact", is_flag=True,
              help="Interpret on the slow reference path the fast one is checked against "
                   "(docs/scale.md); the same prediction, more time at large P.")
def predict(files, nprocs, machine, sets, bound, routines, iterations, fmt, top, at,
            show_source, trace_path, symbolic, p_max, calibration, exact) -> None:
    """Predict the run time of FILES: the time, where it goes, and its formula (with
    --symbolic P, --format json adds the formula in P under "formula_in_P")."""
    from interp.output import prediction_view, views

    if calibration:
        return _calibrated(files, calibration, nprocs, sets, fmt)
    if trace_path:
        views.check_writable(trace_path, "trace")
    pred = _prediction(files, nprocs, machine, sets, bound, routines, iterations,
                       trace=bool(trace_path), exact=exact, interval=True)
    if pred.seconds is None:  # a formula but no number: the user must give the inputs
        from interp.engine.predict import set_hint

        missing = sorted(s.name for s in pred.evaluate(pred.total).free_symbols)
        raise InterpError("the predicted time depends on inputs that were not given: "
                          + ", ".join(missing),
                          hint=set_hint(missing) + " (`interp formula` prints the formula "
                                                   "without them)")
    out = views.sections(pred, at, show_source, fmt, trace_path)  # every error before output
    extra = dict(out.json)
    if symbolic:
        fp = _formula_in_p(files, machine, sets, bound, routines, iterations, p_max)
        extra["formula_in_P"] = fp.to_json()
    if fmt == "json":
        click.echo(prediction_view.render_json(pred, extra))
    else:
        prediction_view.print_text(pred, top, out.text)
        if symbolic:
            from interp.output.formula_p_view import print_text as print_formula_p

            print_formula_p(fp, None)
    out.write()


@main.command()
@SOURCES
@predict_options
@click.option("--latex", "style", flag_value="latex", help="Print the formula as LaTeX.")
@click.option("--python", "style", flag_value="python",
              help="Print it as plain Python/SymPy text (parse_expr reads it back).")
@click.option("--srepr", "style", flag_value="srepr",
              help="Print it as SymPy's srepr (every node and assumption spelled out).")
@SYMBOLIC_OPTION
@P_MAX_OPTION
def formula(files, nprocs, machine, sets, bound, routines, iterations, style, symbolic,
            p_max) -> None:
    """Print the predicted run time of FILES as a closed-form formula (in P too with
    --symbolic P: its domain and the P values it was verified at follow it)."""
    import sympy as sp

    from interp.output.prediction_view import formula_python, formula_srepr, formula_text

    if symbolic:
        from interp.output.formula_p_view import print_text

        fp = _formula_in_p(files, machine, sets, bound, routines, iterations, p_max)
        print_text(fp, style)
        return
    pred = _prediction(files, nprocs, machine, sets, bound, routines, iterations)
    if style == "latex":
        click.echo(sp.latex(sp.N(pred.total, 6)))
    elif style == "python":
        click.echo(formula_python(pred.total))
    elif style == "srepr":
        click.echo(formula_srepr(pred.total))
    else:
        click.echo(formula_text(pred.total))


@main.command()
@SOURCES
@predict_options
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text",
              show_default=True)
def check(files, nprocs, machine, sets, bound, routines, iterations, fmt) -> None:
    """Check FILES on P nodes for unmatched or mismatched calls, deadlocks and global
    operations some node never reaches. Exit 0 when clean, 1 when problems were found."""
    from interp import api
    from interp.output import saag_view

    del bound, routines, iterations  # timing plays no part in matching
    program = _program(files)
    built = api.saag(program, machine, nprocs, _parse_sets(sets), _what_ifs())
    click.echo(saag_view.render_json(built) if fmt == "json" else saag_view.problems_text(built))
    sys.exit(1 if built.problems else 0)


# --- annotate / report: the Output module's listings and documents ---------------------------


@main.command()
@SOURCES
@predict_options
@click.option("--process", "process", metavar="WHICH",
              help="Only one process: host, a node/rank number, or a label such as 'node 3' "
                   "(default: lines summed over all processes).")
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text",
              show_default=True)
def annotate(files, nprocs, machine, sets, bound, routines, iterations, process, fmt) -> None:
    """Print FILES with the predicted time of every source line, like a profiler listing."""
    from interp.output import annotate as annotate_mod
    from interp.output import jsontext
    from interp.output.prediction_view import make_console

    pred = _prediction(files, nprocs, machine, sets, bound, routines, iterations)
    ann = annotate_mod.annotate(pred, process)
    if fmt == "json":
        click.echo(jsontext.dumps(annotate_mod.to_json(ann), indent=2))
    else:
        make_console().print(annotate_mod.render_text(ann))


@main.command()
@SOURCES
@predict_options
@click.option("-o", "--output", "output", required=True, metavar="FILE.html|FILE.md",
              help="The report: .html (one self-contained file) or .md (images beside it).")
@click.option("--trace", "trace_path", metavar="FILE.json",
              help="Also write a Chrome trace (Perfetto, chrome://tracing).")
@click.option("--at", "at", multiple=True, metavar="WHERE",
              help="Add the statistics of a part (as predict --at; repeatable).")
@click.option("--what-if", "what_if", multiple=True, metavar="STATEMENT",
              help="Add a comparison with a what-if scenario, e.g. --what-if 'P = 8' or "
                   "--what-if 'node.cs.dynamic.per_byte *= 0.5' (repeatable: applied in order).")
@click.option("--budget", type=click.FloatRange(min=0), default=20.0, show_default=True,
              help="Seconds the scaling plots may spend re-predicting (other P, exact points).")
def report(files, nprocs, machine, sets, bound, routines, iterations, output, trace_path, at,
           what_if, budget) -> None:
    """Write a report on FILES: inputs, formula, breakdown, scaling plots, the SAAG, the
    annotated source and the notes, as one HTML file (or Markdown)."""
    from interp import api
    from interp.output import report as report_mod
    from interp.output.files import check_writable

    report_mod.check_output(output)
    if trace_path:
        check_writable(trace_path, "trace")
    if what_if:
        from interp.engine.whatif import Scenario

        Scenario.from_texts(what_if)  # a bad statement is an error before any work
    pred = _prediction(files, nprocs, machine, sets, bound, routines, iterations, trace=True)
    trace_text = None
    if trace_path:
        from interp.output.trace import trace_json

        trace_text = trace_json(pred)
    written = api.report(pred, output, at=at, what_if=what_if, budget=budget)
    if trace_text is not None:
        from interp.output.files import write_text

        write_text(trace_path, trace_text, "trace")
        written.append(trace_path)
    click.echo(f"wrote {', '.join(written)}", err=True)


@main.group()
def machine() -> None:
    """List, show and validate machine specs (SAGs)."""


@machine.command("list")
def machine_list() -> None:
    """List the machine specs in machine_specs/."""
    from interp.system import render

    render.show_list()


@machine.command("show")
@click.argument("spec", metavar="NAME|FILE")
@click.option("--format", "fmt", type=click.Choice(["tree", "json"]), default="tree", show_default=True)
def machine_show(spec: str, fmt: str) -> None:
    """Show a machine's SAG: every value, its unit and range, and which are assumptions."""
    from interp import api
    from interp.system import render

    render.show(api.Machine.load(spec).sag, fmt)


@machine.command("validate")
@click.argument("file", metavar="FILE")
def machine_validate(file: str) -> None:
    """Check a machine spec: prints "ok" or the first error with its file:line:column."""
    from interp.system import render

    render.validate(file)


# --- what-if analyses: compare, sweep, sensitivity (through interp.api) ----------------------


def _analysis_args(files, nprocs, machine, sets, bound, routines, iterations) -> dict:
    """The arguments every interp.api analysis takes, from the shared predict options."""
    return dict(program=_program(files), machine=machine, nprocs=nprocs,
                inputs=_parse_sets(sets), bound=bound,
                routines=_parse_pairs("--routine", routines, float),
                iterations=_parse_pairs("--iterations", iterations, int))


@main.command()
@SOURCES
@predict_options
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text",
              show_default=True)
def compare(files, nprocs, machine, sets, bound, routines, iterations, fmt) -> None:
    """Compare the prediction of FILES without and with the --what-if scenario: the total and
    each process's computation, call overhead, transmission, waiting and idle (summed), with
    the difference in seconds and in %."""
    from interp import api
    from interp.output import compare_view

    what_ifs = _what_ifs()
    if not what_ifs:
        raise click.UsageError("compare needs a scenario: give at least one --what-if STMT, "
                               "e.g. --what-if 'node.cs.dynamic.per_byte *= 0.5'")
    args = _analysis_args(files, nprocs, machine, sets, bound, routines, iterations)
    result = api.compare(what_if=what_ifs, **args)
    if fmt == "json":
        click.echo(compare_view.render_json(result))
    else:
        compare_view.print_text(result)


@main.command()
@SOURCES
@predict_options
@click.option("--vary", "vary", multiple=True, required=True, metavar="NAME=RANGE",
              help="An input or P and its values (repeatable; the sweep is their product): "
                   "a..b:log:n, a..b:lin:n or a list v1,v2,... e.g. N=1e3..1e7:log:20, P=1,2,4,8,16.")
@click.option("-o", "--output", "output", metavar="FILE.csv",
              help="Write the table as CSV: inputs..., P, seconds, speedup, efficiency.")
@click.option("--plot", "plot_path", metavar="FILE.png",
              help="Plot time against the first varied name, one line per P (.png, .pdf, .svg).")
@click.option("--band", is_flag=True,
              help="Also predict with the spec's min and max values: the plot draws the band, "
                   "the CSV gains seconds_min and seconds_max.")
@click.option("--format", "fmt", type=click.Choice(["table", "csv", "json"]), default="table",
              show_default=True, help="What to print on standard output.")
@click.option("--symbolic", type=click.Choice(["P"]), default=None,
              help="Derive the formula in P once and take the times at the P values its "
                   "verified domain covers from it (the others are interpreted).")
@P_MAX_OPTION
def sweep(files, nprocs, machine, sets, bound, routines, iterations, vary, output, plot_path,
          band, fmt, symbolic, p_max) -> None:
    """Predict FILES over ranges of inputs and node counts: a table of times with the speedup
    and efficiency against the smallest P (for equal other inputs)."""
    from interp import api
    from interp.output import sweep_view
    from interp.output.files import check_writable

    axes = [api.parse_vary(v) for v in vary]  # every mistake before any work
    if output:
        check_writable(output, "table")
    if plot_path:
        sweep_view.check_plot_path(plot_path)
    args = _analysis_args(files, nprocs, machine, sets, bound, routines, iterations)
    p_values = next((len(a.values) for a in axes if a.name == "P"), 1)
    with _progress(p_values * (3 if band else 1) > 3) as progress:
        result = api.sweep(vary=axes, what_if=_what_ifs(), band=band, progress=progress,
                           symbolic_p=symbolic == "P", p_max=p_max, **args)
    if output:
        sweep_view.write_csv(result, output)
        click.echo(f"wrote {output}", err=True)
    if plot_path:
        sweep_view.plot(result, plot_path, band)
        click.echo(f"wrote {plot_path}", err=True)
    if fmt == "csv":
        click.echo(sweep_view.csv_text(result), nl=False)
    elif fmt == "json":
        click.echo(sweep_view.render_json(result))
    else:
        sweep_view.print_text(result)


@main.command()
@SOURCES
@predict_options
@click.option("--vary", "vary", required=True, metavar="P=RANGE",
              help="The P values: e.g. P=4..65536:log2 (the powers of two), P=1,2,4,8.")
@click.option("--p-max", type=click.IntRange(min=16), default=None,
              help="Largest P interpreted to derive the formula in P (default 64).")
@click.option("--verify-to", type=click.IntRange(min=16), default=None,
              help="Grow the formula's verified domain by interpreting at 2·p-max, 4·p-max, ... "
                   "up to this P (default 4·p-max).")
@click.option("--extrapolate", is_flag=True,
              help="At powers of two beyond the verified domain, evaluate the formula "
                   "(marked extrapolated) instead of interpreting.")
@click.option("--isoefficiency", type=click.FloatRange(0, 1, min_open=True), default=None,
              metavar="E", help="Also the work W(P) at which the efficiency is E (with --work).")
@click.option("--work", metavar="INPUT", help="The input that is the work, e.g. N.")
@click.option("--plot", "plot_path", metavar="FILE.png",
              help="Plot time and efficiency against P (.png, .pdf, .svg).")
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text",
              show_default=True)
def scaling(files, nprocs, machine, sets, bound, routines, iterations, vary, p_max, verify_to,
            extrapolate, isoefficiency, work, plot_path, fmt) -> None:
    """Speedup, efficiency and the P of best time of FILES over a range of P, from the
    formula in P where it is verified (each row says where its time comes from)."""
    from interp import api
    from interp.output import scaling_view

    axis = api.parse_vary(vary)  # every mistake before any work
    if click.get_current_context().get_parameter_source("nprocs").name == "COMMANDLINE":
        raise click.UsageError("scaling takes its P values from --vary (e.g. --vary P=1,2,4,8), "
                               "not from -P")
    if plot_path:
        scaling_view.check_plot_path(plot_path)
    args = _analysis_args(files, nprocs, machine, sets, bound, routines, iterations)
    del args["nprocs"]
    result = api.scaling(vary=axis, what_if=_what_ifs(), p_max=p_max, verify_to=verify_to,
                         extrapolate=extrapolate, isoefficiency=isoefficiency, work=work, **args)
    _emit(result, fmt, scaling_view.render_json, scaling_view.print_text, plot_path,
          scaling_view.plot)


# -P comes with predict_options; scaling refuses it (its P values are --vary's), so its help
# does not offer it.
next(p for p in scaling.params if p.name == "nprocs").hidden = True


class _progress:
    """A rich progress bar on standard error (when it is a terminal), as a callback
    ``(done, total, label)``; None when not ``wanted``."""

    def __init__(self, wanted: bool):
        self.wanted = wanted
        self.bar = None

    def __enter__(self):
        if not self.wanted:
            return None
        from rich.console import Console
        from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

        console = Console(stderr=True)
        if not console.is_terminal:
            return None
        self.bar = Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(),
                            TimeElapsedColumn(), console=console, transient=True)
        self.bar.start()
        task = None

        def update(done: int, total: int, label: str) -> None:
            nonlocal task
            if task is None:
                task = self.bar.add_task("interpreting", total=total)
            self.bar.update(task, completed=done, description=f"interpreting {label}")

        return update

    def __exit__(self, *exc):
        if self.bar is not None:
            self.bar.stop()
        return False


@main.command()
@SOURCES
@predict_options
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text",
              show_default=True)
@click.option("--top", type=click.IntRange(min=0), default=0, show_default=True,
              help="List only the N most sensitive (0: all).")
@click.option("--step", type=click.FloatRange(0, 0.5, min_open=True, max_open=True),
              default=0.01, show_default=True,
              help="Relative change for the finite differences.")
def sensitivity(files, nprocs, machine, sets, bound, routines, iterations, fmt, top, step) -> None:
    """Which machine parameters and inputs the predicted time of FILES is most sensitive to:
    the elasticity d ln T / d ln p of every machine parameter the prediction uses and every
    input, ranked, with what a 1% change does."""
    from interp import api
    from interp.output import sensitivity_view

    args = _analysis_args(files, nprocs, machine, sets, bound, routines, iterations)
    result = api.sensitivity(what_if=_what_ifs(), step=step, **args)
    if fmt == "json":
        click.echo(sensitivity_view.render_json(result))
    else:
        sensitivity_view.print_text(result, top or None)


# --- lost cycles (Crovella and LeBlanc, issue #13) -------------------------------------------


@main.command("lost-cycles")
@SOURCES
@predict_options
@click.option("--by", type=click.Choice(["program", "proc", "procedure", "aau"]),
              default="program", show_default=True,
              help="Break the categories down by process, procedure or AAU (file:line).")
@click.option("--format", "fmt", type=click.Choice(["text", "json", "csv"]), default="text",
              show_default=True, help="text: the paper's Figure 1; json (JSON lines) or csv: "
                                      "the data file's rows.")
@click.option("-o", "--output", "output", metavar="DATAFILE",
              help="Append the rows to DATAFILE (as `pp -l >> datafile`), in --format json or "
                   "csv (with text: csv, or JSON lines for a .json/.jsonl file).")
@click.option("--from", "source", type=click.Choice(["predicted", "smpi"]), default="predicted",
              show_default=True, help="predicted: interp's prediction; smpi: a run of the MPI "
                                      "program under SimGrid's SMPI, from its trace "
                                      "(communication only, as `interp validate`; the --set "
                                      "values of the variables it READs are its standard "
                                      "input).")
@click.option("--communication-only", is_flag=True,
              help="Predict with computation switched off and SMPI's semantics, as `interp "
                   "validate` does: like with like beside --from smpi.")
@click.option("--timeout", type=click.FloatRange(min=1), default=600.0, show_default=True,
              help="Seconds the smpirun of --from smpi may take.")
def lost_cycles(files, nprocs, machine, sets, bound, routines, iterations, by, fmt, output,
                source, communication_only, timeout) -> None:
    """Lost cycles analysis of FILES on P processes (Crovella and LeBlanc's pp): where the
    p·T_p processor-seconds go -- Load Imbalance, Insufficient Parallelism, Synchronization
    Loss, Communication Loss, Resource Contention and the Remaining pure computation
    (docs/lost-cycles.md)."""
    from interp import api
    from interp.output import lostcycles_view as view
    from interp.output.prediction_view import make_console

    if output:
        from interp.output.files import check_writable

        check_writable(output, "data file")
    if source == "smpi":
        if routines or iterations:
            raise click.UsageError("--from smpi runs the program as it is: it takes no "
                                   "--routine or --iterations")
        meta = click.get_current_context().meta
        if meta.get("interp.include_dirs") or meta.get("interp.input_files"):
            raise InterpError("--from smpi does not take -I or --input-file",
                              hint="SMPI compiles and runs the program itself: put the INCLUDE "
                                   "and input files beside the source")
        lc = api.lost_cycles_smpi(files, machine, nprocs, _what_ifs(), timeout=timeout,
                                  inputs=_parse_sets(sets, counts=False))
    else:
        args = _analysis_args(files, nprocs, machine, sets, bound, routines, iterations)
        lc = api.lost_cycles(what_if=_what_ifs(), ask=_ask if sys.stdin.isatty() else None,
                             communication_only=communication_only, **args)
        counted_only = set(_counts()) - set(_parse_sets(sets, counts=False))
        lc.vars = {k: v for k, v in lc.vars.items() if k not in counted_only}
    records = view.rows(lc, by)
    if fmt == "text":
        make_console().print(view.render_text(lc, by))
    elif not output:
        click.echo(view.text_rows(records, fmt), nl=False)
    if output:
        view.append(output, records, view.file_format(output, fmt))
        if fmt == "text":
            click.echo(f"appended {len(records)} rows to {output}", err=True)


# --- SimGrid/SMPI: export a platform, validate against SMPI (issue #8) -----------------------


@main.group()
def export() -> None:
    """Export a machine spec for other tools."""


@export.command("simgrid")
@machine_option
@click.option("-P", "--nprocs", type=click.IntRange(min=1), required=True,
              help="Number of MPI ranks (one host per node the ranks' routes visit).")
@click.option("-o", "--output", type=click.Path(dir_okay=False), required=True,
              help="The platform XML; X.hosts (hostfile) and X.smpirun (options) go beside it.")
@click.option("--model", type=click.Choice(["mpi", "paper"]), default="mpi", show_default=True,
              help="mpi: eager MPI_Send, bytes on the links; paper: the sender also pays the "
                   "bytes (Figure 11), links add only per-hop latency.")
@click.option("--bound", type=click.Choice(["min", "mid", "max"]), default="mid",
              show_default=True, help="Which end of the spec's [min, max] ranges to use.")
def export_simgrid_cmd(machine, nprocs, output, model, bound) -> None:
    """A SimGrid platform (XML 4.1, Full routing) and the smpirun options for the machine."""
    from interp.output.files import check_writable
    from interp.system.simgrid import export_simgrid

    check_writable(output, "SimGrid platform")  # before any work; X.hosts and X.smpirun go beside it
    exported = export_simgrid(machine, nprocs, bound, model)
    files = exported.write(output)
    click.echo(f"wrote {files['platform']}, {files['hostfile']}, {files['options']}")
    click.echo(exported.command(str(files["platform"]), str(files["hostfile"])))
    for note in exported.notes:
        click.echo(f"note: {note}")


def _int_list(ctx, param, value: str) -> list[int]:
    try:
        out = [int(x) for x in value.split(",") if x.strip()]
    except ValueError:
        raise click.BadParameter(f"{value!r}: expected numbers separated by commas, e.g. 2,4,8")
    if not out or min(out) < 1:
        raise click.BadParameter(f"{value!r}: expected positive numbers, e.g. 2,4,8")
    return out


@main.command()
@SOURCES
@machine_option
@click.option("-P", "--nprocs", "nprocs_list", default="2,4,8,16", show_default=True,
              callback=_int_list, help="Numbers of ranks, comma separated.")
@click.option("--model", type=click.Choice(["mpi", "paper"]), default="mpi", show_default=True,
              help="How the exported platform prices a send (see `interp export simgrid`).")
@click.option("--breakdown/--no-breakdown", default=True, show_default=True,
              help="Per rank, SMPI's and interp's end times for the worst row.")
@click.option("--one-program", is_flag=True,
              help="FILES are the files of one program, compiled and linked together (e.g. a "
                   "benchmark with its common/ files); without it each file is a program.")
@click.option("--timeout", type=click.FloatRange(min=1), default=600.0, show_default=True,
              help="Seconds one smpirun may take.")
@click.option("--set", "sets", multiple=True, metavar="NAME=VALUE",
              help="A PARAMETER's value, for both sides: interp rebuilds the program with it, "
                   "SMPI compiles a copy of the sources with the PARAMETER statement rewritten "
                   "(repeatable). A data-dependent symbol goes to interp only; other variables "
                   "are refused (SMPI would not see them).")
def validate(files, machine, nprocs_list, model, breakdown, one_program, timeout, sets) -> None:
    """Run FILES (MPI Fortran 77) under SimGrid's SMPI on the platform exported from the
    machine spec and compare with interp's prediction, computation switched off on both
    sides, and SMPI's semantics where the spec chooses otherwise (links shared max-min,
    cs.spec.channel: fair; no overlap of a call's overhead). Needs smpiff and smpirun
    (apt-get install -y libsimgrid-dev)."""
    from interp.analysis import validate as V
    from interp.system.simgrid import simgrid_semantics

    meta = click.get_current_context().meta
    if meta.get("interp.include_dirs") or meta.get("interp.input_files"):
        raise InterpError("validate does not take -I or --input-file",
                          hint="SMPI compiles and runs the program itself: put the INCLUDE "
                               "and input files beside the source")
    programs = [V.Program.of(files)] if one_program else V.each_file(files)
    given = _parse_sets(sets, counts=False)
    rows = V.validate(programs, nprocs_list, machine, model=model, timeout=timeout, given=given)
    click.echo(V.table(rows))
    changes = simgrid_semantics(machine)[1]
    if changes:
        click.echo("\ninterp ran with SMPI's semantics where the spec chooses otherwise (`interp "
                   "predict` uses the spec's):\n" + "\n".join(f"  {c}" for c in changes))
    bad = V.worst(rows)
    if breakdown and bad is not None and abs(bad.error) > 1e-3:
        worst_program = next(p for p in programs if p.name == bad.program)
        click.echo(f"\nwhere they differ most: {bad.program}, P = {bad.nprocs} "
                   f"({bad.error * 100:+.2f}%)")
        click.echo(V.breakdown_table(V.breakdown(worst_program, bad, machine, model=model,
                                                 given=given)))


@main.command()
@SOURCES
@click.option("-P", "--nprocs", type=click.IntRange(min=1), default=1, show_default=True,
              help="Number of processes to run the program on (mpirun -np).")
@click.option("--set", "sets", multiple=True, metavar="NAME=VALUE",
              help="Input values for the prediction that finds the data-dependent symbols "
                   "(the program itself runs as it is).")
@click.option("-o", "--output", "output", required=True, metavar="FILE.json",
              help="The counts file to write (give it to predict with --counts FILE).")
@click.option("--timeout", type=click.FloatRange(min=1), default=600, show_default=True,
              help="Seconds the run may take.")
@machine_option
def profile(files, nprocs, sets, output, timeout, machine) -> None:
    """Measure the data-dependent symbols of FILES (branch probabilities): compile with
    gfortran --coverage (MPI programs with Open MPI's mpif77, run with mpirun), run once in
    a scratch folder, and read gcov's line and branch counts."""
    from interp import api
    from interp.analysis.profile import write_counts

    program = _program(files)
    measured = api.profile(program, nprocs, _parse_sets(sets), machine, timeout=timeout)
    write_counts(output, list(program.files), nprocs, measured)
    for name, m in measured.items():
        value = f"{m.value:.6g}" if m.value is not None else "not reached"
        click.echo(f"{name} = {value}  ({m.taken} of {m.executions} executions)  "
                   f"{m.file}:{m.line}")
    click.echo(f"wrote {output}: {len(measured)} data-dependent symbols")



# --- lost cycles analysis: fitting (issue #13; Crovella and LeBlanc's lca) -------------------


def _assignments(option: str, text: str) -> dict[str, float]:
    """``p=128,n=2048`` → ``{"p": 128.0, "n": 2048.0}`` (names lower-case, plain numbers)."""
    import math

    out = {}
    for item in filter(None, (s.strip() for s in text.split(","))):
        name, sep, value = item.partition("=")
        try:
            number = float(value)
        except ValueError:
            number = math.nan
        if not sep or not name.strip().isidentifier() or not math.isfinite(number):
            raise InterpError(f"{option} {text!r}: expected NAME=NUMBER[,NAME=NUMBER]",
                              hint=f"e.g. {option} p=128" + (",n=2048" if option == "--at" else ""))
        out[name.strip().lower()] = number
    return out


@main.command()
@click.argument("data", nargs=-1, required=True, type=click.Path(dir_okay=False))
@click.option("--var", "variables", multiple=True, required=True, metavar="NAME",
              help="The variable to fit against: p, or an input given with --set, lower-case "
                   "(e.g. n). Twice for a two-variable model from a factorial design.")
@click.option("--cat", "categories", multiple=True, metavar="CATEGORY",
              type=click.Choice(["li", "ip", "sl", "cl", "rc", "remaining", "tp", "total", "to"]),
              help="The category to fit (repeatable; default: li ip sl cl rc remaining).")
@click.option("--model", "models", multiple=True, metavar="EXPR",
              help="A model to fit instead of the defaults: a sum of terms, each with its own "
                   "coefficient, e.g. 'p*sqrt(p)', 'p + 1', 'n^2*log(n)', 'n/p' (repeatable).")
@click.option("--source", type=click.Choice(["predicted", "smpi", "measured"]),
              help="Use only the rows of this source.")
@click.option("--program", help="Use only the rows of this program.")
@click.option("--machine", "machine_name", metavar="NAME", help="Use only the rows of this machine.")
@click.option("--by", type=click.Choice(["program", "proc", "procedure", "aau"]),
              default="program", show_default=True, help="Which breakdown's rows to use.")
@click.option("--key", help="With --by proc|procedure|aau: only this process, procedure or AAU.")
@click.option("--fix", "fixes", multiple=True, metavar="NAME=VALUE",
              help="Use only the rows where a variable has this value (repeatable).")
@click.option("--at", "points", multiple=True, metavar="NAME=VALUE[,NAME=VALUE]",
              help="Predict each category and T_p = (T_o + T_c)/p at this point (repeatable).")
@click.option("--crossover", nargs=2, metavar="PROGRAM_A PROGRAM_B",
              help="Where the two programs' models are equal (T_p, or the --cat given).")
@click.option("--plot", "plot_path", metavar="FILE.png", help="Draw the data and the models.")
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text",
              show_default=True)
def lca(data, variables, categories, models, source, program, machine_name, by, key, fixes,
        points, crossover, plot_path, fmt) -> None:
    """Fit models to lost-cycles data files (written by interp lost-cycles): each category
    against --var with the paper's default models (or --model), least squares with R² and
    90% confidence intervals; a term whose interval contains zero is dropped and the model
    refitted. Two --var: the edges of a factorial design, combined additively and
    multiplicatively. --at predicts T_p; --crossover finds where one program overtakes another."""
    from interp import api
    from interp.output import lca_view
    from interp.output.files import check_writable, write_files

    if plot_path:
        check_writable(plot_path, "plot")
    fix = {}
    for f in fixes:
        fix.update(_assignments("--fix", f))
    result = api.lca(data, variables, categories, models, source=source, program=program,
                     machine=machine_name, by=by, key=key, fix=fix,
                     at=[_assignments("--at", p) for p in points], crossover=crossover or None)
    _emit(result, fmt, lca_view.render_json, lca_view.print_text, plot_path,
          lambda r, path: write_files({path: lca_view.plot(r)}, "plot"))


# --- real runs and seed 000's semi-empirical prediction (issue #14) --------------------------


def _run_values(sets: tuple[str, ...]) -> dict[str, str]:
    """``--set`` values as the text the run's PARAMETER or standard input gets."""
    return {k: str(v) for k, v in _parse_sets(sets, counts=False).items()}


@main.command("run")
@SOURCES
@click.option("-P", "--nprocs", type=click.IntRange(min=1), default=1, show_default=True,
              help="Number of MPI ranks (mpirun --oversubscribe -np P).")
@click.option("--set", "sets", multiple=True, metavar="NAME=VALUE",
              help="An input: a PARAMETER of the main file, or a value it READs from standard "
                   "input (repeatable).")
@click.option("-O", "opt", type=click.Choice(["0", "1", "2", "3"]), default="2",
              show_default=True, help="gfortran's optimisation level.")
@click.option("--runs", "runs_path", metavar="FILE.csv",
              help="Append the runs to this runs file (docs/accuracy.md lists its columns).")
@click.option("--repeat", type=click.IntRange(min=1), default=1, show_default=True,
              help="How many times to run it (one build).")
@click.option("--timeout", type=click.FloatRange(min=1), default=600, show_default=True,
              help="Seconds one run may take.")
def run_cmd(files, nprocs, sets, opt, runs_path, repeat, timeout) -> None:
    """Build FILES (an MPI program) with mpif77 and run it for real, with timers at its
    segments (a copy in a scratch folder; your files are not changed): wall time per rank
    and per segment."""
    from interp.analysis import realrun
    from interp.output import run_view

    if runs_path:
        from interp.output.files import check_writable

        check_writable(runs_path, "runs file")
    meta = click.get_current_context().meta
    plan, runs = realrun.run(_program(files).aag, nprocs, _run_values(sets), opt=opt,
                             repeat=repeat, timeout=timeout,
                             include_dirs=meta.get("interp.include_dirs", ()))
    run_view.print_text(runs, plan)
    if runs_path:
        realrun.append_runs(runs_path, runs)
        click.echo(f"appended {len(runs)} run(s) to {runs_path}", err=True)


@main.command("calibrate")
@click.option("-o", "--output", "output", default=None, metavar="FILE.yaml",
              help="The spec to write (default: machine_specs/NAME.yaml, `--machine NAME`).")
@click.option("--procs", "procs", default="1,2", show_default=True, callback=_int_list,
              help="Numbers of ranks to microbenchmark communication on (2 at least).")
@click.option("-O", "opt", type=click.Choice(["0", "1", "2", "3"]), default="2",
              show_default=True, help="gfortran's optimisation level for the microkernels.")
@click.option("--name", default="local", show_default=True, help="The machine's name.")
def calibrate_cmd(output, procs, opt, name) -> None:
    """Measure this machine (operation, memory and MPI microbenchmarks) and write a machine
    spec with each value's provenance and its [min, max] from the rounds' spread."""
    from interp.analysis import calibrate as C
    from interp.output.files import check_writable, write_text
    from interp.resources import MACHINE_SPECS
    from interp.system.loader import load_machine

    use = output or name
    output = output or str(MACHINE_SPECS / f"{name}.yaml")
    check_writable(output, "machine spec")
    measured = C.measure(procs, opt)
    write_text(output, C.to_yaml(C.spec(measured, name)), "machine spec")
    load_machine(output)  # what was written must validate
    click.echo(f"wrote {output} ({measured.seconds:.1f} s of measurement, load average "
               f"{measured.load:.2f}); use it with --machine {use}", err=True)


@main.group()
def semiemp() -> None:
    """Seed 000's semi-empirical prediction: fit segment times from real runs, predict."""


@semiemp.command("fit")
@SOURCES
@click.option("--runs", "runs_path", required=True, metavar="FILE.csv",
              help="The sample runs (`interp run --runs FILE`), at two sizes at least.")
@click.option("-o", "--output", "output", required=True, metavar="FILE.json",
              help="The model to write.")
@click.option("--spec", default="cluster", show_default=True, metavar="NAME|FILE",
              help="The spec whose op-count costs give each segment's count F.")
@click.option("--bench-procs", "bench_procs", default="1,2", show_default=True,
              callback=_int_list, help="Numbers of ranks to microbenchmark communication on.")
def semiemp_fit(files, runs_path, output, spec, bench_procs) -> None:
    """Fit each segment's time against its analytic count F (equations 2.3-2.7) from the
    sample runs, and microbenchmark communication against P."""
    from interp.analysis import realrun, semiemp as S
    from interp.output import jsontext, semiemp_view
    from interp.output.files import check_writable, write_text

    check_writable(output, "model")
    runs = realrun.read_runs(runs_path)
    aag = _program(files).aag
    comm = S.microbenchmark(bench_procs)
    model = S.fit(aag, runs, comm, spec, where=runs_path)
    write_text(output, jsontext.dumps(model.to_json(), indent=2) + "\n", "model")
    semiemp_view.print_group(semiemp_view.fit_text(model))
    click.echo(f"wrote {output}", err=True)


def _read_model(path: str):
    import json

    from interp.analysis import semiemp as S

    try:
        data = json.loads(open(path).read())
    except OSError as err:
        raise InterpError(f"--model {path}: cannot read it ({err.strerror})",
                          hint="give the file `interp semiemp fit -o FILE` wrote") from None
    except ValueError as err:
        raise InterpError(f"--model {path}: not JSON ({err})",
                          hint="give the file `interp semiemp fit -o FILE` wrote") from None
    return S.Model.from_json(data, path)


def _calibrated(files, model_path, nprocs, sets, fmt) -> None:
    """``predict --calibration``: seed 000's T_p, algorithm G played with the model's fitted
    segments (its own reference spec gives F; --machine, --bound and --what-if do not
    apply)."""
    from interp.analysis import semiemp as S
    from interp.output import semiemp_view

    model = _read_model(model_path)
    points = [S.predict(_program(files).aag, model, nprocs, _run_values(sets))]
    if fmt == "json":
        click.echo(semiemp_view.points_json(points, model))
    else:
        semiemp_view.print_group(semiemp_view.points_text(points, model))


@semiemp.command("predict")
@SOURCES
@click.option("--model", "model_path", required=True, metavar="FILE.json",
              help="The model `interp semiemp fit` wrote.")
@click.option("-P", "--nprocs", type=click.IntRange(min=1), default=1, show_default=True)
@click.option("--set", "sets", multiple=True, metavar="NAME=VALUE", help="Input values.")
@click.option("--actual", "actual", metavar="FILE.csv",
              help="Real runs to score against: every size in it at this P is predicted, "
                   "with E (4.9), Ē (4.10) and the conservative ratio (4.8).")
@click.option("--method", type=click.Choice(["G", "sum-of-max"]), default="G",
              show_default=True,
              help="G: algorithm G plays the thread graph; sum-of-max: Σ_s max_r tt(s, r) "
                   "only (no event play; G's value when every segment ends in a sync).")
@click.option("--seed", type=int, default=0, show_default=True,
              help="Seed of G's random pick among events ready at the same time.")
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text",
              show_default=True)
def semiemp_predict(files, model_path, nprocs, sets, actual, method, seed, fmt) -> None:
    """Predict FILES' run time from the fitted segment times and microbenchmarks: algorithm
    G's T_p, with Σ_s max_r beside it."""
    from interp.analysis import realrun, semiemp as S
    from interp.output import semiemp_view

    model = _read_model(model_path)
    aag = _program(files).aag
    if actual:
        points = S.score(aag, model, realrun.read_runs(actual), nprocs, method=method,
                         seed=seed)
    else:
        points = [S.predict(aag, model, nprocs, _run_values(sets), method=method, seed=seed)]
    if fmt == "json":
        click.echo(semiemp_view.points_json(points, model))
    else:
        semiemp_view.print_group(semiemp_view.points_text(points, model))


# --- scalability (seeds 002 and 004, issue 14) --------------------------------------------------


def study_options(f):
    """The options of the scalability studies: -P as a list, the inputs and the path."""
    f = click.option("--max-size", "t_max", type=click.IntRange(min=2), default=2**40,
                     show_default=True, help="The largest t the search tries.")(f)
    f = click.option("--efficiency", "target", type=click.FloatRange(0, 1, min_open=True),
                     required=True, help="The efficiency to keep, e.g. 0.7.")(f)
    f = click.option("--bound", type=click.Choice(["min", "mid", "max"]), default="mid",
                     show_default=True, help="Which end of the spec's [min, max] ranges to use.")(f)
    f = click.option("--set", "sets", multiple=True, metavar="NAME=VALUE",
                     help="Value of an input not on the path (repeatable).")(f)
    f = click.option("-P", "--nprocs", "nprocs_list", default="2,4,8,16", show_default=True,
                     callback=_int_list, help="Machine sizes, comma separated.")(f)
    return machine_option(WHAT_IF_OPTION(f))


@main.command()
@SOURCES
@study_options
@click.option("--path", "path", required=True, metavar="NAME=EXPR,...",
              help="The problem size χ as expressions in a whole number t (and P, the "
                   "processes; floor, ceil, log2), e.g. 'N=t' or 'M=t, N=t, I=20'.")
@click.option("--kind", type=click.Choice(["algorithmic", "combination"]),
              default="algorithmic", show_default=True,
              help="algorithmic: the PRAM against the MIRACLE (E_a, L_a); combination: the "
                   "real machine against the MIRACLE (E, L).")
@click.option("--plot", "plot_path", metavar="FILE.png",
              help="Plot L_a and L at χ(P) against P (.png, .pdf, .svg).")
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text",
              show_default=True)
def scalability(files, nprocs_list, sets, bound, target, t_max, machine, path, kind, plot_path,
                fmt) -> None:
    """Algorithmic or combination scalability of FILES (Zhang and Xu, seed 002): for each P
    the size χ(P) on --path where E_a or E reaches --efficiency, and the table
    Scale(P, P') = latency(χ(P), P) / latency(χ(P'), P') (docs/scalability.md)."""
    from interp import api
    from interp.output import scalability_view as view
    from interp.output.prediction_view import make_console

    if plot_path:
        view.check_plot_path(plot_path)
    result = api.scalability(_program(files), machine, nprocs_list, path, target, kind,
                             _parse_sets(sets), _what_ifs(), bound, t_max=t_max)
    _emit(result, fmt, view.render_json, lambda r: make_console().print(view.render_text(r)),
          plot_path, view.plot)


@main.command("latency-metric")
@SOURCES
@study_options
@click.option("--scale", "scale", required=True, metavar="NAME|PATH",
              help="The input that sizes the problem (N means the path 'N=t'), or a path "
                   "'M=t, N=t, I=20'.")
@click.option("--work", "work", metavar="EXPR",
              help="W in the path's inputs for Theorem 2 and isospeed, e.g. 'N*N*N' "
                   "(default: the first input on the path).")
@click.option("--integral", "integral", type=click.IntRange(min=0), default=0,
              show_default=True, help="Average scale over K efficiencies (3.8), midpoint rule; "
                                      "0: not computed.")
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text",
              show_default=True)
def latency_metric(files, nprocs_list, sets, bound, target, t_max, machine, scale, work,
                   integral, fmt) -> None:
    """The latency metric of FILES (Zhang, Yan and He, seed 004): for each N in -P the size W
    where E reaches --efficiency, the average latency L(W, N) there, and the E-conserved
    scale(E, (N, N')) = L(W, N)/L(W', N') (docs/scalability.md)."""
    from interp import api
    from interp.output import latency_view as view
    from interp.output.prediction_view import make_console

    study = api.latency_metric(_program(files), machine, nprocs_list, scale, target,
                               _parse_sets(sets), _what_ifs(), bound, work=work,
                               integral=integral, t_max=t_max)
    _emit(study, fmt, view.render_json, lambda r: make_console().print(view.render_text(r)))
