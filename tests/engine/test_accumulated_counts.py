"""A message count summed under IFs inside a DO loop, over COMMON arrays filled by an earlier
loop in another routine, and passed on through a copy (``NWORDS = NTOTAL``). The closed-form
loop's data flow was not replayed: NTOTAL was not among the names that steer (the count's
copy was, but not what the copy is computed from in other routines), so NWORDS was unknown.

accum.f: LEN(J) = J, KIND(J) = MOD(J, 2); NTOTAL = Σ 2·LEN(J) over J with KIND(J) ≠ 0
= 2·1 + 2·3 = 8 doubles = 64 bytes ≤ 100 B: a static message, rank 0 → rank 1, one hop.
"""

from __future__ import annotations

import pytest

from interp.system.simgrid import zero_computation

from .helpers import STATIC_PER_BYTE, STATIC_PER_HOP, STATIC_STARTUP, load, program, run


def test_count_summed_under_ifs_over_filled_arrays_is_followed():
    pred = run(program("accum.f"), 2, machine=zero_computation(load()))
    message = STATIC_STARTUP + 64 * STATIC_PER_BYTE + 1 * STATIC_PER_HOP  # 70 + 26.88 + 11 us
    assert message == pytest.approx(107.88e-6)
    assert float(pred.seconds) == pytest.approx(message, rel=1e-9)
