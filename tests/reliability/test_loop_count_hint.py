"""A GO TO or DO WHILE loop whose test needs a value hints ``--iterations FILE:LINE=N`` (the
hint said only --set, which cannot help when the test is on a computed value)."""

from __future__ import annotations

import pytest

from .helpers import fortran, invoke

GOTO = """
    PROGRAM G
    REAL X
    10 X = X * 2.0
    IF (X .LT. 1.0E6) GO TO 10
    END
"""
WHILE = """
    PROGRAM W
    REAL X
    DO WHILE (X .LT. 1.0E6)
    X = X * 2.0
    END DO
    END
"""


@pytest.mark.parametrize("text, line", [(GOTO, 3), (WHILE, 3)])
def test_the_hint_names_iterations(tmp_path, text, line):
    path = fortran(tmp_path, text)
    result = invoke("predict", path)
    assert result.exit_code == 2, result.output
    assert f"hint: give the loop's iteration count with --iterations node.f:{line}=N" \
        in result.stderr
    assert invoke("predict", path, "--iterations", f"node.f:{line}=20").exit_code == 0
