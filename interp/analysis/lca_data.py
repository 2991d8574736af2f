"""The lost-cycles data file, as ``interp lca`` reads it (the paper's ``pp -l >> datafile``).

CSV with a header row, or JSON Lines (one object per row, the same keys); written by
``interp lost-cycles``. One row per run and breakdown key:

``source, program, machine, p, vars, by, key, li, ip, sl, cl, rc, remaining, tp, total``

Every mistake in the file is an :class:`InterpError` naming the file and line.
"""

from __future__ import annotations

import csv
import json
import math
from dataclasses import dataclass
from pathlib import Path

from interp.errors import InterpError, SourceLocation

OVERHEADS = ("li", "ip", "sl", "cl", "rc")
CATEGORIES = (*OVERHEADS, "remaining", "tp", "total")
DERIVED = {"to": OVERHEADS}  # T_o, the total overhead
COLUMNS = ("source", "program", "machine", "p", "vars", "by", "key", *CATEGORIES)
SOURCES = ("predicted", "smpi", "measured")
BY = ("program", "proc", "procedure", "aau")
HINT = ("the columns are " + ", ".join(COLUMNS) + " (written by interp lost-cycles)")


@dataclass(frozen=True)
class Run:
    """One row: a run of ``program`` on ``p`` processes with ``inputs``, one breakdown key."""

    file: str
    line: int
    source: str
    program: str
    machine: str
    p: int
    inputs: tuple[tuple[str, str], ...]  # lower-case name, value text (converted on use)
    by: str
    key: str
    values: tuple[tuple[str, float], ...]  # the categories, seconds

    def where(self) -> SourceLocation:
        return SourceLocation(self.file, self.line)

    def variables(self) -> frozenset[str]:
        return frozenset({"p"} | {k for k, _v in self.inputs})

    def variable(self, name: str) -> float:
        """``p`` or an input's value (an InterpError at this row when it is not a number)."""
        if name == "p":
            return float(self.p)
        text = dict(self.inputs).get(name)
        if text is None:
            raise InterpError(f"this run has no variable {name!r} (its vars are "
                              f"{', '.join(sorted(self.variables()))})", self.where(),
                              hint="give the variable with --set when running interp lost-cycles")
        return _number(text, f"vars {name}", self.file, self.line)

    def category(self, name: str) -> float:
        values = dict(self.values)
        if name in DERIVED:
            return math.fsum(values[c] for c in DERIVED[name])
        return values[name]


def read(paths) -> list[Run]:
    """Every row of every file, in order."""
    out: list[Run] = []
    for path in paths:
        out += read_file(path)
    return out


def read_file(path: str | Path) -> list[Run]:
    p = Path(path)
    try:
        text = p.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise InterpError(f"data file {path} does not exist",
                          hint="write it with interp lost-cycles --format csv|json") from None
    except (OSError, UnicodeDecodeError) as err:
        raise InterpError(f"cannot read data file {path}: {err}") from None
    if not text.strip():
        raise InterpError(f"data file {path} is empty", SourceLocation(str(path), 1), hint=HINT)
    if p.suffix.lower() in (".jsonl", ".json", ".ndjson") or text.lstrip().startswith("{"):
        return _read_jsonl(str(path), text)
    return _read_csv(str(path), text)


def _read_csv(path: str, text: str) -> list[Run]:
    reader = csv.reader(text.splitlines())
    header = [h.strip() for h in next(reader)]
    missing = [c for c in COLUMNS if c not in header]
    if missing:
        raise InterpError(f"missing column{'s' if len(missing) > 1 else ''} "
                          f"{', '.join(missing)} in the header", SourceLocation(path, 1), hint=HINT)
    out = []
    for fields in reader:
        line = reader.line_num
        if not any(f.strip() for f in fields):
            continue
        if len(fields) != len(header):
            raise InterpError(f"{len(fields)} fields where the header has {len(header)}",
                              SourceLocation(path, line), hint=HINT)
        out.append(_run(path, line, dict(zip(header, fields))))
    if not out:
        raise InterpError(f"data file {path} has a header but no rows", SourceLocation(path, 1),
                          hint="append runs with interp lost-cycles --format csv")
    return out


def _read_jsonl(path: str, text: str) -> list[Run]:
    out = []
    for line, raw in enumerate(text.splitlines(), 1):
        if not raw.strip():
            continue
        try:
            row = json.loads(raw)
        except json.JSONDecodeError as err:
            raise InterpError(f"not a JSON object: {err.msg}",
                              SourceLocation(path, line, err.colno)) from None
        if not isinstance(row, dict):
            raise InterpError("each line must be one JSON object", SourceLocation(path, line),
                              hint=HINT)
        missing = [c for c in COLUMNS if c not in row]
        if missing:
            raise InterpError(f"missing key{'s' if len(missing) > 1 else ''} {', '.join(missing)}",
                              SourceLocation(path, line), hint=HINT)
        out.append(_run(path, line, row))
    return out


def _run(path: str, line: int, row: dict) -> Run:
    def text(col: str) -> str:
        v = row[col]
        if v is None:
            return ""
        if not isinstance(v, (str, int, float)) or isinstance(v, bool):
            raise InterpError(f"column {col}: {v!r} is not text", SourceLocation(path, line))
        return str(v).strip()

    p = _number(row["p"], "p", path, line)
    if p < 1 or not p.is_integer():
        raise InterpError(f"column p: {row['p']!r} is not a number of processes (a whole "
                          "number ≥ 1)", SourceLocation(path, line))
    values = tuple((c, _number(row[c], c, path, line)) for c in CATEGORIES)
    return Run(path, line, text("source"), text("program"), text("machine"), int(p),
               _inputs(text("vars"), path, line), text("by") or "program", text("key"), values)


def _inputs(text: str, path: str, line: int) -> tuple[tuple[str, str], ...]:
    """``N=1024;NITER=10`` → ``(("n", "1024"), ("niter", "10"))``."""
    out = []
    for item in filter(None, (s.strip() for s in text.split(";"))):
        name, sep, value = item.partition("=")
        if not sep or not name.strip():
            raise InterpError(f"column vars: {item!r} is not NAME=VALUE",
                              SourceLocation(path, line), hint="vars is e.g. N=1024;NITER=10")
        out.append((name.strip().lower(), value.strip()))
    return tuple(out)


def _number(value, col: str, path: str, line: int) -> float:
    """A finite number from a CSV field or JSON value, or an error naming the line."""
    if isinstance(value, bool) or not isinstance(value, (str, int, float)):
        raise InterpError(f"column {col}: {value!r} is not a number", SourceLocation(path, line))
    try:
        x = float(value)
    except ValueError:
        what = "empty" if not str(value).strip() else f"{str(value).strip()!r} is not a number"
        raise InterpError(f"column {col}: {what}", SourceLocation(path, line)) from None
    if not math.isfinite(x):
        raise InterpError(f"column {col}: {str(value).strip()} is not a measurement",
                          SourceLocation(path, line), hint="a NaN or infinite time means the run "
                          "failed; remove the row or re-run it")
    return x
