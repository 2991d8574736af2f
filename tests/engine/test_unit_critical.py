"""The values a closed-form loop leaves behind are replayed by unit (dataflow.unit_critical_names).

Which names steer control was one set for the whole program, by name: a loop index I of one
routine was replayed after every closed-form loop because some other routine tests a variable
called I (SP's X_SOLVE replayed its buffer-packing nests for I, J, K, M, N, P: three quarters
of a class W prediction). Kept by unit, names also cross units where values do: through
COMMON, and through arguments both ways. The second is new, and found a value that was lost:
a local M passed to a routine whose loop runs N (its dummy) times was forgotten after the
closed-form loop that set it, since no routine tests a variable called M, and the callee's
loop became a data-dependent trip count (default 1)."""

from __future__ import annotations

import pytest

from interp.engine.dataflow import unit_critical_names

from .helpers import REL, run

ARGS = """      PROGRAM ARGS
      INTEGER I, M
      DOUBLE PRECISION X
      M = 0
      DO 10 I = 1, 5
         M = I * 3
   10 CONTINUE
      CALL WORK(M, X)
      END
      SUBROUTINE WORK(N, X)
      INTEGER N, J
      DOUBLE PRECISION X
      DO 20 J = 1, N
         X = 1.0D0
   20 CONTINUE
      END
"""


def test_an_argument_that_bounds_the_callees_loop_is_followed(tmp_path):
    """M = I * 3 leaves the loop as 15, so WORK's DO 20 runs 15 times (its store counted 15
    times), as in the run that steps every iteration; not the trip count symbol n_args_f_13
    at its default of 1 (2.875 us before, 7.425 us now on the iPSC/860)."""
    src = tmp_path / "args.f"
    src.write_text(ARGS)
    pred = run(str(src), 1)
    assert not pred.data
    store = next(a for a in pred.aag.all_aaus() if a.type == "Seq" and a.loc.line == 14)
    assert pred.processes[0].stats[store.id].count == 5 * 3 == 15
    stepped = run(str(src), 1, extend=False, symbolic=False)
    assert float(pred.seconds) == pytest.approx(float(stepped.seconds), rel=REL)


def test_a_name_steers_only_in_the_units_that_reach_it(tmp_path):
    """WORK's N steers its loop; ARGS reaches it through the argument M (and M through
    I * 3: I too); ARGS has no N of its own that steers."""
    src = tmp_path / "args.f"
    src.write_text(ARGS)
    aag = run(str(src), 1).aag
    assert {"M", "I"} <= unit_critical_names(aag, "ARGS")
    assert "N" in unit_critical_names(aag, "WORK")
    assert "N" not in unit_critical_names(aag, "ARGS")


REAL_ARG = """      PROGRAM RARG
      DOUBLE PRECISION S
      INTEGER I
      S = 0.0D0
      DO 10 I = 1, 5
         S = S + 1.5D0
   10 CONTINUE
      CALL CHECK(S)
      END
      SUBROUTINE CHECK(X)
      DOUBLE PRECISION X
      IF (X .GT. 7.0D0) PRINT *, 'BIG'
      END
"""


def test_a_real_argument_that_a_callee_compares_is_data(tmp_path):
    """CHECK compares its DOUBLE PRECISION dummy X: a floating-point result (LU's VERIFY
    compares FRC, computed from the whole solution) is data, so the caller's S does not
    steer in RARG (a replay follows INTEGER and LOGICAL values; REAL ones through arguments
    made LU replay its solution arrays at every step)."""
    src = tmp_path / "rarg.f"
    src.write_text(REAL_ARG)
    aag = run(str(src), 1).aag
    assert "X" in unit_critical_names(aag, "CHECK")
    assert "S" not in unit_critical_names(aag, "RARG")
