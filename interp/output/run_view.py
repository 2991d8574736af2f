"""``interp run``: the real runs, one line each, and the segments of the last one."""

from __future__ import annotations

from collections.abc import Sequence

from rich.console import Group
from rich.table import Table
from rich.text import Text

from interp.analysis.realrun import Plan, Run
from interp.output.numbers import seconds_text
from interp.output.prediction_view import make_console


def render_text(runs: Sequence[Run], plan: Plan | None = None) -> Group:
    first = runs[0]
    head = Text()
    head.append(f"{first.program}: P = {first.nprocs}, -O{first.opt}", style="bold")
    if first.inputs:
        head.append(", " + ", ".join(f"{k} = {v}" for k, v in first.inputs.items()))
    if first.oversubscribed:
        head.append(f"  (oversubscribed: {first.nprocs} ranks on {first.cores} cores)",
                    style="yellow")
    t = Table(title="Runs", title_justify="left")
    for col in ("run", "wall (mpirun)", "timed (longest rank)", "per rank"):
        t.add_column(col, justify="right" if col != "per rank" else "left")
    for r in runs:
        t.add_row(str(r.run), seconds_text(r.wall), seconds_text(r.timed),
                  " ".join(seconds_text(x) for x in r.procs))
    parts = [head, t]
    if plan is not None:
        s = Table(title=f"Segments of run {runs[-1].run} (longest rank)", title_justify="left")
        for col in ("segment", "AAU", "lines", "seconds"):
            s.add_column(col, justify="right" if col == "seconds" else "left")
        for seg in plan.segments:
            values = runs[-1].segments.get(seg.column, [])
            s.add_row(seg.column, seg.type + (f" in {seg.within}" if seg.within else ""),
                      f"{seg.line}-{seg.end_line}", seconds_text(max(values)) if values else "-")
        parts.append(s)
    return Group(*parts)


def print_text(runs: Sequence[Run], plan: Plan | None = None) -> None:
    make_console(120).print(render_text(runs, plan))
