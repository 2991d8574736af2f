"""Fortran's assignment conversion: an INTEGER variable given a REAL or DOUBLE PRECISION value
holds it truncated toward zero. interp kept 2.9 in ISQ = DSQRT(DBLE(NP)) + 0.9D0, so a later
test ISQ .EQ. 2 took the wrong arm (NPB LU's proc_grid then reached MPI_ABORT)."""

from __future__ import annotations

import pytest

from interp.system.simgrid import zero_computation

from .helpers import STATIC_PER_BYTE, STATIC_PER_HOP, STATIC_STARTUP, load, program, run


def test_real_value_is_truncated_toward_zero():
    """P = 4: ISQ = 2.9 -> 2, INEG = -2.5 -> -2, so rank 0 sends one double to rank 1.
    Computation off: static message (8 B <= 100 B), one hop, Receive Ovhd 0 (Table 3)."""
    pred = run(program("intassign.f"), 4, machine=zero_computation(load()))
    message = STATIC_STARTUP + 8 * STATIC_PER_BYTE + 1 * STATIC_PER_HOP  # 84.36 us
    assert message == pytest.approx(84.36e-6)
    assert float(pred.seconds) == pytest.approx(message, rel=1e-9)
