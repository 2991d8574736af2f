"""CHARACTER values are followed where they steer control: a constant string assigned to a
CHARACTER variable, then compared with .EQ./.NE. (blank-padded, F77 6.3.5)."""

from __future__ import annotations

import pytest

from interp.system.simgrid import zero_computation

from .helpers import STATIC_PER_BYTE, STATIC_PER_HOP, STATIC_STARTUP, load, program, run


def test_character_comparison_decides_the_send():
    """P = 2, computation off: KIND = 'S', so one synchronous 8-byte message in static
    buffers (8 B <= 100 B), one hop, Receive Ovhd 0 (Table 3)."""
    pred = run(program("charsteer.f"), 2, machine=zero_computation(load()))
    message = STATIC_STARTUP + 8 * STATIC_PER_BYTE + 1 * STATIC_PER_HOP  # 70 + 3.36 + 11 us
    assert message == pytest.approx(84.36e-6)
    assert float(pred.seconds) == pytest.approx(message, rel=1e-9)
