"""Statistics at the core paper's three levels (§3.5, Output Module).

* **AAG level** — the whole application: cumulative time per process, the computation /
  communication split and idle time (:func:`aag_level`, :func:`summary_line`).
* **Sub-AAG level** — a part of the AAG: a line range of a file (``node.f:20-31``), a whole
  file (``node.f``) or a program unit (``SOLVE``: every call of it; a main program: its whole
  chain). Statistics are summed over the *outermost* AAUs of the part, so nested AAUs are not
  counted twice; a CALL whose callee's body is itself inside the range counts only its call
  overhead (the body is counted once, through its own AAUs).
* **AAU level** — one AAU (``aau:12``): its type, location, Table-4 parameters, and per
  process its first activation τ, executions and δ; for communication AAUs, its SAAG edges.

``--at WHERE`` on ``interp predict`` selects a level; :func:`resolve` parses WHERE and explains a
WHERE it does not know (with a did-you-mean).
"""

from __future__ import annotations

import difflib
import re
from dataclasses import dataclass, field
from pathlib import Path

import sympy as sp
from rich.console import Group
from rich.table import Table
from rich.text import Text

from interp.application.expr import as_sympy
from interp.application import aau as A
from interp.engine.omega import call_overhead
from interp.engine.predict import Prediction
from interp.engine.process import CATEGORIES, Process
from interp.errors import InterpError
from interp.output.graph_view import children_ids
from interp.output.numbers import Numbers, count_text, seconds_text

COMM_TYPES = frozenset({"Comm", "Sync", "SyncSeq", "Spawn"})
SKIP_TYPES = frozenset({"Start", "End"})
KIND_SYMBOL = {"sync": "⇔", "async": "⇒", "collective": "⇐"}


# ---- the AAG level ---------------------------------------------------------------------------


def aag_level(pred: Prediction) -> dict:
    """Per process and summed: computation, communication (call overhead + transmission +
    waiting), idle. Values are numbers at the inputs given (None where they stay symbolic)."""
    num = Numbers(pred)
    rows = []
    for r in pred.process_rows():
        row = {"process": r["process"], "pid": r["pid"]}
        for c in (*CATEGORIES, "idle"):
            row[c] = num.get(r[c])
        parts = [row[c] for c in ("call", "transmission", "waiting")]
        row["communication"] = None if None in parts else sum(parts)
        busy = [row[c] for c in CATEGORIES]
        row["busy"] = None if None in busy else sum(busy)
        rows.append(row)
    keys = (*CATEGORIES, "idle", "communication", "busy")
    total = {k: (None if any(r[k] is None for r in rows) else sum(r[k] for r in rows))
             for k in keys}
    span = None if total["busy"] is None or total["idle"] is None else total["busy"] + total["idle"]
    return {"processes": rows, "total": total, "process_time": span,
            "seconds": pred.seconds, "headline": pred.headline}


def _pct(part: float | None, whole: float | None) -> str:
    if part is None or not whole:
        return ""
    return f" ({100 * part / whole:.1f}%)"


def summary_line(pred: Prediction) -> str:
    """One line: the computation/communication split and idle time over all processes."""
    lv = aag_level(pred)
    t, whole = lv["total"], lv["process_time"]
    n = len(lv["processes"])
    return (f"Over all {n} process{'es' if n != 1 else ''}: computation "
            f"{seconds_text(t['computation'])}{_pct(t['computation'], whole)} · communication "
            f"{seconds_text(t['communication'])}{_pct(t['communication'], whole)} (call overhead "
            f"{seconds_text(t['call'])}, transmission {seconds_text(t['transmission'])}, waiting "
            f"{seconds_text(t['waiting'])}) · idle {seconds_text(t['idle'])}{_pct(t['idle'], whole)}")


# ---- selections ------------------------------------------------------------------------------


@dataclass
class Selection:
    """What ``--at WHERE`` names: the AAUs to count and how."""

    where: str
    kind: str  # aag | lines | unit | aau
    title: str
    aaus: list[A.AAU] = field(default_factory=list)
    own_only: set[int] = field(default_factory=set)  # Call ids counted by their overhead only
    notes: list[str] = field(default_factory=list)
    file: str | None = None
    lines: tuple[int, int] | None = None


_RANGE = re.compile(r"^(?P<file>.+?):(?P<lo>\d+)(?:\s*-\s*(?P<hi>\d+))?$")


def _lines(a: A.AAU) -> str:
    return f"{a.loc.line}" if a.end_line == a.loc.line else f"{a.loc.line}-{a.end_line}"


def describe(a: A.AAU) -> str:
    extra = f" CALL {a.callee}" if isinstance(a, A.Call) else ""
    return f"{a.type} #{a.id}{extra} ({Path(a.loc.file).name}:{_lines(a)})"


def _parents(pred: Prediction) -> dict[int, A.AAU]:
    out = {}
    for a in pred.aag.all_aaus():
        for c in a.children:
            out[c.id] = a
    return out


def _match_file(pred: Prediction, name: str, where: str | None = None) -> str:
    files = list(pred.aag.files)
    norm = str(Path(name))
    for f in files:
        if str(Path(f)) == norm:
            return f
    hits = [f for f in files if Path(f).name == Path(name).name and
            (str(Path(f)).endswith(norm) or "/" not in name)]
    if len(hits) == 1:
        return hits[0]
    if len(hits) > 1:
        raise InterpError(f"--at {where or name}: several files are named {Path(name).name}: "
                          + ", ".join(hits), hint="give more of the path")
    close = difflib.get_close_matches(Path(name).name, [Path(f).name for f in files], n=1)
    raise InterpError(f"--at {where or name}: {name} is not one of the program's files ("
                      + ", ".join(files) + ")",
                      hint=f"did you mean {close[0]}?" if close else
                      "name a file given on the command line, e.g. --at "
                      f"{Path(files[0]).name}:10-20")


def resolve(pred: Prediction, where: str) -> Selection:
    """Parse WHERE: ``aag``, ``aau:ID``, ``FILE:LO-HI``, ``FILE:LINE``, ``FILE`` or a unit name."""
    text = where.strip()
    if text.lower() in ("aag", "all", "program"):
        return Selection(where, "aag", "the whole application (AAG level)")
    m = re.fullmatch(r"(?i)aau\s*[:#]\s*(\S*)", text) or re.fullmatch(r"#(\S+)", text)
    if m:
        return _select_aau(pred, where, m.group(1))
    m = _RANGE.match(text)
    if m:
        lo = int(m.group("lo"))
        hi = int(m.group("hi")) if m.group("hi") else lo
        return _select_lines(pred, where, _match_file(pred, m.group("file"), where), lo, hi)
    if any(Path(f).name == Path(text).name or str(Path(f)) == str(Path(text))
           for f in pred.aag.files) or text.lower().endswith((".f", ".for", ".f77")):
        file = _match_file(pred, text, where)
        return _select_lines(pred, where, file, 1, 10**9, whole=True)
    return _select_unit(pred, where, text)


def _select_aau(pred: Prediction, where: str, ident: str) -> Selection:
    by_id = pred.aag.by_id()
    hint = f"AAUs are numbered {min(by_id)} to {max(by_id)}; `interp graph FILES` lists them"
    if not ident.isdigit():
        raise InterpError(f"--at {where}: expected aau:NUMBER, e.g. aau:{min(by_id)}", hint=hint)
    a = by_id.get(int(ident))
    if a is None:
        raise InterpError(f"--at {where}: the program has no AAU {ident}", hint=hint)
    return Selection(where, "aau", f"AAU {describe(a)}", [a])


def _select_lines(pred: Prediction, where: str, file: str, lo: int, hi: int,
                  whole: bool = False) -> Selection:
    if lo > hi:
        raise InterpError(f"--at {where}: the range ends before it starts",
                          hint=f"write the first line first, e.g. {Path(file).name}:{hi}-{lo}")
    in_file = [a for a in pred.aag.all_aaus() if a.loc.file == file or
               str(Path(a.loc.file)) == str(Path(file))]
    inside = [a for a in in_file if lo <= a.loc.line and a.end_line <= hi
              and a.type not in SKIP_TYPES]
    name = Path(file).name
    title = f"{name} (the whole file)" if whole else f"{name}:{lo}" + (f"-{hi}" if hi != lo else "")
    sel = Selection(where, "lines", title, file=file, lines=(lo, hi))
    if not inside:
        around = [a for a in in_file if a.loc.line <= lo and hi <= a.end_line
                  and a.type not in SKIP_TYPES]
        if not around:
            spans = sorted((a.loc.line, a.end_line) for a in in_file if a.type not in SKIP_TYPES)
            near = min(spans, key=lambda s: min(abs(s[0] - lo), abs(s[1] - hi)), default=None)
            raise InterpError(
                f"--at {where}: no AAU lies on lines {lo}-{hi} of {name} (comments, "
                "declarations or blank lines only)",
                hint=(f"the nearest AAU is on lines {near[0]}-{near[1]}; `interp graph "
                      f"{file}` lists them all") if near else f"{name} has no executable statements")
        inner = min(around, key=lambda a: a.end_line - a.loc.line)
        sel.aaus = [inner]
        sel.notes.append(f"no AAU lies wholly on lines {lo}-{hi}; the innermost AAU that "
                         f"contains them is shown: {describe(inner)}")
        return sel
    chosen = {a.id for a in inside}
    parents = _parents(pred)

    def nested(a: A.AAU) -> bool:
        p = parents.get(a.id)
        while p is not None:
            if p.id in chosen:
                return True
            p = parents.get(p.id)
        return False

    sel.aaus = [a for a in sorted(inside, key=lambda a: (a.loc.line, a.id)) if not nested(a)]
    for a in sel.aaus:
        if isinstance(a, A.Call):
            body = [x.id for x in pred.aag.units[a.callee].walk()] if a.callee in pred.aag.units else []
            if any(x in chosen for x in body):
                sel.own_only.add(a.id)
                sel.notes.append(f"CALL {a.callee} at line {a.loc.line} counts only its call "
                                 f"overhead: the body of {a.callee} is inside the range and is "
                                 "counted through its own AAUs")
    partial = [a for a in in_file if a.type not in SKIP_TYPES and a.id not in chosen
               and (a.loc.line < lo <= a.end_line < hi or lo < a.loc.line <= hi < a.end_line)]
    partial = [a for a in partial if not any(parents.get(a.id) is x for x in partial)]
    if partial:
        sel.notes.append("partly inside the range and not counted: "
                         + ", ".join(describe(a) for a in partial))
    return sel


def _select_unit(pred: Prediction, where: str, text: str) -> Selection:
    units = pred.aag.units
    name = text.upper()
    if name not in units:
        files = [Path(f).name for f in pred.aag.files]
        choices = list(units) + files + ["aag"]
        close = difflib.get_close_matches(name, list(units), n=1) or \
            difflib.get_close_matches(text, files + ["aag"], n=1)
        raise InterpError(
            f"--at {where}: not a program unit, file, line range or AAU",
            hint=(f"did you mean {close[0]}? " if close else "") + "WHERE is one of: "
                 + ", ".join(choices) + ", FILE:FIRST-LAST (a line range) or aau:ID")
    unit = units[name]
    if unit.kind == "PROGRAM":
        aaus = [a for a in unit.aaus if a.type not in SKIP_TYPES]
        return Selection(where, "unit", f"PROGRAM {name} (its whole chain)", aaus)
    calls = [a for a in pred.aag.all_aaus() if isinstance(a, A.Call) and a.callee == name]
    sel = Selection(where, "unit", f"{unit.kind} {name} (all its calls)", calls)
    if not calls:
        refs = [a for a in pred.aag.all_aaus() if isinstance(a, A.Seq) and name in a.ops.user_calls]
        if refs:
            sel.notes.append(f"{unit.kind} {name} is not CALLed: it is evaluated inside "
                             "expressions, and its time is part of the Seq AAUs that use it: "
                             + ", ".join(describe(a) for a in refs))
        else:
            sel.notes.append(f"{unit.kind} {name} is never called")
    return sel


# ---- statistics of a selection -----------------------------------------------------------------


def _callee_ran(p: Process, a: A.Call, pred: Prediction) -> bool:
    unit = pred.aag.units.get(a.callee)
    return unit is not None and any(x.id in p.stats for x in unit.aaus)


def contribution(p: Process, a: A.AAU, pred: Prediction, own_only: set[int]):
    """δ of ``a`` on ``p`` as counted in a selection (None when it never ran there)."""
    st = p.stats.get(a.id)
    if st is None:
        return None
    if a.id in own_only and isinstance(a, A.Call) and _callee_ran(p, a, pred):
        return st.count * call_overhead(p, a)
    return st.total


def _closure(sel: Selection, pred: Prediction) -> tuple[set[int], list[str]]:
    """Every AAU whose time is inside the counted AAUs (through calls whose every call site is
    inside too), and the callees shared with code outside (their split is not separable)."""
    inside: set[int] = set()
    for a in sel.aaus:
        inside.update(x.id for x in a.walk())
    callers: dict[str, list[int]] = {}
    for a in pred.aag.all_aaus():
        if isinstance(a, A.Call):
            callers.setdefault(a.callee, []).append(a.id)
    added = True
    while added:
        added = False
        for name, ids in callers.items():
            unit = pred.aag.units.get(name)
            if unit is None or unit.aaus[0].id in inside:
                continue
            if any(i in inside and i not in sel.own_only for i in ids) and all(i in inside for i in ids):
                inside.update(x.id for x in unit.walk())
                added = True
    shared = sorted({name for name, ids in callers.items()
                     if any(i in inside and i not in sel.own_only for i in ids)
                     and name in pred.aag.units and pred.aag.units[name].aaus[0].id not in inside
                     and any(x.has_sync() for x in pred.aag.units[name].aaus)})
    return inside, shared


@dataclass
class Level:
    """Statistics of one ``--at`` selection."""

    selection: Selection
    rows: list[dict]  # per process
    total: dict
    details: dict = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)

    @property
    def kind(self) -> str:
        return self.selection.kind


def level(pred: Prediction, where: str) -> Level:
    """The statistics ``--at WHERE`` asks for."""
    sel = resolve(pred, where)
    if sel.kind == "aag":
        lv = aag_level(pred)
        return Level(sel, lv["processes"], lv["total"], {"seconds": pred.seconds,
                                                          "summary": summary_line(pred)})
    num = Numbers(pred)
    by_id = pred.aag.by_id()
    inside, shared = _closure(sel, pred)
    comm_ids = [i for i in inside if by_id[i].type in COMM_TYPES]
    notes = list(sel.notes)
    if shared:
        notes.append("the communication part is not separable: " + ", ".join(shared)
                     + " communicates and is also called from outside this part")
    rows = []
    for p in pred.processes:
        parts = [(a, contribution(p, a, pred, sel.own_only)) for a in sel.aaus]
        parts = [(a, d) for a, d in parts if d is not None]
        if not parts:
            continue
        delta_expr = sp.Add(*[as_sympy(d) for _, d in parts])
        taus = [num.get(p.stats[a.id].tau) for a, _ in parts]
        taus = [t for t in taus if t is not None]
        counts = [num.get(p.stats[a.id].count) for a, _ in parts]
        comm = None
        if not shared:
            comm = sum(num.get(p.stats[i].total) or 0.0 for i in comm_ids if i in p.stats)
        busy = num.get(sum(p.cats.values()))
        delta = num.get(delta_expr)
        rows.append({
            "process": p.label, "pid": p.pid,
            "tau": min(taus) if taus else None,
            "executions": None if None in counts else sum(counts),
            "delta": delta, "delta_formula": str(delta_expr),
            "communication": comm,
            "computation": None if comm is None or delta is None else delta - comm,
            "share": None if delta is None or not busy else delta / busy,
        })

    def add(key):
        vals = [r[key] for r in rows]
        return None if not vals or None in vals else sum(vals)

    total = {"delta": add("delta"), "executions": add("executions"),
             "communication": add("communication"), "computation": add("computation"),
             "tau": min((r["tau"] for r in rows if r["tau"] is not None), default=None)}
    busy_all = sum(num.get(sum(p.cats.values())) or 0.0 for p in pred.processes)
    total["share"] = total["delta"] / busy_all if total["delta"] is not None and busy_all else None
    details = {"aaus": [_aau_brief(pred, a, num, sel.own_only) for a in sel.aaus]}
    if sel.kind == "aau":
        details.update(_aau_details(pred, sel.aaus[0], num))
    if rows and any(r["tau"] is None for r in rows):
        parents = _parents(pred)
        anc = parents.get(sel.aaus[0].id) if len(sel.aaus) == 1 else None
        while anc is not None and not any(p.stats.get(anc.id) is not None and
                                          p.stats[anc.id].tau is not None for p in pred.processes):
            anc = parents.get(anc.id)
        notes.append("first τ is not recorded where an AAU runs inside a sub-AAG evaluated in "
                     "closed form (Ω of the enclosing loop or branch)"
                     + (f"; that sub-AAG starts at the τ of aau:{anc.id}" if anc else ""))
    if not rows and not notes:
        notes.append("this part never ran in the interpreted configuration")
    return Level(sel, rows, total, details, notes)


def _aau_brief(pred: Prediction, a: A.AAU, num: Numbers, own_only: set[int]) -> dict:
    total = 0.0
    count = 0.0
    for p in pred.processes:
        d = contribution(p, a, pred, own_only)
        if d is not None:
            total += num.get(d) or 0.0
            count += num.get(p.stats[a.id].count) or 0.0
    return {"id": a.id, "type": a.type, "unit": a.unit, "file": a.loc.file, "line": a.loc.line,
            "end_line": a.end_line, "executions": count, "delta": total,
            "call_overhead_only": a.id in own_only}


def _aau_details(pred: Prediction, a: A.AAU, num: Numbers) -> dict:
    parents = _parents(pred)
    chain = []
    p = parents.get(a.id)
    while p is not None:
        chain.append(describe(p))
        p = parents.get(p.id)
    per_exec = []
    for proc in pred.processes:
        st = proc.stats.get(a.id)
        if st is None:
            continue
        c, d = num.get(st.count), num.get(st.total)
        per_exec.append({"process": proc.label, "tau": num.get(st.tau), "executions": c,
                         "delta": d, "delta_per_execution": d / c if c and d is not None else None,
                         "delta_formula": str(st.total), "count_formula": str(st.count)})
    edges = []
    for e in pred.scheduler.edges.values():
        if a.id in (e.src_aau, e.dst_aau):
            edges.append({"kind": e.kind, "relation": KIND_SYMBOL.get(e.kind, "?"),
                          "src": e.src, "src_aau": e.src_aau, "dst": e.dst, "dst_aau": e.dst_aau,
                          "size": e.size, "tag": e.tag, "count": num.get(e.count),
                          "count_formula": str(e.count)})
    return {"type": a.type, "unit": a.unit, "location": f"{a.loc.file}:{_lines(a)}",
            "column": a.loc.column, "params": a.params(), "children": children_ids(a),
            "inside": chain, "per_process": per_exec, "edges": edges}


# ---- views -----------------------------------------------------------------------------------


def to_json(lv: Level) -> dict:
    sel = lv.selection
    return {"where": sel.where, "level": {"aag": "AAG", "aau": "AAU"}.get(sel.kind, "sub-AAG"),
            "kind": sel.kind, "title": sel.title, "processes": lv.rows, "total": lv.total,
            "details": lv.details, "notes": lv.notes}


def _n(v: float | None) -> str:
    return "—" if v is None else count_text(v)


def render_text(lv: Level) -> Group:
    sel = lv.selection
    parts: list = []
    name = {"aag": "AAG level", "aau": "AAU level"}.get(sel.kind, "Sub-AAG level")
    head = Text()
    head.append(f"\n{name}: ", style="bold")
    head.append(sel.title, style="bold cyan")
    parts.append(head)
    if sel.kind == "aag":
        t = Table(title_justify="left")
        cols = ("computation", "communication", "call", "transmission", "waiting", "idle")
        t.add_column("process")
        for c in cols:
            t.add_column({"call": "call overhead"}.get(c, c), justify="right")
        for r in lv.rows + [{"process": "total", **lv.total}]:
            t.add_row(r["process"], *[seconds_text(r[c]) for c in cols])
        parts += [t, Text(lv.details["summary"])]
        return Group(*parts)
    if sel.kind == "aau":
        d = lv.details
        info = Text()
        info.append(f"  {d['type']} in {d['unit']} at {d['location']}\n")
        if d["inside"]:
            info.append("  inside " + " ⊂ ".join(d["inside"]) + "\n")
        if d["children"]:
            info.append("  sub-AAG: " + ", ".join(f"#{c}" for c in d["children"]) + "\n")
        info.append("  Table 4 parameters:\n", style="bold")
        for k, v in d["params"].items():
            info.append(f"    {k}: {v}\n")
        parts.append(info)
    elif lv.details.get("aaus"):
        info = Text("  counted (outermost) AAUs: " + ", ".join(
            describe_brief(b) for b in lv.details["aaus"]) + "\n")
        parts.append(info)
    if lv.rows:
        t = Table(title_justify="left")
        t.add_column("process")
        t.add_column("first τ", justify="right")
        t.add_column("executions", justify="right")
        t.add_column("δ total", justify="right")
        if sel.kind == "aau":
            t.add_column("δ per execution", justify="right")
        else:
            t.add_column("computation", justify="right")
            t.add_column("communication", justify="right")
        t.add_column("share of busy time", justify="right")
        per_exec = {r["process"]: r for r in lv.details.get("per_process", [])}
        for r in lv.rows + [{"process": "total", **lv.total}]:
            cells = [r["process"], seconds_text(r["tau"]) if r["tau"] is not None else "—",
                     _n(r["executions"]), seconds_text(r["delta"])]
            if sel.kind == "aau":
                pe = per_exec.get(r["process"], {}).get("delta_per_execution")
                if r["process"] == "total" and r["delta"] is not None and r["executions"]:
                    pe = r["delta"] / r["executions"]
                cells.append(seconds_text(pe) if pe is not None else "—")
            else:
                cells += [seconds_text(r["computation"]) if r["computation"] is not None else "—",
                          seconds_text(r["communication"]) if r["communication"] is not None else "—"]
            cells.append(f"{100 * r['share']:.1f}%" if r.get("share") is not None else "—")
            t.add_row(*cells)
        parts.append(t)
    if sel.kind == "aau" and lv.details.get("edges"):
        t = Table(title="SAAG edges of this AAU", title_justify="left")
        for c in ("", "from", "to", "size [B]", "type/tag", "count"):
            t.add_column(c)
        for e in lv.details["edges"]:
            t.add_row(e["relation"], f"{e['src']} #{e['src_aau']}", f"{e['dst']} #{e['dst_aau']}",
                      str(e["size"]), "" if e["tag"] is None else str(e["tag"]),
                      _n(e["count"]) if e["count"] is not None else e["count_formula"])
        parts.append(t)
    for n in lv.notes:
        parts.append(Text(f"  note: {n}", style="dim"))
    return Group(*parts)


def describe_brief(b: dict) -> str:
    lines = f"line {b['line']}" if b["end_line"] == b["line"] else \
        f"lines {b['line']}-{b['end_line']}"
    extra = ", call overhead only" if b.get("call_overhead_only") else ""
    return f"{b['type']} #{b['id']} ({lines}{extra})"


__all__ = ["Level", "Selection", "aag_level", "level", "resolve", "render_text", "summary_line",
           "to_json", "contribution", "call_overhead"]
