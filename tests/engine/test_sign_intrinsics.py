"""SIGN/ISIGN/DSIGN, DIM, AINT, LOG10 and the trigonometric intrinsics have values interp
follows: a decision on them is taken by its value. They had none (`the value of ISIGN(1, N -
9) is not known before run time`), so an IF on ISIGN(1, N - 9) was weighed by a default
branch probability, 0.5, though N is a constant of the program."""

from __future__ import annotations

import sympy as sp
from pytest import approx

from interp.application.aag import build_aag
from interp.engine.predict import predict

from .helpers import PROBE_THEN_MINUS_ELSE, REL, load, probe_if

TEXT = "      PROGRAM SG\n      INTEGER N\n      REAL*8 X, Y, Z\n      N = 7\n{probe}      END\n"


def _predict(tmp_path, cond: str):
    path = tmp_path / "sg.f"
    path.write_text(TEXT.format(probe=probe_if(cond)))
    return predict(build_aag([str(path)]), load(), 1, {})


def test_isign_steers_by_its_value(tmp_path):
    """ISIGN(1, 7 - 9) = -1 takes THEN; ISIGN(1, 7 - 5) = 1 takes ELSE: the same operations
    in the condition, THEN longer by 2 stores - 1 condition (helpers.PROBE_THEN_MINUS_ELSE)."""
    then = _predict(tmp_path, "ISIGN(1, N - 9) .LT. 0")
    other = _predict(tmp_path, "ISIGN(1, N - 5) .LT. 0")
    for pred in (then, other):
        assert not sp.sympify(pred.total).free_symbols
    assert float(then.seconds) - float(other.seconds) == approx(PROBE_THEN_MINUS_ELSE, rel=REL)


def test_sign_dim_aint_log10_values(tmp_path):
    """SIGN(2.0, 0.0) = 2 (a zero B counts as positive), DIM(7, 9) = 0, AINT(-2.7) = -2,
    LOG10(1000) = 3: each condition holds, so THEN runs, as with .TRUE.-like conditions."""
    for cond in ("SIGN(2.0, 0.0) .GT. 1.5", "DIM(N, 9) .EQ. 0", "AINT(-2.7) .GT. -2.5",
                 "LOG10(1000.0D0) .GT. 2.5", "ATAN2(1.0D0, 1.0D0) .GT. 0.78"):
        pred = _predict(tmp_path, cond)
        assert not sp.sympify(pred.total).free_symbols, cond
        flipped = _predict(tmp_path, f".NOT. ({cond})")
        assert float(pred.seconds) > float(flipped.seconds), cond
