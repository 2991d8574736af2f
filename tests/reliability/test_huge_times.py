"""Huge times print in engineering notation (exponent a multiple of 3), never dozens of digits
(``400000000000.0000 s`` and an 85-digit number before)."""

from __future__ import annotations

import pytest

from interp.output.numbers import seconds_text

from .helpers import SAMPLES, invoke


@pytest.mark.parametrize("value, text", [
    (4e11, "400.0000e9 s"),  # 4e11 = 400 * 10^9
    (1.234e84, "1.2340e84 s"),  # 84 is a multiple of 3
    (-2.5e7, "-25.0000e6 s"),
    (999_999.0, "999999.0000 s"),  # below 1e6: fixed point as before
])
def test_engineering_notation(value, text):
    assert seconds_text(value) == text


def test_a_prediction_of_a_huge_time():
    trapezoid = [SAMPLES / "trapezoid" / "host.f", SAMPLES / "trapezoid" / "node.f"]
    result = invoke("predict", *trapezoid, "-P", "4", "--set", "N=1e15", "--set", "NITER=1000")
    assert result.exit_code == 0, result.output
    head = result.stdout.splitlines()[0]
    assert "e" in head.split("Predicted time:")[1].split()[0], head
    assert len(head.split("Predicted time:")[1].split()[0]) < 16, head
