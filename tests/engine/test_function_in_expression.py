"""A user FUNCTION referenced in an expression: its time is the user's (--routine) when given,
and a function without a closed form is a clear error (it used to escape as a traceback)."""

from __future__ import annotations

import pytest

from interp.errors import InterpError

from .helpers import REL, program, run


def test_a_function_that_must_be_unrolled_is_a_clear_error():
    with pytest.raises(InterpError) as info:
        run(program("funcwhile.f"), 1)
    assert "FUNCTION F, used in an expression at line 3, has no closed form" in info.value.message
    assert info.value.hint == "give its time with --routine F=SECONDS"


def test_the_users_time_for_a_function_counts_once_per_reference():
    one = run(program("funcwhile.f"), 1, routines={"F": 1e-3}).seconds
    two = run(program("funcwhile.f"), 1, routines={"F": 2e-3}).seconds
    # X = F(3.0) references F once: 1 ms more for F makes the program 1 ms slower
    assert two - one == pytest.approx(1e-3, rel=REL)
    assert one > 1e-3
