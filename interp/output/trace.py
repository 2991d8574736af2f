"""Export a prediction as a Chrome trace (JSON object format): Perfetto and chrome://tracing.

One track per process (its own pid, one thread, ``process_name``/``thread_name`` metadata);
an ``X`` (complete) event per interpreted AAU execution — compound AAUs enclose their
sub-AAG's events — with waiting as its own span inside the communication call; and a flow
arrow (``s`` on the sender's send span, ``f`` with ``bp: "e"`` on the receiver's receive span,
same ``id``) for every matched message. Times are microseconds of predicted (virtual) time.

Iterations added in closed form by the steady-state extension were never interpreted one by
one, so they have no events; the trace's metadata says so (``otherData``).
"""

from __future__ import annotations

import bisect
from pathlib import Path

from interp.engine.predict import Prediction
from interp.output.files import write_text
from interp.output.numbers import require_numbers
from interp.output import jsontext

US = 1e6
COMM_NAMES = {"Comm", "Sync", "SyncSeq", "Spawn"}


def _us(seconds: float) -> float:
    return round(seconds * US, 3)


def _label(a) -> str:
    call = getattr(a, "call", None)
    if call is not None:
        return f"{call.name} #{a.id}"
    if a.type == "Call":
        return f"CALL {a.callee} #{a.id}"
    if hasattr(a, "var") and a.var:
        return f"{a.type} DO {a.var} #{a.id}"
    return f"{a.type} #{a.id}"


def chrome_trace(pred: Prediction) -> dict:
    """The trace as a JSON-ready dict (needs ``predict(..., trace=True)``)."""
    num = require_numbers(pred, "the trace")
    if pred.scheduler.trace is None or any(p.trace is None for p in pred.processes):
        raise ValueError("the prediction was made without trace=True")
    by_id = pred.aag.by_id()
    events: list[dict] = []
    track: dict[int, int] = {}  # engine pid -> trace pid (host first, then nodes)
    order = sorted(pred.processes, key=lambda p: (p.label != "host", p.pid))
    for i, p in enumerate(order):
        tid = i + 1
        track[p.pid] = tid
        events += [
            {"ph": "M", "name": "process_name", "pid": tid, "tid": tid, "args": {"name": p.label}},
            {"ph": "M", "name": "process_sort_index", "pid": tid, "tid": tid, "args": {"sort_index": i}},
            {"ph": "M", "name": "thread_name", "pid": tid, "tid": tid,
             "args": {"name": f"{p.label} ({p.program.name})"}},
        ]
    spans: dict[tuple[int, int], list[tuple[float, float]]] = {}  # (pid, aau) -> [(ts, end)]
    for p in order:
        tid = track[p.pid]
        slices = []
        for s in p.trace:
            a = by_id.get(s.aau)
            start, end = _us(num(s.start, "the trace")), _us(num(s.end, "the trace"))
            if end < start:
                end = start
            if s.name == "waiting":
                name, cat = "waiting", "waiting"
            else:
                name, cat = _label(a) if a is not None else f"{s.name} #{s.aau}", s.name
                spans.setdefault((p.pid, s.aau), []).append((start, end))
            args = {"aau": s.aau, "type": s.name if s.name != "waiting" else a.type if a else "?"}
            if a is not None:
                args["location"] = f"{a.loc.file}:{a.loc.line}"
                args["file"], args["line"] = a.loc.file, a.loc.line
            slices.append({"ph": "X", "name": name, "cat": cat, "pid": tid, "tid": tid,
                           "ts": start, "dur": round(end - start, 3), "args": args})
        # parents before children: by start, then longest first
        slices.sort(key=lambda e: (e["ts"], -e["dur"], e["cat"] == "waiting"))
        events += slices
    events += _flows(pred, num, track, spans)
    notes = list(pred.notes)
    closed = [n for n in notes if "steady state" in n]
    other = {
        "generator": "interp", "machine": pred.machine.name, "nprocs": pred.nprocs,
        "bound": pred.bound, "files": list(pred.aag.files),
        "inputs": {k: str(v) for k, v in pred.given.items()},
        "predicted_seconds": pred.seconds, "headline": pred.headline,
        "time_unit": "microseconds of predicted time", "notes": notes,
    }
    if closed:
        other["closed_form_iterations"] = (
            "; ".join(closed) + " — those iterations were added in closed form and have no "
            "events in this trace (the time after them is shifted accordingly)")
    return {"traceEvents": events, "displayTimeUnit": "ms", "otherData": other}


def _flows(pred: Prediction, num, track: dict[int, int],
           spans: dict[tuple[int, int], list[tuple[float, float]]]) -> list[dict]:
    """Flow arrows for messages; each ``s`` and ``f`` lies inside a span of its own track."""
    out: list[dict] = []
    used: dict[tuple[int, int], int] = {}
    starts = {k: [s for s, _ in v] for k, v in spans.items()}
    per_track: dict[int, list[tuple[float, float]]] = {}
    for (pid, _aau), v in spans.items():
        per_track.setdefault(pid, []).extend(v)
    for v in per_track.values():
        v.sort()
    track_starts = {pid: [s for s, _ in v] for pid, v in per_track.items()}

    def innermost(pid: int, t: float) -> tuple[float, float] | None:
        """The shortest span of a track that contains ``t`` (a relay has no send AAU of its own)."""
        v = per_track.get(pid, [])
        i = bisect.bisect_right(track_starts.get(pid, []), t)
        best = None
        for j in range(i - 1, max(i - 400, 0) - 1, -1):
            s0, s1 = v[j]
            if s0 <= t <= s1 and (best is None or s1 - s0 < best[1] - best[0]):
                best = (s0, s1)
        return best

    for m in pred.scheduler.trace:
        if m.src not in track or m.dst not in track:
            continue
        dst_spans = spans.get((m.dst, m.dst_aau))
        k = used.get((m.dst, m.dst_aau), 0)
        if not dst_spans or k >= len(dst_spans):
            continue
        used[(m.dst, m.dst_aau)] = k + 1  # receives match messages in order
        depart = _us(num(m.depart, "the trace"))
        arrival = _us(num(m.arrival, "the trace"))
        src_spans = spans.get((m.src, m.src_aau))
        if src_spans:  # the send span that contains the departure (the last one before it)
            i = max(bisect.bisect_right(starts[(m.src, m.src_aau)], depart) - 1, 0)
            s0, s1 = src_spans[i]
        else:
            found = innermost(m.src, depart)
            if found is None:
                continue
            s0, s1 = found
        ts_s = min(max(depart, s0), s1)
        r0, r1 = dst_spans[k]
        ts_f = min(max(arrival, r0), r1)
        if ts_f < ts_s:  # never draw an arrow backwards in time
            ts_f = min(max(ts_s, r0), r1)
        fid = len(out) // 2 + 1
        args = {"size_bytes": str(m.size), "tag": m.tag, "depart_us": depart,
                "arrival_us": arrival}
        out.append({"ph": "s", "id": fid, "name": "message", "cat": "message",
                    "pid": track[m.src], "tid": track[m.src], "ts": ts_s, "args": args})
        out.append({"ph": "f", "id": fid, "bp": "e", "name": "message", "cat": "message",
                    "pid": track[m.dst], "tid": track[m.dst], "ts": ts_f, "args": args})
    return out


def trace_json(pred: Prediction) -> str:
    return jsontext.dumps(chrome_trace(pred), indent=None, separators=(",", ":"))


def write_trace(pred: Prediction, path: str | Path) -> None:
    write_text(path, trace_json(pred), "trace")


__all__ = ["chrome_trace", "trace_json", "write_trace"]
