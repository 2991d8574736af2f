"""An IF whose condition reads inputs (not run-time data) and assigns a counter a later
decision reads: the block distribution with its remainder, ``NLOC = N / NP`` then
``IF (ME .LT. MOD(N, NP)) NLOC = NLOC + 1``. The condition is symbolic in N; it used to be
taken for run-time data and decided by a branch probability (default 0.5, error diffusion:
its first execution falls through), so with N = 1001 on 4 nodes every node ran 250
iterations, node 0's 251st was lost, and the output listed a "data-dependent" p_… for a
condition the given N decides. Now N's given value decides it, as for any decision that
needs an input, and a note says the formula has N's number.

By hand, P = 4: node k runs floor(N/4) + [k < N mod 4] iterations; summed over the nodes,
exactly N (1001: 251 + 250 + 250 + 250; 1003: 251 + 251 + 251 + 250).
"""

from __future__ import annotations

import pytest

from interp.engine.values import NeedValue

from .helpers import run

SOURCE = """\
      PROGRAM REM
      INCLUDE 'mpif.h'
      CALL MPI_INIT(IERR)
      CALL MPI_COMM_RANK(MPI_COMM_WORLD, ME, IERR)
      CALL MPI_COMM_SIZE(MPI_COMM_WORLD, NP, IERR)
      NLOC = N / NP
      IF (ME .LT. MOD(N, NP)) NLOC = NLOC + 1
      S = 0.0
      DO 10 I = 1, NLOC
         S = S + SQRT(REAL(I))
   10 CONTINUE
      CALL MPI_FINALIZE(IERR)
      END
"""


def _source(tmp_path):
    p = tmp_path / "rem.f"
    p.write_text(SOURCE)
    return str(p)


@pytest.mark.parametrize("n", [1001, 1002, 1003, 1004])
def test_every_node_runs_its_share_and_the_remainder_is_not_lost(tmp_path, n):
    pred = run(_source(tmp_path), 4, {"N": n})
    body = [r for r in pred.aau_rows() if r["type"] == "Seq" and r["line"] == 10]
    assert int(body[0]["count"]) == n
    assert pred.data == {}  # no branch probability for it
    assert any("depends on N" in note for note in pred.notes)


def test_without_n_its_value_is_asked_for(tmp_path):
    with pytest.raises(NeedValue) as info:
        run(_source(tmp_path), 4)
    assert info.value.names == ["N"]
