"""A value interp does not follow says why when a decision needs it (it used to become
UNKNOWN silently, and the error said only that the value was not known)."""

from __future__ import annotations

import pytest

from interp.errors import InterpError

from .helpers import program, run


def test_a_received_value_that_is_not_followed_names_the_receive():
    with pytest.raises(InterpError) as info:
        run(program("unfollowed.f"), 2)
    message = info.value.message
    assert "the destination of the send at line 10" in message
    assert "the value of K is not known: it is received at line 9" in message
    assert "the values sent are not followed" in message
