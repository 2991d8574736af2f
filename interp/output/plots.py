"""Pictures of a prediction (matplotlib, Agg backend), each returned as PNG bytes.

* :func:`breakdown_chart` — per process, a stacked bar of computation, call overhead,
  transmission, waiting and idle;
* :func:`sweep_chart` — predicted time against one input or against P;
* :func:`saag_chart` — the SAAG: each process's chain of AAUs (compound AAUs that communicate
  opened up) in its own column, with the communication/synchronization edges between them;
* :func:`timeline_chart` — the SAAG in time (a space-time diagram): each process's interpreted
  AAU executions, waiting and messages on the predicted clock.
"""

from __future__ import annotations

import io
import math

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
from matplotlib.patches import FancyArrowPatch, FancyBboxPatch  # noqa: E402

from interp.application import aau as A  # noqa: E402

COLORS = {"computation": "#4c72b0", "call": "#dd8452", "transmission": "#55a868",
          "waiting": "#c44e52", "idle": "#c8c8c8"}
LABELS = {"computation": "computation", "call": "call overhead", "transmission": "transmission",
          "waiting": "waiting", "idle": "idle"}
TYPE_COLORS = {"Seq": "#dbe6f4", "Comm": "#fbe0c8", "Sync": "#f6d0d0", "SyncSeq": "#f6d0d0",
               "Spawn": "#e3d7ef", "Call": "#e8e8e8"}
EDGE_STYLE = {"sync": ("-", "#1f5fa8"), "async": ("--", "#1f8a4c"), "collective": (":", "#8a1f6e")}
KIND_SYMBOL = {"sync": "⇔", "async": "⇒", "collective": "⇐"}


def _png(fig) -> bytes:
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=110, bbox_inches="tight")
    plt.close(fig)
    return buf.getvalue()


def time_unit(seconds: float) -> tuple[float, str]:
    """A scale and unit name that suit ``seconds``."""
    s = abs(seconds)
    if s >= 1 or s == 0:
        return 1.0, "s"
    if s >= 1e-3:
        return 1e3, "ms"
    return 1e6, "µs"


def breakdown_chart(rows: list[dict]) -> bytes:
    """Stacked horizontal bars, one per process (rows from :func:`levels.aag_level`)."""
    cats = ("computation", "call", "transmission", "waiting", "idle")
    top = max((sum(r[c] or 0.0 for c in cats) for r in rows), default=0.0)
    scale, unit = time_unit(top)
    n = len(rows)
    fig, ax = plt.subplots(figsize=(9, min(1.2 + 0.32 * n, 18)))
    labels = [r["process"] for r in rows]
    left = [0.0] * n
    for c in cats:
        widths = [(r[c] or 0.0) * scale for r in rows]
        ax.barh(labels, widths, left=left, color=COLORS[c], label=LABELS[c], height=0.7)
        left = [a + b for a, b in zip(left, widths)]
    ax.invert_yaxis()
    ax.set_xlabel(f"time [{unit}]")
    ax.set_title("Where the time goes, per process", pad=22)
    ax.legend(ncol=5, loc="lower center", bbox_to_anchor=(0.5, 1.0), frameon=False, fontsize=8)
    ax.grid(axis="x", alpha=0.3)
    return _png(fig)


def sweep_chart(xs: list[float], ys: list[float], xlabel: str, title: str,
                given: tuple[float, float] | None = None,
                exact: list[tuple[float, float]] | None = None, log_x: bool = True,
                line_label: str = "formula", ideal: list[float] | None = None,
                base2: bool = False) -> bytes:
    """Predicted time against one variable; the given point marked, exactly re-interpreted
    points (outside the formula's assumptions) drawn apart; ``ideal``: perfect scaling."""
    vals = [y for y in ys] + [y for _, y in exact or []] + ([given[1]] if given else [])
    scale, unit = time_unit(max(vals, default=0.0))
    fig, ax = plt.subplots(figsize=(6.2, 3.6))
    if ideal:
        ax.plot(xs, [y * scale for y in ideal], ":", color="#888888", lw=1.2,
                label="perfect scaling (T₁/P)")
    if xs:
        ax.plot(xs, [y * scale for y in ys], "-" if not base2 else "-o", color="#4c72b0",
                lw=1.8, ms=4, label=line_label)
    if exact:
        ax.plot([x for x, _ in exact], [y * scale for _, y in exact], "s", color="#dd8452",
                ms=5, label="interpreted exactly")
    if given:
        ax.plot([given[0]], [given[1] * scale], "o", color="#c44e52", ms=7, label="given")
    positive = all(x > 0 for x in list(xs) + [x for x, _ in exact or []])
    if base2 and positive and len(xs) > 1:
        ax.set_xscale("log", base=2)
        ax.set_xticks(xs)
        ax.set_xticklabels([f"{x:g}" for x in xs])
        ax.minorticks_off()
    elif log_x and positive and len(xs) > 1 and max(xs) / max(min(xs), 1e-300) >= 20:
        ax.set_xscale("log")
    ys_all = [y for y in vals if y > 0]
    if ys_all and min(ys_all) > 0 and max(ys_all) / min(ys_all) >= (8 if base2 else 50):
        ax.set_yscale("log")
    ax.set_xlabel(xlabel)
    ax.set_ylabel(f"predicted time [{unit}]")
    ax.set_title(title)
    ax.grid(alpha=0.3, which="both")
    ax.legend(fontsize=8, frameon=False)
    return _png(fig)


# ---- the SAAG --------------------------------------------------------------------------------


def _flatten(aaus: list[A.AAU], depth: int = 0) -> list[tuple[A.AAU, int]]:
    """A chain with its communicating compound AAUs opened up (their sub-AAG indented)."""
    out = []
    for a in aaus:
        if isinstance(a, A.Start):
            continue
        if isinstance(a, A.End) and a.kind == "end" and depth > 0:
            continue
        out.append((a, depth))
        if a.COMPOUND and not isinstance(a, A.Call) and a.has_sync():
            out += _flatten(a.children, depth + 1)
    return out


def _shown(processes: list, limit: int) -> tuple[list, int]:
    if len(processes) <= limit:
        return list(processes), 0
    head = processes[: limit - 2]
    tail = processes[-2:]
    return head + tail, len(processes) - limit


def _aau_text(a: A.AAU) -> str:
    call = getattr(a, "call", None)
    if call is not None:
        return f"{call.name} #{a.id}"
    if isinstance(a, A.Call):
        return f"CALL {a.callee} #{a.id}"
    if isinstance(a, A.End):
        return f"End ({a.kind})" if a.kind != "end" else f"End #{a.id}"
    return f"{a.type} #{a.id}"


def saag_chart(pred, limit: int = 8) -> tuple[bytes, str | None]:
    """The SAAG: per-process chains and their edges (and a note when columns were left out)."""
    procs = sorted(pred.processes, key=lambda p: (p.label != "host", p.pid))
    shown, hidden = _shown(procs, limit)
    chains = {p.pid: _flatten(p.program.aaus) for p in shown}
    rows = max((len(c) for c in chains.values()), default=1)
    col_w, row_h = 2.3, 0.62
    fig_w = max(4.0, col_w * len(shown) + 0.6)
    fig_h = max(2.5, row_h * rows + 1.4)
    fig, ax = plt.subplots(figsize=(min(fig_w, 22), min(fig_h, 30)))
    ax.set_xlim(-0.2, col_w * len(shown))
    ax.set_ylim(-(rows + 0.3) * row_h, 0.9)
    ax.axis("off")
    pos: dict[tuple[int, int], tuple[float, float]] = {}
    for ci, p in enumerate(shown):
        x0 = ci * col_w + 0.1
        ax.text(x0 + (col_w - 0.3) / 2, 0.55, f"{p.label}\n({p.program.name})", ha="center",
                va="center", fontsize=8.5, weight="bold")
        prev = None
        for ri, (a, depth) in enumerate(chains[p.pid]):
            y = -ri * row_h
            x = x0 + 0.14 * depth
            w = col_w - 0.35 - 0.14 * depth
            ax.add_patch(FancyBboxPatch((x, y - 0.22), w, 0.44, boxstyle="round,pad=0.02",
                                        fc=TYPE_COLORS.get(a.type, "#f2f2f2"), ec="#555555", lw=0.7))
            ax.text(x + 0.06, y, f"{_aau_text(a)}  l.{a.loc.line}", va="center", fontsize=7)
            pos[(p.pid, a.id)] = (x, y, w)
            if prev is not None:
                ax.annotate("", xy=(x + 0.25, y + 0.22), xytext=(prev[0] + 0.25, prev[1] - 0.22),
                            arrowprops=dict(arrowstyle="-|>", color="#888888", lw=0.6,
                                            shrinkA=0, shrinkB=0))
            prev = (x, y)
    index = {p.label: p.pid for p in shown}
    drawn = set()
    for e in pred.scheduler.edges.values():
        src = index.get(e.src.split(" (")[0])
        dst = index.get(e.dst)
        if src is None or dst is None or src == dst:
            continue
        a, b = pos.get((src, e.src_aau)), pos.get((dst, e.dst_aau))
        if a is None:  # a relayed broadcast leaves the relay from its own receive
            a = pos.get((src, e.dst_aau))
        if a is None or b is None:
            continue
        key = (src, e.src_aau, dst, e.dst_aau)
        if key in drawn:
            continue
        drawn.add(key)
        style, color = EDGE_STYLE.get(e.kind, ("-", "black"))
        right = b[0] > a[0]
        xa = a[0] + a[2] if right else a[0]
        xb = b[0] if right else b[0] + b[2]
        arrow = FancyArrowPatch((xa, a[1]), (xb, b[1]), arrowstyle="-|>", mutation_scale=9,
                                color=color, lw=0.9, linestyle=style,
                                connectionstyle="arc3,rad=0.08", alpha=0.85)
        ax.add_patch(arrow)
        count = pred.evaluate(e.count)
        times = f"×{int(count)}" if count.is_number and float(count).is_integer() else f"×{e.count}"
        ax.text((xa + xb) / 2, (a[1] + b[1]) / 2 + 0.07, f"{KIND_SYMBOL.get(e.kind, '')} "
                f"{e.size} B {times}", fontsize=6, color=color, ha="center",
                bbox=dict(fc="white", ec="none", alpha=0.7, pad=0.5))
    note = None
    if hidden:
        left_out = procs[limit - 2: len(procs) - 2]
        note = (f"{hidden} processes are not drawn ({left_out[0].label} … {left_out[-1].label}); "
                "their chains are like their neighbours'")
    return _png(fig), note


def timeline_chart(pred, num, max_spans: int = 60000) -> tuple[bytes, str | None]:
    """A space-time diagram from the recorded trace: sequential work, communication calls and
    waiting per process, and every message as a line from departure to arrival."""
    procs = sorted(pred.processes, key=lambda p: (p.label != "host", p.pid))
    by_id = pred.aag.by_id()
    lane = {p.pid: i for i, p in enumerate(procs)}
    boxes = {"computation": {}, "communication": {}, "waiting": {}}
    end = 0.0
    total = 0
    for p in procs:
        for s in p.trace or []:
            a = by_id.get(s.aau)
            if s.name == "waiting":
                kind = "waiting"
            elif a is not None and a.type in ("Comm", "Sync", "SyncSeq", "Spawn"):
                kind = "communication"
            elif a is not None and (a.type == "Seq" or not a.has_sync()):
                kind = "computation"
            else:
                continue  # compound AAUs that communicate: their parts are drawn
            t0, t1 = num(s.start, "the timeline"), num(s.end, "the timeline")
            boxes[kind].setdefault(lane[p.pid], []).append((t0, t1 - t0))
            end = max(end, t1)
            total += 1
    scale, unit = time_unit(end)
    n = len(procs)
    fig, ax = plt.subplots(figsize=(10, min(1.4 + 0.38 * n, 20)))
    colors = {"computation": COLORS["computation"], "communication": COLORS["call"],
              "waiting": COLORS["waiting"]}
    for kind, lanes in boxes.items():
        first = True
        for i, spans in lanes.items():
            if len(spans) > max_spans:
                spans = spans[:max_spans]
            ax.broken_barh([(t * scale, max(d * scale, 0.0)) for t, d in spans], (i - 0.35, 0.7),
                           facecolors=colors[kind], label=kind if first else None, lw=0)
            first = False
    msgs = pred.scheduler.trace or []
    for m in msgs[:5000]:
        if m.src not in lane or m.dst not in lane:
            continue
        ax.plot([num(m.depart) * scale, num(m.arrival) * scale], [lane[m.src], lane[m.dst]],
                color="#333333", lw=0.5, alpha=0.6)
    note = None
    if any("steady state" in x for x in pred.notes):
        note = ("iterations added in closed form by the steady-state extension were not "
                "interpreted one by one and do not appear (the time after them is shifted)")
        for i, (g0, g1) in enumerate(_gaps(boxes, end)):
            ax.axvspan(g0 * scale, g1 * scale, color="#f3ecd2", zorder=0, lw=0,
                       label="iterations added in closed form" if i == 0 else None)
    ax.set_yticks(range(n))
    ax.set_yticklabels([p.label for p in procs], fontsize=8)
    ax.invert_yaxis()
    ax.set_xlabel(f"predicted time [{unit}]")
    ax.set_title("The SAAG in time: interpreted AAU executions and messages", pad=22)
    ax.legend(fontsize=8, ncol=4, loc="lower center", bbox_to_anchor=(0.5, 1.0), frameon=False)
    ax.grid(axis="x", alpha=0.3)
    if end > 0 and math.isfinite(end):
        ax.set_xlim(0, end * scale * 1.01)
    return _png(fig), note


def _gaps(boxes: dict, end: float) -> list[tuple[float, float]]:
    """Stretches of time in which no process has an interpreted span (after the first one):
    where the steady-state extension added iterations in closed form."""
    spans = sorted((t, t + d) for lanes in boxes.values() for v in lanes.values() for t, d in v)
    out, reach = [], None
    for t0, t1 in spans:
        if reach is not None and t0 - reach > 0.01 * end:
            out.append((reach, t0))
        reach = t1 if reach is None else max(reach, t1)
    return out
