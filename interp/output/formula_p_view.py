"""The view of a formula in P (``formula --symbolic P``): the formula, its domain and the P
values it was verified at; or why there is none, and the times per P."""

from __future__ import annotations

import sympy as sp
from rich.table import Table
from rich.text import Text

from interp.analysis.formula_in_p import FormulaInP, display
from interp.output.numbers import seconds_text
from interp.output.prediction_view import (formula_python, formula_srepr, formula_text,
                                           make_console)


def formula_string(fp: FormulaInP, style: str | None) -> str:
    shown = display(fp.formula)
    if style == "latex":
        return sp.latex(sp.N(shown, 6))
    if style == "python":
        return formula_python(fp.formula)
    if style == "srepr":
        return formula_srepr(fp.formula)
    return formula_text(shown, 12)


def print_text(fp: FormulaInP, style: str | None) -> None:
    console = make_console()
    if fp.formula is not None:
        console.print(Text(formula_string(fp, style)))
        console.print(Text(f"domain: {fp.domain}"))
        console.print(Text(f"checked against direct interpretation at P = "
                           f"{', '.join(map(str, fp.verified))}: largest relative difference "
                           f"{fp.max_error:.1e} (limit 1e-9)"))
    else:
        console.print(Text(fp.reason))
        t = Table(title="The time per P instead", title_justify="left")
        t.add_column("P", justify="right")
        t.add_column("time", justify="right")
        t.add_column("formula at this P")
        for p, expr in fp.per_p.items():
            t.add_row(str(p), seconds_text(fp.seconds.get(p)), formula_text(expr))
        console.print(t)
    for note in fp.notes:
        console.print(Text(f"note: {note}"))
