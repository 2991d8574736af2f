"""``interp sweep``: the table of predictions (rich or CSV) and the plot (matplotlib, Agg).

The CSV columns are a contract: the inputs (varied ones first, in ``--vary`` order, then the
others given), ``P``, ``seconds``, ``speedup``, ``efficiency``; with ``--band`` also
``seconds_min`` and ``seconds_max`` at the end.
"""

from __future__ import annotations

import csv
import io
from pathlib import Path

import numpy as np
from rich.console import Group
from rich.table import Table
from rich.text import Text

from interp.analysis.sweep import SweepResult, is_log
from interp.errors import InterpError
from interp.output.files import check_writable, write_files, write_text
from interp.output.numbers import seconds_text
from interp.output.prediction_view import make_console
from interp.output import jsontext

MAX_TABLE_ROWS = 60


def _cell(value) -> str:
    if isinstance(value, float):
        return repr(value)
    return str(value)


def write_csv_to(result: SweepResult, f) -> None:
    cols = result.columns()
    w = csv.writer(f, lineterminator="\n")
    w.writerow(cols)
    for row in result.rows():
        w.writerow([_cell(row[c]) for c in cols])


def csv_text(result: SweepResult) -> str:
    buf = io.StringIO()
    write_csv_to(result, buf)
    return buf.getvalue()


def write_csv(result: SweepResult, path: str | Path) -> None:
    """The CSV table, written all or nothing (a temp file beside it, then renamed)."""
    write_text(path, csv_text(result), what="table")


def render_json(result: SweepResult) -> str:
    return jsontext.dumps({"columns": result.columns(), "rows": result.rows(), "notes": result.notes,
                       "reference_P": min(result.nprocs),
                       "interpretations": result.interpretations,
                       "from_formula_in_P": result.saved}, indent=2)


def render_text(result: SweepResult, max_rows: int = MAX_TABLE_ROWS) -> Group:
    rows = result.rows()
    cols = result.columns()
    # speedup and efficiency are against the smallest P, which need not be 1: say which
    t = Table(title=f"Predictions ({len(rows)} rows, {result.interpretations} interpretations; "
                    f"speedup and efficiency against P = {min(result.nprocs)})",
              title_justify="left")
    for c in cols:
        t.add_column(c, justify="right")
    shown = rows if len(rows) <= max_rows else rows[: max_rows // 2] + [None] + rows[-max_rows // 2:]
    for row in shown:
        if row is None:
            t.add_row(*["…"] * len(cols))
            continue
        cells = []
        for c in cols:
            v = row[c]
            if c.startswith("seconds"):
                cells.append(seconds_text(v))
            elif c in ("speedup", "efficiency"):
                cells.append(f"{v:.3f}")
            elif isinstance(v, float):
                cells.append(f"{v:.6g}")
            else:
                cells.append(str(v))
        t.add_row(*cells)
    parts = [t]
    tail = Text()
    if len(rows) > max_rows:
        tail.append(f"({len(rows) - max_rows} rows not shown; write them all with -o FILE.csv)\n",
                    style="dim")
    for n in result.notes:
        tail.append(f"  - {n}\n")
    if tail:
        parts.append(tail)
    return Group(*parts)


def print_text(result: SweepResult) -> None:
    make_console(140).print(render_text(result))


# ---- the plot ------------------------------------------------------------------------------------

FORMATS = ("png", "pdf", "svg")


def check_plot_path(path: str | Path) -> Path:
    path = check_writable(path, "plot")
    fmt = path.suffix.lower().lstrip(".")
    if fmt not in FORMATS:
        raise InterpError(f"cannot write the plot {path}: unknown format '{path.suffix}'",
                          hint="end the name with " + ", ".join("." + f for f in FORMATS))
    return path


def plot(result: SweepResult, path: str | Path, band: bool = False) -> None:
    """Time against the first varied name; one line per P (and per value of any other varied
    input); with ``band`` the spec's [min, max] range drawn around each line."""
    path = check_plot_path(path)
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    if band and result.seconds_min is None:
        raise InterpError("--band needs the sweep's min and max predictions")
    x_name = result.order[0] if result.order else "P"
    fig = Figure(figsize=(7.5, 5), layout="constrained")
    FigureCanvasAgg(fig)
    ax = fig.add_subplot()
    for label, xs, ys, lo, hi in _lines(result, x_name, band):
        order = np.argsort(xs)
        (line,) = ax.plot(xs[order], ys[order], marker="o" if len(xs) < 30 else None,
                          markersize=3, label=label)
        if band:
            ax.fill_between(xs[order], lo[order], hi[order], color=line.get_color(), alpha=0.2,
                            linewidth=0)
    if is_log(result, x_name):
        ax.set_xscale("log")
    y = result.seconds[np.isfinite(result.seconds)]
    if y.size and y.min() > 0 and y.max() / y.min() > 100:
        ax.set_yscale("log")
    ax.set_xlabel(x_name)
    ax.set_ylabel("predicted time [s]")
    ax.set_title("interp sweep" + (" (band: spec min .. max)" if band else ""))
    ax.grid(True, which="both", alpha=0.3)
    if ax.get_legend_handles_labels()[0]:
        ax.legend(fontsize="small")
    buf = io.BytesIO()
    fig.savefig(buf, format=path.suffix.lower().lstrip("."))
    write_files({path: buf.getvalue()}, what="plot")


def _lines(result: SweepResult, x_name: str, band: bool):
    """(label, x, seconds, min, max) for each line: one per P and per combination of the
    other varied inputs."""
    others = [n for n in result.order if n not in (x_name, "P")]
    lo, hi = result.seconds_min, result.seconds_max
    if others:
        cols = np.stack([result.points[n] for n in others], axis=1)
        keys, inverse = np.unique(cols, axis=0, return_inverse=True)
        inverse = inverse.reshape(-1)
    else:
        keys, inverse = np.zeros((1, 0)), np.zeros(result.npoints, dtype=int)

    def label(p, key) -> str:
        parts = ([f"P = {p}"] if p is not None else []) + [f"{n} = {v:g}" for n, v in zip(others, key)]
        return ", ".join(parts) or "time"

    if x_name == "P":  # x is P: one line per point of the other inputs
        ps = np.array(result.nprocs, dtype=float)
        for j in range(result.npoints):
            key = keys[inverse[j]]
            yield (label(None, key), ps, result.seconds[:, j],
                   lo[:, j] if band else None, hi[:, j] if band else None)
        return
    for i, p in enumerate(result.nprocs):
        for k, key in enumerate(keys):
            sel = inverse == k
            yield (label(p, key), result.points[x_name][sel], result.seconds[i][sel],
                   lo[i][sel] if band else None, hi[i][sel] if band else None)
