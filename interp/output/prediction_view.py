"""Views of a prediction: the text report (rich tables) and the JSON contract.

Numbers are the formula evaluated at the inputs given; where an input was not given the
number is absent (None in JSON) and the formula says what it depends on.
"""

from __future__ import annotations

import keyword
from pathlib import Path

import sympy as sp
from sympy.printing.str import StrPrinter
from rich.console import Group
from rich.table import Table
from rich.text import Text

from interp.application.expr import as_sympy
from interp.analysis.interval import interval
from interp.output.console import make_console
from interp.engine.datadep import given_value
from interp.engine.predict import Prediction
from interp.output.levels import summary_line
from interp.output.numbers import seconds_text
from interp.output import jsontext

COLUMNS = ("computation", "call", "transmission", "waiting", "idle")
COLUMN_TITLES = {"computation": "computation", "call": "call overhead",
                 "transmission": "transmission", "waiting": "waiting", "idle": "idle"}


def number(pred: Prediction, expr) -> float | None:
    if expr is None:
        return None
    v = pred.evaluate(as_sympy(expr))
    return float(v) if v.is_number else None


class _Rounded(StrPrinter):
    """Numbers to ``digits`` significant figures, the expression as it is: ``sp.N`` would
    rebuild every Max, and SymPy's Max simplification of 64 processes' clocks took 25 s."""

    def __init__(self, digits: int) -> None:
        super().__init__()
        self.digits = digits

    def _print_Float(self, expr) -> str:
        return f"{float(expr):.{self.digits}g}"

    def _print_Rational(self, expr) -> str:
        return f"{float(expr):.{self.digits}g}" if expr.q != 1 else str(expr.p)


def formula_text(expr: sp.Expr, digits: int = 6) -> str:
    """The formula for people: numbers rounded, structure kept."""
    return _Rounded(digits).doprint(expr)


def formula_srepr(expr: sp.Expr) -> str:
    """The formula as SymPy's ``srepr``: every node spelled out (``formula --srepr``, and the
    JSON contract's ``formula``), which plain ``parse_expr`` reads back with its assumptions."""
    return sp.srepr(expr)


class _PlainPrinter(StrPrinter):
    """SymPy's plain text, except an input whose name is a SymPy name (N, I, E, S, Q, beta…)
    or a Python keyword is written ``Symbol('N')``: plain ``parse_expr`` would read ``N`` as
    SymPy's ``N()``, ``I`` as the imaginary unit, ``E`` as Euler's number."""

    def _print_Symbol(self, expr: sp.Symbol) -> str:
        if expr.name in vars(sp) or keyword.iskeyword(expr.name) or not expr.name.isidentifier():
            return f"Symbol({expr.name!r})"
        return expr.name


def formula_python(expr: sp.Expr) -> str:
    """The formula as plain Python/SymPy text that ``sympy.parsing.sympy_parser.parse_expr``
    reads back (floats at full precision; see :class:`_PlainPrinter` for names)."""
    return _PlainPrinter({"full_prec": True}).doprint(expr)


def to_json(pred: Prediction, top: int = 0) -> dict:
    """``interp predict --format json``: a stable contract (keys are only ever added)."""
    rows = pred.process_rows()
    aaus = pred.aau_rows()
    low, high = interval(pred)
    return {
        "total_seconds": pred.seconds,
        "total_seconds_min": low,  # the same prediction with the spec's min / max values
        "total_seconds_max": high,
        "formula": formula_srepr(pred.total),
        "formula_text": formula_text(pred.total),
        "formula_symbols": sorted(s.name for s in pred.total.free_symbols),
        "headline": pred.headline,
        "machine": pred.machine.name,
        "nprocs": pred.nprocs,
        "bound": pred.bound,
        "files": pred.aag.files,
        "inputs": {k: float(v) if not v.is_Integer else int(v) for k, v in pred.given.items()},
        "inputs_used_as_values": sorted(pred.fixed),
        "processes": [
            {"process": r["process"], "pid": r["pid"],
             "start": number(pred, r["start"]), "finish": number(pred, r["finish"]),
             **{c: number(pred, r[c]) for c in COLUMNS}}
            for r in rows
        ],
        "aaus": [
            {"id": r["id"], "type": r["type"], "unit": r["unit"], "file": r["file"],
             "line": r["line"], "end_line": r["end_line"], "count": number(pred, r["count"]),
             "delta": number(pred, r["total"]), "own": number(pred, r["own"]),
             "tau": number(pred, r["tau"]),
             "delta_formula": str(r["total"]), "processes": r["processes"]}
            for r in aaus
        ],
        "notes": pred.notes,
        "data_dependent": data_dependent_json(pred),
        "problems": [p.to_json() for p in pred.scheduler.problems],
    }


def data_dependent_json(pred: Prediction) -> list[dict]:
    """The data-dependent symbols (branch probabilities): where, what, the value used."""
    return [{**s.to_json(), "value": float(pred.data_value(name)),
             "given": given_value(pred.given, name) is not None}
            for name, s in pred.data.items()]


def data_dependent_text(pred: Prediction) -> Text:
    out = Text("Data-dependent (symbols of the formula; --set NAME=VALUE, or measure them with "
               "`interp profile` and give --counts FILE):\n", style="bold")
    for row in data_dependent_json(pred):
        origin = "given" if row["given"] else "default"
        out.append(f"  {row['name']} = {row['value']:.6g} ({origin})  "
                   f"{Path(row['file']).name}:{row['line']}  {row['what']}\n")
    return out


def render_json(pred: Prediction, extra: dict | None = None) -> str:
    data = to_json(pred)
    data.update(extra or {})
    return jsontext.dumps(data, indent=2)


def range_line(pred: Prediction) -> str:
    """The headline's interval over the spec's [min, max] values (two numeric predictions)."""
    low, high = interval(pred)
    if low is None or high is None:
        return "range over the spec's [min, max] values: needs input values"
    return f"range over the spec's [min, max] values: {seconds_text(low)} .. {seconds_text(high)}"


def _process_table(pred: Prediction) -> Table:
    t = Table(title="Where the time goes, per process", title_justify="left")
    t.add_column("process")
    for c in COLUMNS:
        t.add_column(COLUMN_TITLES[c], justify="right")
    t.add_column("finish", justify="right")
    rows = _collapsed(pred)
    if len(rows) > 2 * SHOWN_ENDS + 1:  # P = 1024: the first and last processes, then JSON
        hidden = len(rows) - 2 * SHOWN_ENDS
        rows = rows[:SHOWN_ENDS] + [(f"⋮ {hidden} rows", ["⋮"] * (len(COLUMNS) + 1))] \
            + rows[-SHOWN_ENDS:]
    for label, cells in rows:
        t.add_row(label, *cells)
    return t


SHOWN_ENDS = 12  # rows shown at each end of a long per-process table (all: --format json)


def _collapsed(pred: Prediction) -> list[tuple[str, list[str]]]:
    """Table rows; consecutive processes whose figures print the same share one row
    ("node 1–14"), so that P = 1024 reads as a handful of kinds of process."""
    out: list[tuple[str, list[str], int, int]] = []
    for r in pred.process_rows():
        cells = [seconds_text(number(pred, r[c])) for c in [*COLUMNS, "finish"]]
        label, pid = r["process"], r["pid"]
        last = out[-1] if out else None
        if last and cells == last[1] and pid == last[3] + 1 and label.rsplit(" ", 1)[0] == \
                last[0].rsplit(" ", 1)[0]:
            out[-1] = (last[0], cells, last[2], pid)
        else:
            out.append((label, cells, pid, pid))
    return [(label if first == end else f"{label}–{end}", cells) for label, cells, first, end in out]


def own_rows(pred: Prediction, value) -> list[tuple[dict, float]]:
    """The AAUs with a time of their own (``own``: a loop's, a conditional's, a CALL's own
    overhead, the whole δ of the others), each with that time as ``value`` gives it, most
    first: the rows add up to the processes' busy time."""
    vals = [(r, value(r["own"]) or 0.0) for r in pred.aau_rows()]
    return sorted([rv for rv in vals if rv[1] > 0], key=lambda rv: -rv[1])


def _aau_table(pred: Prediction, top: int) -> Table:
    vals = own_rows(pred, lambda x: number(pred, x))  # each formula evaluated once
    total = sum(v for _, v in vals) or 1.0
    rows = [r for r, _ in vals]
    delta = {r["id"]: v for r, v in vals}
    t = Table(title=f"The {min(top, len(rows))} AAUs that cost most (δ summed over processes "
                    "and executions; a loop's, IF's, CALL's own)",
              title_justify="left")
    for col, just in (("AAU", "left"), ("type", "left"), ("where", "left"),
                      ("executions", "right"), ("δ total", "right"), ("share", "right")):
        t.add_column(col, justify=just)
    for r in rows[:top]:
        d = delta[r["id"]]
        lines = f"{r['line']}" if r["end_line"] == r["line"] else f"{r['line']}-{r['end_line']}"
        count = number(pred, r["count"])
        t.add_row(f"#{r['id']}", r["type"], f"{r['file']}:{lines}",
                  f"{count:.6g}" if count is not None else str(r["count"]),
                  seconds_text(d), f"{100 * (d or 0) / total:.1f}%")
    return t


def render_text(pred: Prediction, top: int = 8) -> Group:
    head = Text()
    head.append("Predicted time: ", style="bold")
    head.append(seconds_text(pred.seconds) if pred.seconds is not None else "needs input values",
                style="bold green")
    head.append(f"   on {pred.machine.name}, P = {pred.nprocs}, bound = {pred.bound}\n")
    head.append(f"  ({pred.headline})\n", style="dim")
    head.append(range_line(pred) + "\n")
    if pred.given:
        head.append("Inputs: " + ", ".join(f"{k} = {v}" for k, v in pred.given.items()) + "\n")
    symbols = sorted(s.name for s in pred.total.free_symbols)
    head.append("Formula" + (f" T({', '.join(symbols)})" if symbols else "") + " [s]:\n", style="bold")
    head.append("  " + formula_text(pred.total) + "\n")
    parts = [head, *_problems_text(pred), _process_table(pred),
             Text(summary_line(pred) + "\n")] + ([_aau_table(pred, top)] if top else [])
    if pred.data:
        parts.append(data_dependent_text(pred))
    if pred.notes:
        notes = Text("Notes and assumptions:\n", style="bold")
        for n in pred.notes:
            notes.append(f"  - {n}\n")
        parts.append(notes)
    return Group(*parts)


def _problems_text(pred: Prediction) -> list[Text]:
    """What ``interp check`` would report of a program that still runs to its end (a message
    longer than its receive buffer, MPI types that differ, an unwaited request): the time is
    of the program as written, the problems said beside it, not only in the JSON."""
    problems = pred.scheduler.problems
    if not problems:
        return []
    out = Text(f"Communication problems ({len(problems)}; interp check reports them with every "
               "call involved):\n", style="bold red")
    for pr in problems:
        out.append(f"  - {pr.kind}: {pr.message}\n")
    return [out]


def print_text(pred: Prediction, top: int = 8, extra: list | None = None) -> None:
    """The report, then any further sections (``--at`` levels, the annotated source)."""
    console = make_console()
    console.print(render_text(pred, top))
    for part in extra or []:
        console.print(part)
