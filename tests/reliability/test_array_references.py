"""An element assignment to a name that is no array, inside the executable part, and a
reference with the wrong number of subscripts are errors (gfortran rejects both; interp
accepted them)."""

from __future__ import annotations

from .helpers import fortran, invoke


def test_undeclared_array_element_inside_a_do_loop(tmp_path):
    path = fortran(tmp_path, """
        PROGRAM T
        INTEGER I
        DO 10 I = 1, 10
        Y(I) = 1.0
        10 CONTINUE
        END
    """)
    result = invoke("predict", path)
    assert result.exit_code == 2, result.output
    assert f"{path}:4:7: error: Y is not an array" in result.stderr
    assert "a statement function is defined only before the first executable" in result.stderr


def test_a_statement_function_before_the_body_is_still_one(tmp_path):
    path = fortran(tmp_path, """
        PROGRAM T
        F(X) = 2.0 * X
        Z = F(1.0)
        END
    """)
    assert invoke("predict", path).exit_code == 0


def test_two_subscripts_on_a_one_dimensional_array(tmp_path):
    path = fortran(tmp_path, """
        PROGRAM T
        REAL X(10)
        X(1, 2) = 2.0
        Z = X(3, 4) + X(1)
        END
    """)
    result = invoke("predict", path)
    assert result.exit_code == 2, result.output
    assert f"{path}:3:7: error: X has rank 1 (declared at {path}:2:12), 2 subscripts given" \
        in result.stderr


def test_a_character_substring_is_no_array_element(tmp_path):
    path = fortran(tmp_path, """
        PROGRAM T
        CHARACTER*8 S
        S(1:3) = 'abc'
        END
    """)
    assert invoke("predict", path).exit_code == 0
