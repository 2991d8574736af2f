"""Annotated source: every source line with its predicted time, like a profiler's listing.

Each AAU's δ (per process, from the interpretation's statistics) is put on source lines:

* a Seq AAU's δ is spread over its statements in proportion to their own costs (their
  operation counts priced on the process's SAU, as the engine prices the whole Seq);
* a loop's own overhead (δ minus its body's δ: the fixed and per-iteration costs of Table 1)
  goes on its DO line, a conditional's (conditions tested, branch taken) on its IF line;
* a CALL's own overhead (call, arguments) goes on the CALL line; the callee's body is on its
  own lines (unless ``--routine`` replaced it: then the whole time is on the CALL line);
* Comm, Sync, SyncSeq and Spawn time (call overhead, transmission, waiting) is on the call's line.

So the lines of a process sum to its busy time (computation + communication), and the listing
sums over processes unless one is chosen.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from rich.console import Group
from rich.table import Table
from rich.text import Text

from interp.application import aau as A
from interp.application import ast
from interp.application.aag import UnitAAG, statement_ops
from interp.engine.costs import compute_seconds, hit_ratio
from interp.engine.omega import closed_form_list
from interp.engine.predict import Prediction, own_delta
from interp.engine.process import Process
from interp.engine.values import NotClosedForm
from interp.errors import InterpError
from interp.output.numbers import Numbers, count_text, seconds_text

COMM_TYPES = frozenset({"Comm", "Sync", "SyncSeq", "Spawn"})


@dataclass
class Line:
    number: int
    text: str
    seconds: float = 0.0
    executions: float | None = None
    aaus: list[int] = field(default_factory=list)
    share: float = 0.0


@dataclass
class FileListing:
    path: str
    lines: list[Line]

    @property
    def seconds(self) -> float:
        return sum(ln.seconds for ln in self.lines)


@dataclass
class Annotation:
    files: list[FileListing]
    processes: list[str]
    total: float
    notes: list[str] = field(default_factory=list)  # statements whose weight is unknown

    def hottest(self, n: int = 5) -> list[tuple[str, Line]]:
        rows = [(f.path, ln) for f in self.files for ln in f.lines if ln.seconds > 0]
        rows.sort(key=lambda r: -r[1].seconds)
        return rows[:n]


def select_processes(pred: Prediction, which: str | None) -> list[Process]:
    """``--process``: ``host``, a node/rank number, or a label such as ``node 3``."""
    if which is None:
        return list(pred.processes)
    key = which.strip().lower()
    for p in pred.processes:
        if key == p.label.lower() or (key.isdigit() and p.pid == int(key) and p.label != "host"):
            return [p]
    labels = ", ".join(p.label for p in pred.processes[:6]) + (
        ", ..." if len(pred.processes) > 6 else "")
    numbers = [p.pid for p in pred.processes if p.label != "host"]
    host = "host, or " if len(numbers) < len(pred.processes) else ""
    raise InterpError(f"--process {which}: no such process (the processes are {labels})",
                      hint=f"give {host}a process number from 0 to {max(numbers)}")


class _StatementCosts:
    """Per-statement costs of Seq AAUs on a process's SAU (the weights that spread δ).
    A statement that cannot be priced weighs 0 and gets a note (δ itself stays exact)."""

    def __init__(self, pred: Prediction):
        self.pred = pred
        self.units: dict[str, UnitAAG] = pred.aag.units
        self.cache: dict[tuple, list[float]] = {}
        self.notes: dict[str, None] = {}  # ordered, without repeats

    def weights(self, p: Process, seq: A.Seq) -> list[float]:
        key = (seq.id, id(p.cm))
        if key not in self.cache:
            self.cache[key] = self._compute(p, seq)
        return self.cache[key]

    def _compute(self, p: Process, seq: A.Seq) -> list[float]:
        hit = hit_ratio(seq, self.units[seq.unit].symbols, p.cm)
        out = []
        for stmt, ops in zip(seq.stmts, statement_ops(self.pred.aag, seq)):
            try:
                cost = float(compute_seconds(ops, p.cm, hit))
                for name in ops.user_calls:  # user FUNCTIONs evaluated in the statement
                    cost += self._function(p, name, stmt, seq)
            except (InterpError, TypeError) as err:  # a weight only; δ itself is exact
                self._note(stmt, seq, "its cost", err)
                cost = 0.0
            out.append(max(cost, 0.0))
        return out

    def _function(self, p: Process, name: str, stmt: ast.Stmt, seq: A.Seq) -> float:
        unit = self.units.get(name)
        if unit is None:
            return 0.0
        try:
            return float(_closed_form(p, unit))
        except (NotClosedForm, TypeError) as err:
            self._note(stmt, seq, f"the cost of FUNCTION {name}", err)
            return 0.0

    def _note(self, stmt: ast.Stmt, seq: A.Seq, what: str, err: Exception) -> None:
        if len(seq.stmts) == 1:  # nothing to spread: the line gets the whole δ
            return
        why = {NotClosedForm: "has no closed form (control leaves it, or it must be unrolled)",
               TypeError: "is not a number"}.get(type(err)) or f"is unknown ({err})"
        self.notes[f"{Path(stmt.loc.file).name}:{stmt.loc.line}: {what} {why}; it counts as "
                   f"0 s when Seq AAU {seq.id}'s time is spread over its lines"] = None


def _closed_form(p: Process, unit: UnitAAG):
    """δ of a unit's body in closed form on ``p``."""
    return closed_form_list(p, unit.aaus, p.frame_for(unit), {}, {})


def line_seconds(pred: Prediction, processes: list[Process] | None = None,
                 num: Numbers | None = None,
                 notes: list[str] | None = None) -> dict[tuple[str, int], list]:
    """(file, line) → [seconds, executions, aau ids], summed over ``processes``; the statements
    that could not be weighed are added to ``notes``."""
    num = num or Numbers(pred)
    by_id = pred.aag.by_id()
    costs = _StatementCosts(pred)
    out: dict[tuple[str, int], list] = {}
    local: dict[tuple[str, int], list] = {}

    def put(a: A.AAU, line: int, seconds: float, count: float | None, file: str | None = None):
        slot = local.setdefault((file or a.loc.file, line), [0.0, None, []])
        slot[0] += seconds
        if count is not None:  # several AAUs on one line: the line ran as often as the most
            slot[1] = max(slot[1] or 0.0, count)
        if a.id not in slot[2]:
            slot[2].append(a.id)

    def merge() -> None:  # a process's lines into the sum over processes
        for key, (sec, cnt, ids) in local.items():
            slot = out.setdefault(key, [0.0, None, []])
            slot[0] += sec
            if cnt is not None:
                slot[1] = (slot[1] or 0.0) + cnt
            slot[2].extend(i for i in ids if i not in slot[2])
        local.clear()

    for p in processes if processes is not None else pred.processes:
        for aau_id, st in p.stats.items():
            a = by_id.get(aau_id)
            if a is None:
                continue
            d = num(st.total, "the annotated source")
            count = num.get(st.count)
            if isinstance(a, (A.Start, A.End)):
                if d:
                    put(a, a.loc.line, d, count)
                continue
            if isinstance(a, A.Seq):
                w = costs.weights(p, a)
                whole = sum(w)
                if not a.stmts or whole <= 0:
                    put(a, a.loc.line, d, count)
                    continue
                for stmt, wi in zip(a.stmts, w):
                    put(a, stmt.loc.line, d * wi / whole, count, stmt.loc.file)
            elif a.type in COMM_TYPES:
                put(a, a.loc.line, d, count)
            else:  # CALLs, loops and conditionals: their own overhead on the header line
                put(a, a.loc.line, num(own_delta(p, a, pred.aag), "the annotated source"), count)
        merge()
    if notes is not None:
        notes.extend(costs.notes)
    return out


def annotate(pred: Prediction, process: str | None = None) -> Annotation:
    """The annotated listing of every source file of the program."""
    procs = select_processes(pred, process)
    num = Numbers(pred)
    notes: list[str] = []
    times = line_seconds(pred, procs, num, notes)
    files = []
    for path in pred.aag.files:
        try:
            text = Path(path).read_text(errors="replace").splitlines()
        except OSError as err:
            raise InterpError(f"cannot read {path} for the annotated source: {err.strerror}") from None
        lines = []
        for i, t in enumerate(text, start=1):
            slot = _lookup(times, path, i)
            ln = Line(i, t.rstrip("\n"))
            if slot is not None:
                ln.seconds, ln.executions, ln.aaus = slot[0], slot[1], list(slot[2])
            lines.append(ln)
        files.append(FileListing(path, lines))
    total = sum(f.seconds for f in files)
    for f in files:
        for ln in f.lines:
            ln.share = ln.seconds / total if total else 0.0
    return Annotation(files, [p.label for p in procs], total, notes)


def _lookup(times: dict, path: str, line: int):
    hit = times.get((path, line))
    if hit is None:
        norm = str(Path(path))
        for (f, ln), v in times.items():
            if ln == line and str(Path(f)) == norm:
                return v
    return hit


def _who(ann: Annotation) -> str:
    if len(ann.processes) == 1:
        return f"on {ann.processes[0]}"
    return f"summed over {len(ann.processes)} processes"


def to_json(ann: Annotation) -> dict:
    return {
        "processes": ann.processes, "total_seconds": ann.total,
        "files": [{"file": f.path, "seconds": f.seconds,
                   "lines": [{"line": ln.number, "seconds": ln.seconds, "share": ln.share,
                              "executions": ln.executions, "aaus": ln.aaus, "source": ln.text}
                             for ln in f.lines]}
                  for f in ann.files],
        "notes": ann.notes,
    }


def render_text(ann: Annotation, hot: float = 0.05) -> Group:
    """The listing: line, time, share, executions, source; hot lines highlighted."""
    parts: list = []
    head = Text()
    head.append("Annotated source ", style="bold")
    head.append(f"— predicted time per line, {_who(ann)}; total {seconds_text(ann.total)}\n")
    parts.append(head)
    for f in ann.files:
        t = Table(title=f"{f.path}  ({seconds_text(f.seconds)}, "
                        f"{100 * f.seconds / ann.total if ann.total else 0:.1f}%)",
                  title_justify="left", box=None, pad_edge=False, show_edge=False)
        t.add_column("line", justify="right", style="dim")
        t.add_column("time", justify="right")
        t.add_column("share", justify="right")
        t.add_column("execs", justify="right", style="dim")
        t.add_column("source", no_wrap=True)
        for ln in f.lines:
            timed = ln.seconds > 0 or ln.aaus
            style = "bold red" if ln.share >= hot else None
            t.add_row(str(ln.number), seconds_text(ln.seconds) if timed else "",
                      f"{100 * ln.share:.1f}%" if timed else "", count_text(ln.executions),
                      Text(ln.text, style=style or ("dim" if not timed else "")))
        parts.append(t)
        parts.append(Text(""))
    hottest = ann.hottest()
    if hottest:
        foot = Text("Hottest lines:\n", style="bold")
        for path, ln in hottest:
            foot.append(f"  {Path(path).name}:{ln.number}  {seconds_text(ln.seconds)} "
                        f"({100 * ln.share:.1f}%)  {ln.text.strip()}\n")
        parts.append(foot)
    if ann.notes:
        parts.append(Text("Notes:\n" + "".join(f"  - {n}\n" for n in ann.notes)))
    return Group(*parts)


__all__ = ["Annotation", "FileListing", "Line", "annotate", "line_seconds", "render_text",
           "select_processes", "to_json"]
