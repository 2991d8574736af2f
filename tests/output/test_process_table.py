"""The per-process table of `interp predict`: processes whose figures print the same share a
row, so a 1024-node prediction reads as a handful of kinds of process."""

from __future__ import annotations

import re
from pathlib import Path

import sympy as sp
from click.testing import CliRunner

from interp.application.aag import build_aag
from interp.cli import main
from interp.engine.predict import predict
from interp.output.prediction_view import _collapsed
from interp.system import load_machine

REPO = Path(__file__).resolve().parents[2]


def _expand(label: str) -> list[int]:
    m = re.fullmatch(r"(?:node|rank) (\d+)(?:–(\d+))?", label)
    assert m, label
    first = int(m.group(1))
    return list(range(first, int(m.group(2) or first) + 1))


def test_every_process_is_in_exactly_one_row_and_identical_ones_share():
    files = [str(REPO / "programs" / "trapezoid" / f) for f in ("host.f", "node.f")]
    pred = predict(build_aag(files), load_machine("ipsc860"), 16,
                   {"N": sp.Integer(1000), "NITER": sp.Integer(3)})
    rows = _collapsed(pred)
    assert rows[0][0] == "host"
    rows = rows[1:]
    pids = [pid for label, _ in rows for pid in _expand(label)]
    assert pids == list(range(16))
    assert len(rows) < 16  # the nodes that only compute and reply print alike
    # a shared row's figures are every member's own
    by_pid = {r["pid"]: r for r in pred.process_rows()}
    for label, cells in rows:
        members = _expand(label)
        for pid in members:
            assert cells == _collapsed_cells(pred, by_pid[pid])


def _collapsed_cells(pred, row):
    from interp.output.numbers import seconds_text
    from interp.output.prediction_view import COLUMNS, number

    return [seconds_text(number(pred, row[c])) for c in [*COLUMNS, "finish"]]


def test_a_long_table_shows_its_ends():
    """Ring on 64 nodes: every node finishes at its own time, so no two rows merge; the text
    shows the first and last 12 and says how many are left out (JSON has them all)."""
    result = CliRunner().invoke(main, ["predict", str(REPO / "programs" / "ring" / "ring.f"),
                                       "-P", "64", "--machine", "cluster"])
    assert result.exit_code == 0, result.output
    assert "⋮ 40 rows" in result.output
    assert "│ node 11 " in result.output and "│ node 52 " in result.output
    assert "│ node 12 " not in result.output and "│ node 51 " not in result.output
