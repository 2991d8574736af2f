"""``interp sensitivity``: elasticities ranked, each with a sentence a person can act on."""

from __future__ import annotations


from rich.console import Group
from rich.table import Table
from rich.text import Text

from interp.analysis.sensitivity import Sensitivity
from interp.output.numbers import seconds_text
from interp.output.prediction_view import make_console
from interp.output import jsontext


def render_text(s: Sensitivity, top: int | None = None) -> Group:
    head = Text()
    head.append("Predicted time: ", style="bold")
    head.append(seconds_text(s.seconds), style="bold green")
    head.append(f"   on {s.machine}, P = {s.nprocs}, bound = {s.bound}"
                + (", " + ", ".join(f"{k} = {v}" for k, v in s.inputs.items()) if s.inputs else "")
                + "\n")
    head.append("Elasticity ∂ln T/∂ln p: a 1% change of p changes T by about that many %.\n",
                style="dim")
    t = Table(title="Sensitivity, largest first", title_justify="left")
    for col, just in (("#", "right"), ("parameter or input", "left"), ("value", "right"),
                      ("elasticity", "right"), ("what 1% does", "left")):
        t.add_column(col, justify=just)
    for i, e in enumerate(s.entries[:top] if top else s.entries, 1):
        t.add_row(str(i), e.name, e.value, f"{e.elasticity:+.4f}", e.sentence())
    parts = [head, t]
    if s.notes:
        notes = Text("Notes:\n", style="bold")
        for n in s.notes:
            notes.append(f"  - {n}\n")
        parts.append(notes)
    return Group(*parts)


def render_json(s: Sensitivity) -> str:
    return jsontext.dumps(s.to_json(), indent=2)


def print_text(s: Sensitivity, top: int | None = None) -> None:
    make_console(140).print(render_text(s, top))
