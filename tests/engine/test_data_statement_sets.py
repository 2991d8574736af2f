"""DATA statements as 1990s codes write them:

* an implied DO among the targets, ``DATA (V(I), I = 1, 4) /1.0, 2.0, 3.0, 4.0/`` (F77
  9.3), was a syntax error ("unexpected '('");
* several ``names /values/`` sets in one statement, ``DATA IBUF /4*0/, VERB /.TRUE./``: the
  scalar's value was lost (the statement was skipped because its 5 values did not pair with
  its 2 names) and a LOGICAL value was never taken at all, so ``predict`` stopped with "the
  predicted time depends on inputs that were not given: VERB".

Now each set pairs its own names and values, and a LOGICAL constant is a value: NSEND = 3
and VERB = .TRUE. below make node 0 send 3 messages of 8 bytes (Table 3, static buffers: a
synchronous message of at most 100 B) to node 1, one hop: each 70 + 8·0.42 + 11 = 84.36 us;
computation off, node 1 ends when the third arrives, at 3 · 84.36 = 253.08 us.
"""

from __future__ import annotations

import pytest

from interp.system.simgrid import zero_computation

from .helpers import STATIC_PER_BYTE, STATIC_PER_HOP, STATIC_STARTUP, load, run

SOURCE = """\
      PROGRAM DSETS
      INTEGER IBUF(4), NSEND, I, ME
      LOGICAL VERB
      DOUBLE PRECISION V(4)
      DATA (V(I), I = 1, 4) /1.0D0, 2.0D0, 3.0D0, 4.0D0/, NSEND /3/
      DATA IBUF /4*0/, VERB /.TRUE./
      ME = MYNODE()
      IF (VERB) THEN
         DO 10 I = 1, NSEND
            IF (ME .EQ. 0) CALL CSEND(5, V, 8, 1, 0)
            IF (ME .EQ. 1) CALL CRECV(5, V, 8)
   10    CONTINUE
      END IF
      END
"""


def test_sets_and_implied_do_give_their_values(tmp_path):
    path = tmp_path / "dsets.f"
    path.write_text(SOURCE)
    pred = run(str(path), 2, machine=zero_computation(load()))
    one = STATIC_STARTUP + 8 * STATIC_PER_BYTE + STATIC_PER_HOP  # 84.36 us
    finish = {r["pid"]: float(r["finish"]) for r in pred.process_rows()}
    assert finish == pytest.approx({0: 3 * one, 1: 3 * one}, rel=1e-9)
    assert 3 * one == pytest.approx(253.08e-6)
