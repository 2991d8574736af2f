"""The value of a user FUNCTION reference steers control: interp interprets the function's
body with the actual arguments' values and takes the value it leaves in the function's name
(NSTEP = LOG2OF(8), a GO TO loop inside, gives the trip count of a loop that sends)."""

from __future__ import annotations

import pytest

from interp.system.simgrid import zero_computation

from .helpers import STATIC_PER_BYTE, STATIC_PER_HOP, STATIC_STARTUP, load, program, run


def test_function_value_gives_a_message_count():
    """P = 2, computation off: LOG2OF(8) = 3 synchronous 8-byte messages in static buffers
    (8 B <= 100 B), one hop each, Receive Ovhd 0 (Table 3). Rank 0 spends each send's startup
    in turn; rank 1's last receive ends when the third message arrives: 3 startups, then the
    third one's transmission."""
    pred = run(program("funcvalue.f"), 2, machine=zero_computation(load()))
    last = 3 * STATIC_STARTUP + 8 * STATIC_PER_BYTE + 1 * STATIC_PER_HOP  # 210 + 3.36 + 11 us
    assert last == pytest.approx(224.36e-6)
    assert float(pred.seconds) == pytest.approx(last, rel=1e-9)


def test_function_referencing_itself_is_a_clear_error(tmp_path):
    """F77 has no recursion: a FUNCTION whose value needs its own value is reported."""
    src = tmp_path / "rec.f"
    src.write_text(
        "      PROGRAM REC\n"
        "      INCLUDE 'mpif.h'\n"
        "      INTEGER ME, N, NREC, IERR\n"
        "      CALL MPI_INIT(IERR)\n"
        "      CALL MPI_COMM_RANK(MPI_COMM_WORLD, ME, IERR)\n"
        "      N = NREC(2)\n"
        "      IF (N .GT. 0) CALL MPI_BARRIER(MPI_COMM_WORLD, IERR)\n"
        "      CALL MPI_FINALIZE(IERR)\n"
        "      END\n"
        "      INTEGER FUNCTION NREC(K)\n"
        "      INTEGER K\n"
        "      NREC = 0\n"
        "      IF (K .GT. 0) NREC = NREC(K - 1) + 1\n"
        "      END\n")
    from interp.errors import InterpError
    with pytest.raises(InterpError, match="NREC references itself"):
        run(str(src), 2, machine=zero_computation(load()))
