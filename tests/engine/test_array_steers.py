"""An element of a REAL array a steering value is read from keeps its value across a
closed-form loop that fills the array's other elements: the loop's data flow is replayed for
arrays steering values come from, whatever their type (a table whose first element holds a
count, as FFT codes keep the log2 size in front of the twiddle factors)."""

from __future__ import annotations

import pytest

from interp.system.simgrid import zero_computation

from .helpers import STATIC_PER_BYTE, STATIC_PER_HOP, STATIC_STARTUP, load, program, run


def test_count_kept_in_a_real_array_steers_the_sends():
    """P = 2, computation off: NSTEP = TAB(1) = 2 synchronous 8-byte messages in static
    buffers (8 B <= 100 B), one hop each, Receive Ovhd 0 (Table 3): rank 0 spends two
    startups, rank 1's last receive ends when the second message arrives."""
    pred = run(program("arraysteer.f"), 2, machine=zero_computation(load()))
    last = 2 * STATIC_STARTUP + 8 * STATIC_PER_BYTE + 1 * STATIC_PER_HOP  # 140 + 3.36 + 11 us
    assert last == pytest.approx(154.36e-6)
    assert float(pred.seconds) == pytest.approx(last, rel=1e-9)
