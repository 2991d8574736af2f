"""MPI_WAITALL on a request array declared ``REQ(0:1)`` waits on REQ(0) and REQ(1), from the
array's declared lower bound; interp waited on REQ(1) and REQ(2) and stopped with "waits on
REQ(2), which no isend/irecv started"."""

from __future__ import annotations

import pytest

from interp.system.simgrid import zero_computation

from .helpers import DYNAMIC_PER_BYTE, DYNAMIC_PER_HOP, DYNAMIC_STARTUP, load, program, run


def test_waitall_starts_at_the_declared_lower_bound():
    """Computation off; both ranks exchange 4 doubles (32 B) at once, asynchronously (dynamic
    buffers, Table 3), one hop: 175 us + 32·0.36 us + 33 us = 219.52 us."""
    pred = run(program("waitall0.f"), 2, machine=zero_computation(load()))
    message = DYNAMIC_STARTUP + 32 * DYNAMIC_PER_BYTE + 1 * DYNAMIC_PER_HOP
    assert message == pytest.approx(219.52e-6)
    assert float(pred.seconds) == pytest.approx(message, rel=1e-9)
