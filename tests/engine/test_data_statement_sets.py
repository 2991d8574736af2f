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


COUNTER = """\
      PROGRAM DP
      INTEGER IT, ME
      DOUBLE PRECISION R(8)
      DATA IT /0/
      ME = MYNODE()
   10 IT = IT + 1
      IF (ME .EQ. 0) CALL CSEND(1, R, 64, 1, 0)
      IF (ME .EQ. 1) CALL CRECV(1, R, 64)
      IF (IT .LT. 5) GO TO 10
      END
"""


def test_the_main_programs_data_counter_starts_at_its_value(tmp_path):
    """``DATA IT /0/`` then ``IT = IT + 1`` in the main program (it runs once): IT starts at
    0, the loop runs 5 times. It was "the condition of the loop at line 6 depends on input
    values that were not given: IT". 5 messages of 64 B (static: 70 + 64·0.42 + 11 =
    107.88 us each, the sender busy for all of it): 539.4 us."""
    path = tmp_path / "dp.f"
    path.write_text(COUNTER)
    pred = run(str(path), 2, machine=zero_computation(load()))
    one = STATIC_STARTUP + 64 * STATIC_PER_BYTE + STATIC_PER_HOP
    assert pred.seconds == pytest.approx(5 * one, rel=1e-9)
    assert 5 * one == pytest.approx(539.4e-6)


SAVED = """\
      PROGRAM SV
      INTEGER K, ME
      ME = MYNODE()
      DO 10 K = 1, 6
         IF (ME .EQ. 0) CALL TICK
         IF (ME .EQ. 1) CALL TOCK
   10 CONTINUE
      END
C
      SUBROUTINE TICK
      INTEGER NCALL
      LOGICAL FIRST
      DOUBLE PRECISION R
      SAVE NCALL
      DATA NCALL /0/, FIRST /.TRUE./
      NCALL = NCALL + 1
      IF (MOD(NCALL, 2) .EQ. 0) CALL CSEND(1, R, 8, 1, 0)
      IF (FIRST) THEN
         CALL CSEND(2, R, 8, 1, 0)
         FIRST = .FALSE.
      END IF
      END
C
      SUBROUTINE TOCK
      INTEGER NCALL
      DOUBLE PRECISION R
      SAVE
      DATA NCALL /0/
      NCALL = NCALL + 1
      IF (NCALL .EQ. 1) CALL CRECV(2, R, 8)
      IF (MOD(NCALL, 2) .EQ. 0) CALL CRECV(1, R, 8)
      END
"""


def test_a_subprograms_saved_counter_and_first_flag_keep_their_values(tmp_path):
    """``SAVE NCALL`` / ``DATA NCALL /0/`` / ``NCALL = NCALL + 1`` and a ``DATA FIRST
    /.TRUE./`` flag cleared on the first call: the value is kept from call to call. Node 0
    sends on its 1st call (FIRST) and on its 2nd, 4th and 6th (NCALL even): 4 messages of 8 B,
    and node 1 receives them so; check is clean. They used to start every call afresh, NCALL
    an input ("depends on inputs that were not given: NCALL"). Computation off, each message
    70 + 8·0.42 + 11 = 84.36 us with the sender busy for all of it: node 0 is done at
    4 · 84.36 = 337.44 us."""
    path = tmp_path / "sv.f"
    path.write_text(SAVED)
    pred = run(str(path), 2, machine=zero_computation(load()))
    one = STATIC_STARTUP + 8 * STATIC_PER_BYTE + STATIC_PER_HOP
    assert pred.seconds == pytest.approx(4 * one, rel=1e-9)
    assert 4 * one == pytest.approx(337.44e-6)
    assert pred.scheduler.problems == []
    exact = run(str(path), 2, machine=zero_computation(load()), exact=True)
    assert exact.seconds == pytest.approx(pred.seconds, rel=1e-9)



def _saved_seed(loop: str) -> str:
    return f"""\
      PROGRAM FS
      INTEGER K, N, I, ME, NEXTR
      DOUBLE PRECISION R
      EXTERNAL NEXTR
      ME = MYNODE()
      N = 0
      DO 10 K = 1, 4
{loop}
   10 CONTINUE
      DO 20 I = 1, N
         IF (ME .EQ. 0) CALL CSEND(1, R, 8, 1, 0)
         IF (ME .EQ. 1) CALL CRECV(1, R, 8)
   20 CONTINUE
      END
C
      INTEGER FUNCTION NEXTR()
      INTEGER ISEED
      SAVE ISEED
      DATA ISEED /1/
      ISEED = MOD(5 * ISEED + 3, 16)
      NEXTR = ISEED
      END
"""


@pytest.mark.parametrize("exact", [False, True])
@pytest.mark.parametrize("loop, n", [("         N = NEXTR()", 5),
                                     ("         IF (NEXTR() .GT. 7) N = N + 1", 3)])
def test_a_functions_saved_seed_is_kept_from_call_to_call(tmp_path, loop, n, exact):
    """A FUNCTION that keeps a random number generator's seed in a SAVE'd variable
    (``ISEED = MOD(5·ISEED + 3, 16)``, DATA 1): its four calls give 8, 43 mod 16 = 11,
    58 mod 16 = 10, 53 mod 16 = 5. ``N = NEXTR()`` leaves N = 5; counting the values above 7
    gives N = 3 (8, 11, 10), which the IF's condition only gives stepped, not in closed form
    (one value for all iterations, or a branch probability). Each call used to start from the
    DATA value (N = 8, or 4), or the seed was an input ("depends on inputs that were not
    given"). Computation off, node 0 sends N messages of 8 B, each 70 + 8·0.42 + 11 =
    84.36 us with the sender busy for all of it: 5 · 84.36 = 421.8 us, 3 · 84.36 = 253.08 us."""
    path = tmp_path / "fs.f"
    path.write_text(_saved_seed(loop))
    pred = run(str(path), 2, machine=zero_computation(load()), exact=exact)
    one = STATIC_STARTUP + 8 * STATIC_PER_BYTE + STATIC_PER_HOP
    assert pred.seconds == pytest.approx(n * one, rel=1e-9)
    assert {5: 421.8e-6, 3: 253.08e-6}[n] == pytest.approx(n * one)
    assert pred.scheduler.problems == []
