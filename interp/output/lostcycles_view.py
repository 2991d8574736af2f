"""Views of lost cycles: the paper's Figure 1 (``pp``'s output) and the data file rows that
``pp -l`` appended and ``lca`` reads (the contract: docs/lost-cycles.md, "The data file").
"""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

from rich.console import Group
from rich.table import Table
from rich.text import Text

from interp.analysis.lostcycles import CATEGORIES, PARTS, TITLES, LostCycles
from interp.errors import InterpError
from interp.output.files import check_writable, write_text
from interp.output import jsontext

COLUMNS = ("source", "program", "machine", "p", "vars", "by", "key", *CATEGORIES, "remaining",
           "tp", "total")
FORMATS = ("csv", "json")


def vars_text(values: dict[str, float]) -> str:
    """``N=1024;NITER=10``: the inputs by name, whole numbers without a decimal point."""
    return ";".join(f"{k}={_number_text(v)}" for k, v in sorted(values.items()))


def _number_text(v) -> str:
    v = float(v)
    return str(int(v)) if v.is_integer() and abs(v) < 2**63 else repr(v)


def rows(lc: LostCycles, by: str = "program") -> list[dict]:
    """One row per breakdown key, in the data file's columns."""
    head = {"source": lc.source, "program": lc.program, "machine": lc.machine, "p": lc.p,
            "vars": vars_text(lc.vars), "by": by}
    return [{**head, "key": key, **{c: row[c] for c in PARTS}, "tp": lc.tp, "total": lc.total}
            for key, row in lc.breakdown(by).items()]


def render_text(lc: LostCycles, by: str = "program"):
    """Figure 1 of the paper: processors, the five categories, Total Time (p·T_p) and
    Remaining Time (pure computation), in seconds summed over processors; with ``by`` other
    than ``program``, the same per key below it."""
    whole = lc.breakdown("program")[""]
    where = f"{lc.program} on {lc.machine} ({lc.source}" + (
        f"; {vars_text(lc.vars)})" if lc.vars else ")")
    fig = Table(title=f"lost cycles: {where}", show_header=False, box=None, pad_edge=False)
    fig.add_column("category")
    fig.add_column("seconds", justify="right")
    fig.add_column("share", justify="right")
    fig.add_row("** processors:", str(lc.p), "")
    for c in CATEGORIES:
        fig.add_row(TITLES[c], _seconds(whole[c]), _share(whole[c], lc.total))
    fig.add_row("Total Time", _seconds(lc.total), f"T_p = {_seconds(lc.tp)} s")
    fig.add_row(TITLES["remaining"], _seconds(whole["remaining"]),
                _share(whole["remaining"], lc.total))
    if by == "program":
        return fig
    table = Table(title=f"by {by}")
    table.add_column({"proc": "process", "procedure": "procedure", "aau": "AAU"}[by])
    for c in PARTS:
        table.add_column(c.upper() if c in CATEGORIES else "Remaining", justify="right")
    table.add_column("sum", justify="right")
    for key, row in lc.breakdown(by).items():
        table.add_row(key, *(_seconds(row[c]) for c in PARTS), _seconds(sum(row.values())))
    return Group(fig, Text(""), table)


def _seconds(v: float) -> str:
    return "0" if v == 0 else f"{v:.6g}"


def _share(v: float, total: float) -> str:
    if not total:
        return ""
    pct = 100 * v / total
    return f"{pct:.1f}%" if pct == 0 or abs(pct) >= 0.1 else f"{pct:.2g}%"


def text_rows(records: list[dict], fmt: str, header: bool = True) -> str:
    """Rows as CSV (with the header row unless ``header`` is False) or as JSON lines."""
    if fmt == "json":
        return "".join(jsontext.dumps({c: r[c] for c in COLUMNS}) + "\n" for r in records)
    buf = io.StringIO()
    out = csv.writer(buf, lineterminator="\n")
    if header:
        out.writerow(COLUMNS)
    for r in records:
        out.writerow([repr(r[c]) if isinstance(r[c], float) else r[c] for c in COLUMNS])
    return buf.getvalue()


def file_format(path: str | Path, fmt: str) -> str:
    """The data file's format: ``fmt`` when it is csv or json, else by the file's suffix."""
    if fmt in FORMATS:
        return fmt
    return "json" if Path(path).suffix.lower() in (".json", ".jsonl") else "csv"


def append(path: str | Path, records: list[dict], fmt: str) -> None:
    """Append rows to the data file, as ``pp -l >> datafile``: the header only when the file is
    new or empty; a file whose header differs is an error naming both."""
    p = check_writable(path, "data file")
    old = p.read_text() if p.exists() else ""
    if old.strip():
        _check_header(p, old, fmt)
        if not old.endswith("\n"):
            old += "\n"
    write_text(p, old + text_rows(records, fmt, header=not old.strip()), "data file")


def _check_header(path: Path, text: str, fmt: str) -> None:
    first = text.splitlines()[0]
    if fmt == "json":
        try:
            found = list(json.loads(first))
        except (json.JSONDecodeError, TypeError):
            raise InterpError(f"{path}:1: not a JSON object, so not a lost-cycles data file in "
                              "JSON lines", hint="append to a new file, or use --format csv "
                                                 "for a CSV data file") from None
    else:
        found = next(csv.reader([first]))
    if found != list(COLUMNS):
        raise InterpError(f"{path}: its header is {','.join(found)}, not the lost-cycles data "
                          f"file's {','.join(COLUMNS)}",
                          hint="append to a new file (or one written by interp lost-cycles)")
