"""Statistics at the paper's three levels (§3.5): AAG, sub-AAG (line ranges, units), AAU.

tiny.f on the iPSC/860 spec (mid values), by hand from Table 1/2 of the spec:
add_sub 25 ns, mul 62.5 ns, fetch 25 ns, store 50 ns (every scalar hits the cache),
mynode() 536.15 ns, DO loop: 187.5 ns fixed + 275 ns per iteration, CALL 37.5 ns.
"""

from __future__ import annotations

import json

import pytest

from interp.errors import InterpError
from interp.output import levels

from .conftest import TINY, TRAP_ARGS, busy, run, value

NS = 1e-9
SEQ5 = 3 * 50 * NS + 536.15 * NS  # ME = MYNODE(); X = 1.0; N = 100
SEQ7 = (25 + 25 + 50) * NS  # X = X + 2.0
ITER6 = 187.5 * NS + 25 * NS + 100 * (275 * NS + SEQ7)  # DO 10 I = 1, N (fetching N once)
SEQ2 = (62.5 + 25) * NS + 4 * 25 * NS + 2 * 50 * NS  # B = A * A; B = B + A
CALL8 = 37.5 * NS + SEQ2


def stat(pred, label, aau):
    p = next(p for p in pred.processes if p.label == label)
    return p.stats[aau]


def row(lv, label):
    return next(r for r in lv.rows if r["process"] == label)


def test_aau_level_by_hand(tiny):
    lv = levels.level(tiny, "aau:6")  # the DO loop: τ after the first Seq, δ in closed form
    assert lv.kind == "aau" and lv.details["type"] == "IterD"
    for label in ("node 0", "node 1"):
        r = row(lv, label)
        assert r["tau"] == pytest.approx(SEQ5, rel=1e-9)
        assert r["delta"] == pytest.approx(ITER6, rel=1e-9)
        assert r["executions"] == 1
    assert lv.details["params"]["var"] == "I" and lv.details["params"]["num_iters"]
    assert lv.total["delta"] == pytest.approx(2 * ITER6, rel=1e-9)


def test_aau_level_call_and_nested_seq(tiny):
    call = levels.level(tiny, "aau:8")
    assert row(call, "node 0")["tau"] == pytest.approx(SEQ5 + ITER6, rel=1e-9)
    assert row(call, "node 0")["delta"] == pytest.approx(CALL8, rel=1e-9)
    body = levels.level(tiny, "aau:7")  # inside the closed-form loop: 100 executions, no τ
    r = row(body, "node 1")
    assert r["executions"] == 100 and r["delta"] == pytest.approx(100 * SEQ7, rel=1e-9)
    assert r["tau"] is None and any("closed form" in n for n in body.notes)
    assert body.details["inside"][0].startswith("IterD #6")


def test_aau_level_comm_shows_its_edge(tiny):
    lv = levels.level(tiny, "aau:10")  # CSEND on node 0
    assert [r["process"] for r in lv.rows] == ["node 0"]
    (edge,) = lv.details["edges"]
    assert (edge["src"], edge["dst"], edge["dst_aau"], edge["size"]) == ("node 0", "node 1", 11, "4")
    assert lv.details["params"]["routine"] == "CSEND"


def test_sub_aag_sums_outermost_aaus(tiny):
    lv = levels.level(tiny, "tiny.f:7-13")
    assert [a.id for a in lv.selection.aaus] == [5, 6, 8]  # Seq #7 is inside the loop
    for p in tiny.processes:
        by_hand = SEQ5 + ITER6 + CALL8
        covered = sum(value(tiny, p.stats[i].total) for i in (5, 6, 8))
        assert row(lv, p.label)["delta"] == pytest.approx(covered, rel=1e-12)
        assert row(lv, p.label)["delta"] == pytest.approx(by_hand, rel=1e-9)
        assert row(lv, p.label)["communication"] == 0
    assert lv.total["delta"] == pytest.approx(2 * (SEQ5 + ITER6 + CALL8), rel=1e-9)


def test_sub_aag_nested_is_not_counted_twice(tiny):
    lv = levels.level(tiny, "tiny.f:10-12")
    assert [a.id for a in lv.selection.aaus] == [6]
    assert row(lv, "node 0")["delta"] == pytest.approx(ITER6, rel=1e-9)


def test_call_whose_body_is_in_range_counts_its_overhead_only(tiny):
    whole = levels.level(tiny, "tiny.f")  # the call site and WORK's body are both inside
    assert 8 in whole.selection.own_only
    assert any("call overhead" in n for n in whole.notes)
    for p in tiny.processes:
        assert row(whole, p.label)["delta"] == pytest.approx(busy(tiny, p), rel=1e-9)
    part = levels.level(tiny, "tiny.f:13-26")
    r = row(part, "node 0")
    cond = value(tiny, stat(tiny, "node 0", 9).total)
    assert r["delta"] == pytest.approx(37.5e-9 + cond + SEQ2, rel=1e-9)


def test_unit_level(tiny):
    work = levels.level(tiny, "work")  # a subroutine: all its calls
    assert work.kind == "unit" and [a.id for a in work.selection.aaus] == [8]
    assert row(work, "node 1")["delta"] == pytest.approx(CALL8, rel=1e-9)
    main = levels.level(tiny, "TINY")  # a main program: its whole chain
    for p in tiny.processes:
        assert row(main, p.label)["delta"] == pytest.approx(busy(tiny, p), rel=1e-9)
        assert row(main, p.label)["share"] == pytest.approx(1.0)


def test_trapezoid_loop_range(trap):
    lv = levels.level(trap, "node.f:30-56")
    assert [a.id for a in lv.selection.aaus] == [4]
    assert {r["process"] for r in lv.rows} == {"node 0", "node 1", "node 2", "node 3"}
    for p in trap.processes[1:]:
        r = row(lv, p.label)
        assert r["delta"] == pytest.approx(value(trap, p.stats[4].total), rel=1e-12)
        comm = sum(value(trap, p.stats[i].total) for i in (5, 12, 14) if i in p.stats)
        assert r["communication"] == pytest.approx(comm, rel=1e-9)
        assert r["computation"] + r["communication"] == pytest.approx(r["delta"], rel=1e-9)
    partial = levels.level(trap, "node.f:36-45")
    assert [a.id for a in partial.selection.aaus] == [7]
    assert any("partly inside" in n and "#6" in n for n in partial.notes)


def test_aag_level_split_and_summary_line(trap):
    lv = levels.aag_level(trap)
    t = lv["total"]
    assert t["communication"] == pytest.approx(t["call"] + t["transmission"] + t["waiting"])
    assert t["busy"] == pytest.approx(sum(busy(trap, p) for p in trap.processes))
    line = levels.summary_line(trap)
    for word in ("computation", "communication", "idle", "waiting", "transmission"):
        assert word in line


@pytest.mark.parametrize("where, message, hint", [
    ("aau:999", "no AAU 999", "numbered 1 to"),
    ("aau:x", "expected aau:NUMBER", "interp graph"),
    ("WROK", "not a program unit", "did you mean WORK?"),
    ("tiyn.f:3-4", "not one of the program's files", "did you mean tiny.f?"),
    ("tiny.f:9-3", "ends before it starts", "tiny.f:3-9"),
    ("tiny.f:1-2", "no AAU lies on lines 1-2", "nearest AAU"),
])
def test_unknown_where_is_a_clear_error(tiny, where, message, hint):
    with pytest.raises(InterpError) as err:
        levels.level(tiny, where)
    assert message in err.value.message and hint in (err.value.hint or "")


def test_single_line_inside_a_seq(tiny):
    lv = levels.level(tiny, "tiny.f:11")  # a line of a two-line Seq: its innermost AAU
    assert [a.id for a in lv.selection.aaus] == [7]
    assert any("innermost" in n for n in lv.notes)


def test_cli_at_text_and_json():
    result = run("predict", TINY, "-P", "2", "--at", "aau:6", "--at", "tiny.f:7-13",
                 "--at", "WORK")
    assert result.exit_code == 0, result.output
    assert "AAU level: AAU IterD #6" in result.stdout and "Sub-AAG level: tiny.f:7-13" in result.stdout
    assert "Over all 2 processes: computation" in result.stdout
    result = run("predict", *TRAP_ARGS, "--at", "node.f:30-56", "--format", "json")
    assert result.exit_code == 0, result.output
    doc = json.loads(result.stdout)
    (at,) = doc["at"]
    assert at["level"] == "sub-AAG" and len(at["processes"]) == 4
    assert at["total"]["delta"] == pytest.approx(sum(r["delta"] for r in at["processes"]))


def test_cli_unknown_where():
    result = run("predict", TINY, "-P", "2", "--at", "WROK")
    assert result.exit_code == 2
    assert "did you mean WORK?" in result.stderr and "Traceback" not in result.output
    assert "Predicted time" not in result.stdout  # the error comes before any output
