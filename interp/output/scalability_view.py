"""Views of a scalability study (seed 002): the paper's upper-triangular Scale table with
χ(P) in its last rows, as text or JSON, and the plot of ``L_a`` and ``L`` against P (its
Figures 10-14)."""

from __future__ import annotations

import io
from pathlib import Path

from rich.console import Group
from rich.table import Table
from rich.text import Text

from interp.analysis.scalability import Scalability, SizePoint
from interp.output.files import write_files
from interp.output.jsontext import dumps
from interp.output.numbers import seconds_text
from interp.output.sweep_view import check_plot_path

NAMES = {"algorithmic": ("algorithmic", "E_a", "L_a"), "combination": ("combination", "E", "L")}
STATUS = {"found": "", "smallest": "above the target at the smallest size on the path",
          "unreachable": "target not reached on the path", "base": "the speed kept"}


def scale_text(v: float | None) -> str:
    return "-" if v is None else f"{v:.4g}"


def scale_grid(ps: list[int], table: dict, corner: str = "P, P'") -> Table:
    """An upper-triangular table (rows P, columns P'). Long cells (χ of a path of many inputs,
    ``NX_DEFAULT=NY_DEFAULT=NZ_DEFAULT=16,``) fold rather than end in an ellipsis: a size cut
    short is a wrong size."""
    grid = Table()
    grid.add_column(corner, justify="right", overflow="fold")
    for q in ps:
        grid.add_column(str(q), justify="right", overflow="fold")
    for p in ps:
        grid.add_row(str(p), *("" if q < p else scale_text(table.get((p, q))) for q in ps))
    return grid


def render_text(result: Scalability) -> Group:
    kind, e_name, l_name = NAMES[result.kind]
    ps = [p.nprocs for p in result.points]
    head = Text(f"{kind.capitalize()} scalability Scale(P, P') of {result.program} on "
                f"{result.machine}, {e_name} = {result.target:g}, path {result.path.text}")
    grid = scale_grid(ps, result.table)
    grid.add_section()
    grid.add_row("χ(P)", *(p.chi for p in result.points))
    grid.add_row(e_name, *(f"{_eff(p, result.kind):.4f}" for p in result.points))
    grid.add_row("L_a", *(seconds_text(p.la) for p in result.points))
    grid.add_row("L", *(seconds_text(p.l) for p in result.points))
    parts: list = [head, grid]
    notes = [f"P = {p.nprocs}: {STATUS[p.root.status]} ({p.chi}, {e_name} = "
             f"{_eff(p, result.kind):.4f})" for p in result.points if p.root.status != "found"]
    if notes:
        parts.append(Text("\n".join(notes)))
    return Group(*parts)


def _eff(p: SizePoint, kind: str) -> float:
    return p.ea if kind == "algorithmic" else p.e


def to_dict(result: Scalability) -> dict:
    return {"kind": result.kind, "target": result.target, "path": result.path.text,
            "program": result.program, "machine": result.machine,
            "points": [{"P": p.nprocs, "status": p.root.status, "t": p.t,
                        "chi": {k: float(v) for k, v in result.path.at(p.t, p.nprocs).items()},
                        "T_s": p.ts, "T_p": p.tp, "T_p_pram": p.tpp, "T_p_miracle": p.tpm,
                        "E_a": p.ea, "E": p.e, "L_a": p.la, "L": p.l}
                       for p in result.points],
            "scale": [{"P": p, "P2": q, "value": v} for (p, q), v in result.table.items()
                      if p < q]}


def render_json(result: Scalability) -> str:
    return dumps(to_dict(result), indent=2)


def plot(result: Scalability, path: str | Path) -> None:
    """``L_a`` and ``L`` at χ(P) against P (log2 axis); the gap is the architecture's
    overhead."""
    path = check_plot_path(path)
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    points = [p for p in result.points if p.root.reached]
    fig = Figure(figsize=(7, 4.5), layout="constrained")
    FigureCanvasAgg(fig)
    ax = fig.add_subplot()
    xs = [p.nprocs for p in points]
    ax.plot(xs, [p.la for p in points], marker="o", label="algorithmic latency L_a (PRAM)")
    ax.plot(xs, [p.l for p in points], marker="s", label="parallel latency L (real machine)")
    ax.set_xscale("log", base=2)
    ys = [v for p in points for v in (p.la, p.l)]
    if ys and min(ys) > 0 and max(ys) / min(ys) > 100:  # L_a is often far below L
        ax.set_yscale("log")
    ax.set_xticks(xs, [str(x) for x in xs])
    ax.set_xlabel("P (χ(P) from the table)")
    ax.set_ylabel("latency [s]")
    _, e_name, _ = NAMES[result.kind]
    ax.set_title(f"{result.program} on {result.machine}: latencies at {e_name} = "
                 f"{result.target:g}")
    ax.grid(True, which="both", alpha=0.3)
    ax.legend(fontsize="small")
    buf = io.BytesIO()
    fig.savefig(buf, format=path.suffix.lower().lstrip("."))
    write_files({path: buf.getvalue()}, what="plot")
