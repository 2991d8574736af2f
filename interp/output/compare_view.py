"""``interp compare``: baseline and scenario side by side, with the difference per component."""

from __future__ import annotations


from rich.console import Group
from rich.table import Table
from rich.text import Text

from interp.analysis.compare import Comparison
from interp.output.numbers import seconds_text
from interp.output.prediction_view import COLUMN_TITLES, make_console
from interp.output import jsontext

TITLES = {"total": "total (headline)", **{k: f"{v} (sum over processes)" for k, v in COLUMN_TITLES.items()}}


def _signed(value: float) -> str:
    return ("+" if value > 0 else "-" if value < 0 else "") + seconds_text(abs(value))


def render_text(c: Comparison) -> Group:
    head = Text()
    head.append("What-if: ", style="bold")
    head.append("; ".join(c.what_if) + "\n")
    b, s = c.baseline, c.scenario
    head.append(f"Baseline: {b.machine.name}, P = {b.nprocs}, bound = {b.bound}"
                + (", " + ", ".join(f"{k} = {v}" for k, v in b.given.items()) if b.given else "")
                + "\n", style="dim")
    if (s.nprocs, s.given) != (b.nprocs, b.given):
        head.append(f"Scenario: P = {s.nprocs}"
                    + (", " + ", ".join(f"{k} = {v}" for k, v in s.given.items()) if s.given else "")
                    + "\n", style="dim")
    t = Table(title="Baseline vs scenario", title_justify="left")
    for col, just in (("component", "left"), ("baseline", "right"), ("scenario", "right"),
                      ("difference", "right"), ("%", "right")):
        t.add_column(col, justify=just)
    for r in c.rows:
        pct = r["difference_percent"]
        style = "bold" if r["component"] == "total" else None
        t.add_row(TITLES.get(r["component"], r["component"]), seconds_text(r["baseline_seconds"]),
                  seconds_text(r["scenario_seconds"]), _signed(r["difference_seconds"]),
                  "-" if pct is None else f"{pct:+.2f}%", style=style)
    return Group(head, t)


def render_json(c: Comparison) -> str:
    return jsontext.dumps(c.to_json(), indent=2)


def print_text(c: Comparison) -> None:
    make_console(120).print(render_text(c))
