"""``interp semiemp``: the fitted segments, and predictions beside real runs with the paper's
E (4.9), Ē (4.10) and conservative ratio (4.8)."""

from __future__ import annotations

from collections.abc import Sequence

from rich.console import Group
from rich.table import Table
from rich.text import Text

from interp.analysis import semiemp as S
from interp.output import jsontext
from interp.output.numbers import seconds_text
from interp.output.prediction_view import make_console


def fit_text(model: S.Model) -> Group:
    head = Text(f"{model.program}: fitted from {len(model.samples)} sample settings "
                f"({'; '.join(model.samples)}), F on {model.spec}; T_sample = "
                f"{seconds_text(model.sample_seconds)}\n", style="bold")
    t = Table(title="Segments: tt = a·F + b", title_justify="left")
    for col in ("segment", "AAU", "lines", "a", "b (O_syn)", "samples"):
        t.add_column(col, justify="left" if col in ("segment", "AAU", "lines") else "right")
    for s in model.segments:
        t.add_row(s.column, s.type, s.lines, f"{s.a:.4g}", seconds_text(s.b), str(s.samples))
    c = Table(title="Communication microbenchmarks (median per call)", title_justify="left")
    c.add_column("P", justify="right")
    ops = sorted({op for v in model.comm.per_p.values() for op in v})
    for op in ops:
        c.add_column(op, justify="right")
    for p, table in sorted(model.comm.per_p.items()):
        c.add_row(str(p), *[(f"{table[op]['median'] * 1e9:.3g} ns/B" if op == "per_byte"
                            else seconds_text(table[op]["median"])) if op in table else "-"
                            for op in ops])
    return Group(head, t, c)


def points_text(points: Sequence[S.Point], model: S.Model) -> Group:
    t = Table(title=f"{model.program}: predicted vs real (timed span, longest rank)",
              title_justify="left")
    scored = [p for p in points if p.actual]
    cols = ["P", "inputs", "semi-empirical", "Σ_s max_r", "op-count"]
    if scored:
        cols += ["actual", "E", "E Σ max", "E op-count", "R (4.8)"]
    for col in cols:
        t.add_column(col, justify="left" if col == "inputs" else "right")
    for p in points:
        row = [str(p.nprocs) + ("*" if p.oversubscribed else ""),
               " ".join(f"{k}={v}" for k, v in p.inputs.items()),
               seconds_text(p.predicted), seconds_text(p.sum_of_max), seconds_text(p.opcount)]
        if p.actual:
            row += [seconds_text(p.actual), f"{S.error(p.actual, p.predicted):.1%}",
                    f"{S.error(p.actual, p.sum_of_max):.1%}",
                    f"{S.error(p.actual, p.opcount):.1%}",
                    f"{S.conservative_ratio(p.actual, model.sample_seconds, p.estimate_seconds):.3g}"]
        t.add_row(*row)
    method = {p.method for p in points}
    parts = [t, Text("semi-empirical: " + ("algorithm G played on the thread graph "
                                           f"({max(p.events for p in points)} events at most)"
                                           if method == {"G"} else "Σ_s max_r tt(s, r)"))]
    if scored:
        e = S.mean_error([S.error(p.actual, p.predicted) for p in scored])
        e0 = S.mean_error([S.error(p.actual, p.opcount) for p in scored])
        em = S.mean_error([S.error(p.actual, p.sum_of_max) for p in scored])
        parts.append(Text(f"Ē (4.10): semi-empirical {e:.1%}, Σ_s max_r {em:.1%}, op-count "
                          f"{e0:.1%} over {len(scored)} sizes"))
    return Group(*parts)


def points_json(points: Sequence[S.Point], model: S.Model) -> str:
    rows = []
    for p in points:
        row = {"P": p.nprocs, "inputs": p.inputs, "predicted": p.predicted,
               "opcount": p.opcount, "estimate_seconds": p.estimate_seconds,
               "predicted_sum_of_max": p.sum_of_max, "method": p.method, "events": p.events}
        if p.actual:
            row.update(actual=p.actual, runs=p.runs, oversubscribed=p.oversubscribed,
                       E=S.error(p.actual, p.predicted), E_opcount=S.error(p.actual, p.opcount),
                       E_sum_of_max=S.error(p.actual, p.sum_of_max),
                       R_conservative=S.conservative_ratio(p.actual, model.sample_seconds,
                                                           p.estimate_seconds))
        rows.append(row)
    scored = [r for r in rows if "E" in r]
    out = {"program": model.program, "points": rows}
    if scored:
        out["E_bar"] = S.mean_error([r["E"] for r in scored])
        out["E_bar_opcount"] = S.mean_error([r["E_opcount"] for r in scored])
        out["E_bar_sum_of_max"] = S.mean_error([r["E_sum_of_max"] for r in scored])
    return jsontext.dumps(out, indent=2)


def print_group(group: Group) -> None:
    make_console(120).print(group)
