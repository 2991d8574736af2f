"""The annotated source: time per line, summing to each process's busy time."""

from __future__ import annotations

import json

import pytest

from interp.errors import InterpError
from interp.output import annotate as an

from .conftest import TINY, TRAP_ARGS, busy, run, value

NS = 1e-9


def lines(ann, name):
    f = next(f for f in ann.files if f.path.endswith(name))
    return {ln.number: ln for ln in f.lines}


@pytest.mark.parametrize("which", ["tiny", "trap"])
def test_lines_sum_to_each_process_busy_time(request, which):
    pred = request.getfixturevalue(which)
    for p in pred.processes:
        ann = an.annotate(pred, p.label)
        assert ann.processes == [p.label]
        assert ann.total == pytest.approx(busy(pred, p), rel=1e-9)
        assert sum(ln.seconds for f in ann.files for ln in f.lines) == pytest.approx(ann.total)
    whole = an.annotate(pred)
    assert whole.total == pytest.approx(sum(busy(pred, p) for p in pred.processes), rel=1e-9)
    assert sum(ln.share for f in whole.files for ln in f.lines) == pytest.approx(1.0)


def test_seq_is_spread_by_statement_cost(tiny):
    ln = lines(an.annotate(tiny, "node 0"), "tiny.f")
    # SUBROUTINE WORK: B = A * A (mul + 2 fetch + store) and B = B + A (add + 2 fetch + store)
    assert ln[24].seconds == pytest.approx((62.5 + 50 + 50) * NS, rel=1e-9)
    assert ln[25].seconds == pytest.approx((25 + 50 + 50) * NS, rel=1e-9)
    # the loop body, 100 times; CONTINUE costs nothing
    assert ln[11].seconds == pytest.approx(100 * 100 * NS, rel=1e-9)
    assert ln[12].seconds == 0 and ln[12].executions == 100
    # the DO line: fixed overhead, the bound fetched once, 100 per-iteration overheads
    assert ln[10].seconds == pytest.approx((187.5 + 25 + 100 * 275) * NS, rel=1e-9)
    # the CALL line: the call itself, not WORK's body
    assert ln[13].seconds == pytest.approx(37.5 * NS, rel=1e-9)
    # comments and declarations have no time
    assert ln[1].seconds == 0 and not ln[1].aaus and ln[5].seconds == 0


def test_comm_time_is_on_the_call_line(tiny):
    node0 = next(p for p in tiny.processes if p.label == "node 0")
    node1 = next(p for p in tiny.processes if p.label == "node 1")
    both = lines(an.annotate(tiny), "tiny.f")
    assert both[15].seconds == pytest.approx(value(tiny, node0.stats[10].total), rel=1e-12)
    assert both[17].seconds == pytest.approx(value(tiny, node1.stats[11].total), rel=1e-12)
    # the IF line carries the condition overheads of both nodes
    cond = sum(value(tiny, p.stats[9].total) for p in tiny.processes)
    assert both[14].seconds == pytest.approx(cond - both[15].seconds - both[17].seconds)


def test_executions_summed_over_processes(trap):
    ln = lines(an.annotate(trap), "node.f")
    assert ln[31].executions == 40  # CRECV in the loop: 10 iterations x 4 nodes
    assert ln[46].executions == 10  # only node 0 does the end points
    assert ln[41].executions == 10 * 9999  # N - 1 interior points a time, over all nodes


@pytest.mark.parametrize("which, label", [("1", "node 1"), ("node 1", "node 1"), ("HOST", "host")])
def test_process_selection(trap, which, label):
    assert an.annotate(trap, which).processes == [label]


def test_unknown_process(trap):
    with pytest.raises(InterpError) as err:
        an.annotate(trap, "node 9")
    assert "no such process" in err.value.message and "0 to 3" in err.value.hint


def test_cli_annotate():
    result = run("annotate", *TRAP_ARGS, "--process", "0")
    assert result.exit_code == 0, result.output
    assert "Annotated source" in result.stdout and "on node 0" in result.stdout
    assert "SUM = SUM + 4.0D0/(1.0D0 + X*X)" in result.stdout
    assert "Hottest lines" in result.stdout
    result = run("annotate", TINY, "-P", "2", "--format", "json")
    assert result.exit_code == 0, result.output
    doc = json.loads(result.stdout)
    assert doc["processes"] == ["node 0", "node 1"]
    assert sum(ln["seconds"] for f in doc["files"] for ln in f["lines"]) == pytest.approx(
        doc["total_seconds"])


def test_cli_predict_annotate():
    result = run("predict", TINY, "-P", "2", "--annotate")
    assert result.exit_code == 0, result.output
    assert "Predicted time" in result.stdout and "Annotated source" in result.stdout


def test_symbolic_inputs_need_values():
    result = run("annotate", TRAP_ARGS[0], TRAP_ARGS[1], "-P", "2", "--set", "NITER=10")
    assert result.exit_code == 2
    assert "N" in result.stderr and "--set" in result.stderr and "Traceback" not in result.output


def test_a_statement_that_cannot_be_weighed_is_noted(tiny, monkeypatch):
    """Never a silent 0: the statement's weight is 0 and the listing says so."""
    import sympy as sp

    priced = an.compute_seconds

    def cost(ops, cm, hit):  # B = A * A (the only multiplication) costs no number
        return sp.Symbol("X") if ops.real_mul else priced(ops, cm, hit)

    monkeypatch.setattr(an, "compute_seconds", cost)
    ann = an.annotate(tiny, "node 0")
    ln = lines(ann, "tiny.f")
    assert ln[24].seconds == 0 and ln[25].seconds == pytest.approx((62.5 + 25 + 200) * NS)
    assert ann.total == pytest.approx(busy(tiny, tiny.processes[1]), rel=1e-9)
    assert len(ann.notes) == 1 and ann.notes[0].startswith("tiny.f:24: its cost is not a number")
    assert an.to_json(ann)["notes"] == ann.notes
    from rich.console import Console

    console = Console(width=200, record=True)
    console.print(an.render_text(ann))
    text = console.export_text()
    assert "Notes:\n  - tiny.f:24: its cost is not a number" in text
