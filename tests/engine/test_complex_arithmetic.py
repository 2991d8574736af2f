"""COMPLEX and DOUBLE COMPLEX: declarations, constants, intrinsics, and their costs.

Table 1 has no complex row, so interp counts a complex operation as the real operations it is
made of (interp/application/opcount.py): ± is 2 adds, × is 4 muls + 2 adds, ÷ is 6 muls +
3 adds + 2 divs (the textbook formula), a complex times a real is 2 muls. The times below
compare programs that differ in one statement: the fetches and stores are the same, so the
difference is the arithmetic alone, from Table 1's values.
"""

from __future__ import annotations

import pytest

from interp.application.aag import build_aag

from .helpers import ADD, MUL, REAL_DIV, REL, run


def _program(tmp_path, stmt: str, name: str) -> str:
    path = tmp_path / name
    path.write_text(
        "      PROGRAM CX\n"
        "      DOUBLE COMPLEX U, Z, W\n"
        "      COMPLEX*16 V\n"
        "      DOUBLE PRECISION X\n"
        "      U = (1.0D0, 2.0D0)\n"
        "      Z = DCMPLX(3.0D0, -1.5D0)\n"
        "      X = 2.0D0\n"
        f"      {stmt}\n"
        "      END\n")
    return str(path)


def _seconds(tmp_path, stmt: str, name: str) -> float:
    return float(run(_program(tmp_path, stmt, name), 1).seconds)


def _ops(tmp_path, stmt: str) -> dict:
    aag = build_aag([_program(tmp_path, stmt, "ops.f")])
    (seq,) = [a for a in aag.units["CX"].aaus if a.type == "Seq"]
    return seq.ops.to_json()


@pytest.mark.parametrize("stmt, ops", [
    ("W = U + Z", {"real_add": 2}),
    ("W = U * Z", {"real_mul": 4, "real_add": 2}),
    ("W = U / Z", {"real_mul": 6, "real_add": 3, "real_div": 2}),
    ("W = U * X", {"real_mul": 2}),
    ("W = U ** 2", {"real_mul": 4, "real_add": 2}),  # one complex multiply
    ("W = -U", {"real_add": 2}),
    ("W = DCONJG(U)", {"real_add": 1}),
    ("X = DBLE(U) + DIMAG(U)", {"real_add": 1}),  # picking parts is free
    ("X = ABS(U)", {"real_mul": 2, "real_add": 1, "library": {"sqrt": 1}}),
    ("V = (0.5D0, 0.25D0)", {}),
])
def test_complex_operations_count_as_real_ones(tmp_path, stmt, ops):
    counted = _ops(tmp_path, stmt)
    counted.pop("fetch", None), counted.pop("store", None)
    assert counted == ops


def test_complex_times_from_table_1(tmp_path):
    add = _seconds(tmp_path, "W = U + Z", "add.f")
    mul = _seconds(tmp_path, "W = U * Z", "mul.f")
    div = _seconds(tmp_path, "W = U / Z", "div.f")
    # (4 mul + 2 add) - (2 add) = 4 mul = 4 x 2.5 clk x 25 ns = 250 ns
    assert mul - add == pytest.approx(4 * MUL, rel=1e-6)
    # (6 mul + 3 add + 2 div) - (2 add) = 6 mul + 1 add + 2 div
    assert div - add == pytest.approx(6 * MUL + ADD + 2 * REAL_DIV, rel=1e-6)
    assert 4 * MUL == pytest.approx(4 * 2.5 * 2.5e-8, rel=REL)


def test_complex_values_are_followed(tmp_path):
    """A complex constant and DCMPLX have values; REAL/AIMAG of them are known numbers."""
    path = tmp_path / "v.f"
    path.write_text(
        "      PROGRAM CV\n"
        "      DOUBLE COMPLEX Z\n"
        "      INTEGER I, N\n"
        "      Z = DCMPLX(3.0D0, 4.0D0) * (0.0D0, 1.0D0)\n"
        "      N = NINT(DIMAG(Z)) + NINT(ABS(Z))\n"
        "      DO I = 1, N\n"
        "         Z = Z + Z\n"
        "      END DO\n"
        "      END\n")
    rows = {r["line"]: r for r in run(str(path), 1).aau_rows()}
    # Z = (3+4i) i = -4+3i: N = NINT(3) + NINT(5) = 8 iterations of the body
    assert rows[6]["count"] == 1 and rows[7]["count"] == 8


def test_declarations_and_constants_parse(tmp_path):
    path = tmp_path / "d.f"
    path.write_text(
        "      SUBROUTINE D(A, B, C)\n"
        "      DOUBLE COMPLEX A(4)\n"
        "      COMPLEX*16 B\n"
        "      COMPLEX C, E\n"
        "      DATA E /(1.0, -2.0)/\n"
        "      A(1) = (1, 2) + ( -1.5D0 , .5D0 )\n"
        "      B = CMPLX(1, 2)\n"
        "      C = CONJG(C)\n"
        "      END\n")
    table = build_aag([str(path)]).units["D"].symbols
    assert [table.symbols[n].type for n in "ABCE"] == ["DCOMPLEX", "DCOMPLEX", "COMPLEX",
                                                       "COMPLEX"]
    assert table.symbols["A"].elem_bytes == 16 and table.symbols["C"].elem_bytes == 8
