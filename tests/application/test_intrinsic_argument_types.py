"""A generic intrinsic given an INTEGER and a REAL argument (``MOD(I, X)``, ``MAX(I, X)``) is an
error at its reference, exit 2, naming the intrinsic and the two types, as gfortran refuses it
("'a' and 'p' arguments of 'mod' intrinsic must have the same type"). It used to be accepted
silently, priced and evaluated as one type's operation the compiler never builds. REAL with
DOUBLE PRECISION stays accepted (gfortran widens it)."""

from __future__ import annotations

import subprocess
import sys

import pytest

from interp.errors import InterpError

NODE = """\
      PROGRAM P
      INTEGER I, K
      REAL X
      DOUBLE PRECISION D
      I = 7
      X = 2.5
      D = 1.0D0
      {stmt}
      END
"""


@pytest.mark.parametrize("stmt, name, types", [
    ("K = MOD(I, X)", "MOD", "INTEGER and REAL"),
    ("X = MAX(X, I)", "MAX", "REAL and INTEGER"),
    ("D = MIN(D, 1.0D0, I)", "MIN", "DOUBLE and INTEGER"),
    ("X = SIGN(X, 1)", "SIGN", "REAL and INTEGER"),
])
def test_mixed_integer_and_real_arguments_are_an_error(aag_of, stmt, name, types):
    with pytest.raises(InterpError) as info:
        aag_of(NODE.format(stmt=stmt))
    err = info.value
    assert err.message == f"the arguments of {name} are {types}: Fortran 77 requires them of one type"
    assert (err.location.line, err.location.column) == (8, stmt.index(name) + 7)
    assert "REAL()" in err.hint and "INT()" in err.hint


def test_the_hint_shows_the_integer_converted(aag_of):
    with pytest.raises(InterpError) as info:
        aag_of(NODE.format(stmt="K = MOD(I + 1, X)"))
    assert info.value.hint.endswith("e.g. MOD(REAL(I + 1), X)")


@pytest.mark.parametrize("stmt", ["K = MOD(I, 2)", "X = MAX(X, 0.0)", "D = MAX(D, 0.0)",
                                  "D = MOD(D, 2.0)", "X = MAX(X, REAL(I))"])
def test_one_type_or_real_with_double_is_accepted(aag_of, stmt):
    aag_of(NODE.format(stmt=stmt))


def test_the_cli_exits_2_with_file_line_col(tmp_path):
    path = tmp_path / "mm.f"
    path.write_text(NODE.format(stmt="K = MOD(I, X)"))
    out = subprocess.run([sys.executable, "-m", "interp", "predict", str(path), "-P", "1"],
                         capture_output=True, text=True)
    assert out.returncode == 2
    assert f"{path}:8:11: error: the arguments of MOD are INTEGER and REAL" in out.stderr
    assert "Traceback" not in out.stderr
