"""The "AAUs that cost most" table of ``predict`` (and of the report): each AAU's own time, so
the rows add up. It used to list Seq and communication AAUs only, so a DO loop's overhead
(Table 1's fixed and per-iteration costs, which ``interp annotate`` puts on the DO line) was in
no row and the rows fell short of the time. Now a loop's, an IF's and a CALL's own overhead is
a row of its own (``own``: its δ without the δ of the AAUs inside it)."""

from __future__ import annotations

import json

import pytest

from interp.output.prediction_view import own_rows

from .conftest import busy, run, value

NS = 1e-9


def test_the_rows_add_up_to_the_busy_time(tiny):
    """tiny.f on 2 nodes: computation and communication, every row summed."""
    rows = own_rows(tiny, lambda x: value(tiny, x))
    assert sum(v for _, v in rows) == pytest.approx(sum(busy(tiny, p) for p in tiny.processes),
                                                    rel=1e-9)


def test_the_do_loop_has_its_overhead_row(tiny):
    """tiny.f's DO 10 I = 1, N on each of the 2 nodes, iPSC/860 mid values at 40 MHz (25 ns a
    clock): the fixed overhead (5 + 10)/2 = 7.5 clk = 187.5 ns, N fetched once, 1 clk = 25 ns,
    and 100 per-iteration overheads of (8 + 14)/2 = 11 clk = 275 ns: 27,712.5 ns a node."""
    do = next((r, v) for r, v in own_rows(tiny, lambda x: value(tiny, x))
              if r["type"].startswith("Iter") and r["line"] == 10)
    assert do[1] == pytest.approx(2 * (187.5 + 25 + 100 * 275) * NS, rel=1e-9)


def test_a_computation_only_program_its_rows_are_the_predicted_time(tmp_path):
    """One process, no communication: the table's rows (JSON ``own``) sum to the time."""
    path = tmp_path / "loops.f"
    path.write_text("""\
      PROGRAM LOOPS
      INTEGER I, J, N
      REAL X
      X = 0.0
      N = 20
      DO 20 I = 1, N
         DO 10 J = 1, I
            IF (J .GT. 3) X = X + 1.0
   10    CONTINUE
         CALL ADD(X)
   20 CONTINUE
      END
      SUBROUTINE ADD(X)
      REAL X
      X = X * 2.0
      END
""")
    result = run("predict", str(path), "-P", "1", "--format", "json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    own = [a["own"] for a in data["aaus"]]
    assert sum(own) == pytest.approx(data["total_seconds"], rel=1e-9)
    types = {a["type"] for a in data["aaus"] if a["own"] > 0}
    assert {"IterD", "Call", "Seq", "CondtD"} <= types
