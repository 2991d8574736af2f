"""The F77 standard's intrinsics beyond the common ones (DINT, ANINT, DIM, DPROD, ASIN,
SINH, INDEX...): typed and costed by the catalog, and computed where their arguments are
known."""

from __future__ import annotations

import pytest

from interp.application.aag import build_aag


@pytest.mark.parametrize("call, trips", [
    ("NINT(DINT(7.9D0))", 7), ("NINT(ANINT(6.5D0))", 7), ("IDIM(9, 2)", 7), ("IDIM(2, 9)", 0),
    ("NINT(DPROD(2.0, 3.5))", 7), ("NINT(AINT(-7.5)) + 14", 7), ("NINT(DDIM(9.0D0, 2.0D0))", 7),
    # ISHFT (a hypercube code's 2**d and parent): left, logical right, and a 32-bit word
    ("ISHFT(7, 0)", 7), ("ISHFT(1, 3) - 1", 7), ("ISHFT(28, -2)", 7), ("ISHFT(-1, -29)", 7),
])
def test_known_values(tmp_path, call, trips):
    path = tmp_path / "p.f"
    path.write_text("      PROGRAM P\n      IMPLICIT NONE\n      INTEGER I, N\n      DOUBLE PRECISION X\n"
                    f"      N = {call}\n      DO I = 1, N\n         X = DSINH(X) + DASIN(X)\n"
                    "      END DO\n      END\n")
    aag = build_aag([str(path)])
    from interp.engine.predict import predict
    from interp.system import load_machine

    pred = predict(aag, load_machine("ipsc860"), 1, {})
    rows = {r["line"]: r for r in pred.aau_rows()}
    assert rows.get(7, {"count": 0})["count"] == trips
    seq = next(a for a in aag.units["P"].walk() if a.type == "Seq" and a.loc.line == 7)
    assert dict(seq.ops.library) == {"exp": 1, "atan": 1}  # SINH as EXP, ASIN as ATAN
