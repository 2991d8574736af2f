"""``interp scaling``: time, speedup and efficiency per P with where each time comes from
(formula, interpreted, extrapolated), the P of best time, the formula's domain, and the
isoefficiency W(P); as text, JSON, or a plot of time and efficiency against P."""

from __future__ import annotations

import io
from pathlib import Path

from rich.console import Group
from rich.table import Table
from rich.text import Text

from interp.analysis.scaling_in_p import Scaling
from interp.output import jsontext
from interp.output.files import write_files
from interp.output.formula_p_view import formula_string
from interp.output.numbers import seconds_text
from interp.output.prediction_view import make_console
from interp.output.sweep_view import check_plot_path  # noqa: F401 (the CLI checks with it)


def to_json(result: Scaling) -> dict:
    best = result.best
    out = {"rows": [{"P": r.nprocs, "seconds": r.seconds, "speedup": result.speedup(r),
                     "efficiency": result.efficiency(r), "source": r.source}
                    for r in result.rows],
           "reference_P": result.reference.nprocs,
           "best": {"P": best.nprocs, "seconds": best.seconds, "source": best.source},
           "formula_in_P": result.formula.to_json() if result.formula else None,
           "interpretations": result.interpretations, "notes": result.notes}
    if result.iso is not None:
        iso = result.iso
        out["isoefficiency"] = {"work": iso.work, "efficiency": iso.efficiency,
                                "rows": [{"P": p, iso.work: w, "source": iso.sources[p]}
                                         for p, w in iso.values.items()]}
    return out


def render_json(result: Scaling) -> str:
    return jsontext.dumps(to_json(result), indent=2)


def render_text(result: Scaling) -> Group:
    ref = result.reference
    t = Table(title=f"Scaling in P (speedup against P = {ref.nprocs})", title_justify="left")
    for col in ("P", "time", "speedup", "efficiency"):
        t.add_column(col, justify="right")
    t.add_column("source")
    for r in result.rows:
        t.add_row(str(r.nprocs), seconds_text(r.seconds), f"{result.speedup(r):.4g}",
                  f"{result.efficiency(r):.4g}", r.source)
    best = result.best
    parts = [t, Text(f"best time: P = {best.nprocs}, {seconds_text(best.seconds)}"
                     + (" (extrapolated)" if best.source == "extrapolated" else ""))]
    fp = result.formula
    if fp is not None and fp.formula is not None:
        parts += [Text(f"formula in P: {formula_string(fp, None)}"),
                  Text(f"domain: {fp.domain}")]
    if result.iso is not None:
        iso = result.iso
        it = Table(title=f"Isoefficiency: {iso.work}(P) at efficiency {iso.efficiency:g} "
                         f"(against P = {ref.nprocs})", title_justify="left")
        it.add_column("P", justify="right")
        it.add_column(iso.work, justify="right")
        it.add_column("source")
        for p, w in iso.values.items():
            it.add_row(str(p), "not reached" if w is None else str(w), iso.sources[p])
        parts.append(it)
    parts.append(Text(f"interpretations run: {result.interpretations}"))
    parts += [Text(f"note: {n}") for n in result.notes]
    if fp is not None:
        parts += [Text(f"note: {n}") for n in fp.notes]
    return Group(*parts)


def print_text(result: Scaling) -> None:
    make_console(140).print(render_text(result))


def plot(result: Scaling, path: str | Path) -> None:
    """Time (left) and efficiency (right) against P on log axes; extrapolated points hollow."""
    path = check_plot_path(path)
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    fig = Figure(figsize=(10, 4.5), layout="constrained")
    FigureCanvasAgg(fig)
    left, right = fig.subplots(1, 2)
    ps = [r.nprocs for r in result.rows]
    for ax, ys, label in ((left, [r.seconds for r in result.rows], "predicted time [s]"),
                          (right, [result.efficiency(r) for r in result.rows], "efficiency")):
        ax.plot(ps, ys, color="C0")
        for source, style in (("formula", "o"), ("interpreted", "s"), ("extrapolated", "o")):
            pts = [(p, y) for p, y, r in zip(ps, ys, result.rows) if r.source == source]
            if pts:
                ax.plot(*zip(*pts), linestyle="none", marker=style, color="C0",
                        fillstyle="none" if source == "extrapolated" else "full", label=source)
        ax.set_xscale("log", base=2)
        ax.set_xlabel("P")
        ax.set_ylabel(label)
        ax.grid(True, which="both", alpha=0.3)
    left.set_yscale("log")
    left.legend(fontsize="small")
    fig.suptitle("interp scaling")
    buf = io.BytesIO()
    fig.savefig(buf, format=path.suffix.lower().lstrip("."))
    write_files({path: buf.getvalue()}, what="plot")
