"""``--trace``: Chrome trace event format (JSON object format) that Perfetto and
chrome://tracing open."""

from __future__ import annotations

import json
from collections import defaultdict

import pytest

from interp.output.trace import chrome_trace

from .conftest import TRAP_ARGS, run, value

EPS = 1e-6  # µs


def check_trace(doc: dict) -> None:
    """The properties a trace viewer relies on."""
    assert isinstance(doc["traceEvents"], list) and doc["displayTimeUnit"] in ("ms", "ns")
    events = doc["traceEvents"]
    names = {}
    for e in events:
        assert {"ph", "pid", "tid"} <= set(e), e
        assert isinstance(e["pid"], int) and isinstance(e["tid"], int)
        if e["ph"] == "M":
            assert e["name"] in ("process_name", "thread_name", "process_sort_index")
            if e["name"] == "process_name":
                names[e["pid"]] = e["args"]["name"]
        elif e["ph"] == "X":
            assert {"name", "cat", "ts", "dur", "args"} <= set(e)
            assert e["dur"] >= 0 and e["ts"] >= 0
            assert ":" in e["args"]["location"] and e["args"]["line"] >= 1
        elif e["ph"] in "sf":
            assert {"id", "ts", "name", "cat"} <= set(e)
        else:
            pytest.fail(f"unexpected event {e}")
    tracks = {e["pid"] for e in events if e["ph"] != "M"}
    assert tracks <= set(names), "every track has a process_name"
    # spans of one track nest properly: disjoint or contained
    spans = defaultdict(list)
    for e in events:
        if e["ph"] == "X":
            spans[e["pid"]].append((e["ts"], e["ts"] + e["dur"]))
    for pid, v in spans.items():
        v.sort(key=lambda s: (s[0], -s[1]))
        stack = []
        for s0, s1 in v:
            while stack and stack[-1] <= s0 + EPS:
                stack.pop()
            if stack:
                assert s1 <= stack[-1] + EPS, f"overlap on track {names[pid]} at {s0}"
            stack.append(s1)
    # every flow start has its end (same id), later in time, each inside a span of its track
    starts = {e["id"]: e for e in events if e["ph"] == "s"}
    ends = {e["id"]: e for e in events if e["ph"] == "f"}
    assert set(starts) == set(ends)
    for fid, s in starts.items():
        f = ends[fid]
        assert f.get("bp") == "e" and f["ts"] >= s["ts"] - EPS
        for e in (s, f):
            assert any(a - EPS <= e["ts"] <= b + EPS for a, b in spans[e["pid"]]), e


def test_trapezoid_trace(trap):
    doc = chrome_trace(trap)
    check_trace(json.loads(json.dumps(doc)))
    events = doc["traceEvents"]
    names = sorted(e["args"]["name"] for e in events if e.get("name") == "process_name")
    assert names == ["host", "node 0", "node 1", "node 2", "node 3"]
    flows = [e for e in events if e["ph"] == "s"]
    assert len(flows) == len(trap.scheduler.trace) == 24  # every message has its arrow
    assert any(e["ph"] == "X" and e["cat"] == "waiting" for e in events)
    assert "closed form" in doc["otherData"]["closed_form_iterations"]
    assert "NITER - 4 more" in doc["otherData"]["closed_form_iterations"]


def test_spans_match_the_interpretation(tiny):
    doc = chrome_trace(tiny)
    check_trace(doc)
    (loop,) = [e for e in doc["traceEvents"] if e["ph"] == "X" and e["args"]["aau"] == 6
               and e["pid"] == 1]
    node0 = next(p for p in tiny.processes if p.label == "node 0")
    assert loop["ts"] == pytest.approx(value(tiny, node0.stats[6].tau) * 1e6, abs=1e-3)
    assert loop["dur"] == pytest.approx(value(tiny, node0.stats[6].total) * 1e6, abs=1e-3)
    assert loop["args"]["file"].endswith("tiny.f") and loop["args"]["line"] == 10
    assert "closed_form_iterations" not in doc["otherData"]


def test_cli_trace(tmp_path):
    out = tmp_path / "t.json"
    result = run("predict", *TRAP_ARGS, "--trace", out)
    assert result.exit_code == 0, result.output
    check_trace(json.loads(out.read_text()))
    assert out.stat().st_mode & 0o044  # readable like any other file, not a private temp
    assert [p.name for p in tmp_path.iterdir()] == ["t.json"]


def test_trace_needs_numbers(tmp_path):
    """N not given: the times stay formulas, so there is no trace to draw (and no file)."""
    result = run("predict", TRAP_ARGS[0], TRAP_ARGS[1], "-P", "2", "--set", "NITER=5",
                 "--trace", tmp_path / "u.json")
    assert result.exit_code == 2 and "N" in result.stderr and "Traceback" not in result.output
    assert not (tmp_path / "u.json").exists()
