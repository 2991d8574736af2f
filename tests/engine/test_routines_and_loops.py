"""Regressions from programs written by an outside user: a FUNCTION ending in RETURN, a
PARAMETER passed to a subroutine, triangular loops (these crashed or lost values)."""

from __future__ import annotations

import pytest
import sympy as sp

from interp.engine.predict import predict

from .helpers import aag_of, load

FUNCTION_RETURN = """\
      PROGRAM R1
      REAL X(10), S, F
      S = F(X)
      END
      REAL FUNCTION F(X)
      REAL X(10)
      F = X(1)
      RETURN
      END
"""

PARAM_ARG = """\
      PROGRAM P2
      PARAMETER (M = 400)
      REAL X(M)
      CALL INIT(X, M)
      END
      SUBROUTINE INIT(V, N)
      INTEGER N, I
      REAL V(N)
      DO 10 I = 1, N
         V(I) = 1.0
   10 CONTINUE
      END
"""

TRIANGLE = """\
      PROGRAM T3
{decl}
      DOUBLE PRECISION A(200, 200)
      INTEGER I, J
      DO 20 I = 1, N
         DO 10 J = I, N
            A(I, J) = 1.0D0
   10    CONTINUE
   20 CONTINUE
      END
"""


def _predict(tmp_path, text, name="t.f", given=None, **kw):
    path = tmp_path / name
    path.write_text(text)
    return predict(aag_of(str(path)), load(), 1, given or {}, **kw)


def test_function_ending_in_return_predicts(tmp_path):
    pred = _predict(tmp_path, FUNCTION_RETURN)
    assert pred.seconds is not None and pred.seconds > 0


def test_parameter_actual_argument_reaches_the_routine(tmp_path):
    """The callee's loop bound N is the caller's PARAMETER M = 400: a number, no input left;
    it equals the same program with M an input given as 400."""
    fixed = _predict(tmp_path, PARAM_ARG)
    assert fixed.total.free_symbols == set()
    as_input = _predict(tmp_path, PARAM_ARG.replace("PARAMETER (M = 400)", "INTEGER M"), "u.f",
                        {"M": sp.Integer(400)}, symbolic=False)
    assert fixed.seconds == pytest.approx(as_input.seconds, rel=1e-12)


def test_triangular_loop_closed_form_equals_the_explicit_sum(tmp_path):
    """N = 200 known from the start sums the 200 inner trip counts one by one; N symbolic gives
    the closed form in N (it used to recurse without end in SymPy). They agree at N = 200."""
    program = TRIANGLE.format(decl="      INTEGER N")
    explicit = _predict(tmp_path, program, given={"N": sp.Integer(200)}, symbolic=False)
    symbolic = _predict(tmp_path, program, "s.f")
    assert _predict(tmp_path, TRIANGLE.format(decl="      PARAMETER (N = 200)"), "p.f").seconds
    n = next(iter(symbolic.total.free_symbols))
    assert float(symbolic.total.subs(n, 200)) == pytest.approx(explicit.seconds, rel=1e-9)
