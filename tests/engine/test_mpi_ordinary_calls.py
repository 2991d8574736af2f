"""Two ordinary MPI idioms that were internal errors (exit 3):

* a constant as the buffer, ``MPI_SEND(3, 1, MPI_INTEGER, …)`` (a master's "stop" or task
  number: AttributeError 'Num' object has no attribute 'name'); the message carries the
  constant, and the receiver's loop bound N = 3 is followed;
* ``MPI_WAITALL`` over requests of which some are MPI_PROC_NULL's (a non-periodic halo
  exchange: the end ranks' ISEND/IRECV to MPI_PROC_NULL; AttributeError 'NoneType' object has
  no attribute 'loc'): those requests are complete and the others are waited for.

Computation off; iPSC/860 Table 3 (an MPI standard send is eager: the sender is free after its
startup; MPI_SEND is synchronous, so at most 100 bytes go through the static buffers; an
MPI_ISEND through the dynamic ones):

constbuf.f, P = 2: rank 0 → 1 one 4-byte message, 70 + 4·0.42 + 11 = 82.68 us; rank 1 then
sends N = 3 messages of 8 bytes, one every startup (70 us), each arriving 70 + 8·0.42 + 11 =
84.36 us after it starts: rank 0's last receive ends at 82.68 + 2·70 + 84.36 = 307.04 us, rank
1 ends after its third startup, 82.68 + 3·70 = 292.68 us.

nullwait.f, P = 2: each rank's one real ISEND (8 bytes) costs its startup; its partner's
arrives 175 + 8·0.36 + 33 = 210.88 us after the start. P = 3: rank 1 sends twice (350 us);
rank 2 gets rank 1's first ISEND over 2 hops (1 → 3 → 2, e-cube): 175 + 2.88 + 66 = 243.88
us; rank 0 its second, 1 hop: 175 + 175 + 2.88 + 33 = 385.88 us.
"""

from __future__ import annotations

import pytest
from click.testing import CliRunner

from interp.cli import main
from interp.system.simgrid import zero_computation

from .helpers import (
    DYNAMIC_PER_BYTE, DYNAMIC_PER_HOP, DYNAMIC_STARTUP, STATIC_PER_BYTE, STATIC_PER_HOP,
    STATIC_STARTUP, load, program, run,
)


def _finish(name: str, nprocs: int) -> dict[int, float]:
    pred = run(program(name), nprocs, machine=zero_computation(load()))
    return {r["pid"]: float(r["finish"]) for r in pred.process_rows()}


def test_a_constant_buffer_is_sent_and_its_value_followed():
    first = STATIC_STARTUP + 4 * STATIC_PER_BYTE + STATIC_PER_HOP  # 82.68 us
    reply = STATIC_STARTUP + 8 * STATIC_PER_BYTE + STATIC_PER_HOP  # 84.36 us
    finish = _finish("constbuf.f", 2)
    assert finish[0] == pytest.approx(first + 2 * STATIC_STARTUP + reply, rel=1e-9)
    assert finish[1] == pytest.approx(first + 3 * STATIC_STARTUP, rel=1e-9)
    assert finish[0] == pytest.approx(307.04e-6, rel=1e-9)


def test_waitall_skips_the_requests_of_proc_null_partners():
    msg = DYNAMIC_STARTUP + 8 * DYNAMIC_PER_BYTE  # 177.88 us before the hops
    assert _finish("nullwait.f", 2) == pytest.approx(
        {0: msg + DYNAMIC_PER_HOP, 1: msg + DYNAMIC_PER_HOP}, rel=1e-9)
    assert _finish("nullwait.f", 3) == pytest.approx(
        {0: DYNAMIC_STARTUP + msg + DYNAMIC_PER_HOP, 1: 2 * DYNAMIC_STARTUP,
         2: msg + 2 * DYNAMIC_PER_HOP}, rel=1e-9)


@pytest.mark.parametrize("name", ["constbuf.f", "nullwait.f"])
def test_check_is_clean(name):
    out = CliRunner().invoke(main, ["check", program(name), "-P", "3" if name == "nullwait.f" else "2"])
    assert out.exit_code == 0, out.output


REPLACE = """\
      PROGRAM REPL
      INCLUDE 'mpif.h'
      INTEGER RANK, NPROC, IERR, ST(MPI_STATUS_SIZE), K
      DOUBLE PRECISION A(10)
      CALL MPI_INIT(IERR)
      CALL MPI_COMM_RANK(MPI_COMM_WORLD, RANK, IERR)
      CALL MPI_COMM_SIZE(MPI_COMM_WORLD, NPROC, IERR)
      DO 10 K = 1, 3
         CALL MPI_SENDRECV_REPLACE(A, 10, MPI_DOUBLE_PRECISION,
     &        MOD(RANK + 1, NPROC), 1, MOD(RANK - 1 + NPROC, NPROC), 1,
     &        MPI_COMM_WORLD, ST, IERR)
   10 CONTINUE
      CALL MPI_FINALIZE(IERR)
      END
"""


def test_sendrecv_replace_is_a_sendrecv_on_one_buffer(tmp_path):
    """MPI_SENDRECV_REPLACE was refused ("an MPI routine interp does not model"). P = 2,
    computation off, 3 shifts of 10 doubles (80 B, static: 70 + 80·0.42 + 11 = 114.6 us a
    message, each rank's send leaving when its previous shift is done): 3 · 114.6 us."""
    path = tmp_path / "repl.f"
    path.write_text(REPLACE)
    pred = run(str(path), 2, machine=zero_computation(load()))
    one = STATIC_STARTUP + 80 * STATIC_PER_BYTE + STATIC_PER_HOP
    assert pred.seconds == pytest.approx(3 * one, rel=1e-9)
    assert one == pytest.approx(114.6e-6)
    out = CliRunner().invoke(main, ["check", str(path), "-P", "3"])
    assert out.exit_code == 0, out.output
