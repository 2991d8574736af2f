"""The symbol table: declarations, F77 implicit typing, IMPLICIT rules, INCLUDE and mpif.h."""

from __future__ import annotations

import pytest

from interp.application.aag import build_aag
from interp.application.catalog import mpi_constants
from interp.application.parser import parse_file
from interp.errors import InterpError, SourceLocation

from .helpers import fixed_form


def table(aag, unit=None):
    u = aag.units[unit] if unit else next(iter(aag.units.values()))
    return u.symbols


def test_f77_default_implicit_typing_i_to_n_integer(aag_of):
    aag = aag_of("""
        PROGRAM P
        I = 1
        KOUNT = 2
        N = 3
        H = 4.0
        ALPHA = 5.0
        ZETA = 6.0
        OMEGA = 7.0
        END
    """)
    types = {n: s.type for n, s in table(aag).symbols.items()}
    assert types == {"I": "INTEGER", "KOUNT": "INTEGER", "N": "INTEGER", "H": "REAL",
                     "ALPHA": "REAL", "ZETA": "REAL", "OMEGA": "REAL"}


def test_implicit_ranges_override_the_default(aag_of):
    aag = aag_of("""
        PROGRAM P
        IMPLICIT DOUBLE PRECISION (A-H, O-Z), LOGICAL (L)
        A = 1
        HX = 1
        OK = 1
        ZZ = 1
        LFLAG = .TRUE.
        I = 1
        END
    """)
    types = {n: s.type for n, s in table(aag).symbols.items()}
    assert types == {"A": "DOUBLE", "HX": "DOUBLE", "OK": "DOUBLE", "ZZ": "DOUBLE",
                     "LFLAG": "LOGICAL", "I": "INTEGER"}


def test_explicit_declarations_win_over_implicit_typing(aag_of):
    aag = aag_of("""
        PROGRAM P
        INTEGER X
        REAL K
        DOUBLE PRECISION D(3)
        CHARACTER*8 S
        X = 1
        K = 2.0
        END
    """)
    syms = table(aag).symbols
    assert (syms["X"].type, syms["K"].type) == ("INTEGER", "REAL")
    assert (syms["D"].type, syms["D"].kind, syms["D"].elem_bytes) == ("DOUBLE", "array", 8)
    assert (syms["S"].type, syms["S"].elem_bytes) == ("CHARACTER", 8)


def test_implicit_none_makes_an_undeclared_name_an_error(fixed):
    path = fixed("""
        PROGRAM P
        IMPLICIT NONE
        INTEGER I
        I = 1
        Y = I
        END
    """)
    with pytest.raises(InterpError) as exc:
        build_aag([path])
    assert exc.value.message == "Y has no type (IMPLICIT NONE is in effect in P)"
    assert exc.value.location == SourceLocation(str(path), 5, 7, 5)
    assert exc.value.hint == "declare it, e.g. INTEGER Y or DOUBLE PRECISION Y"


def test_dimension_parameter_common_and_dummies(aag_of):
    aag = aag_of("""
        SUBROUTINE S(U, N)
        INTEGER N, M
        PARAMETER (M = 4)
        DIMENSION U(0:N+1)
        COMMON /BLK/ W(M), V
        U(0) = V
        END
    """)
    syms = table(aag).symbols
    assert syms["U"].dummy and syms["U"].is_array and syms["N"].dummy
    assert syms["M"].kind == "parameter"
    assert (syms["W"].common, syms["W"].is_array, syms["V"].common) == ("BLK", True, "BLK")
    assert syms["U"].to_json()["shape"] == [["0", "(N + 1)"]]


def test_external_names_are_functions_not_variables(aag_of):
    aag = aag_of("""
        PROGRAM P
        EXTERNAL G
        Y = G(X)
        END
    """)
    syms = table(aag).symbols
    assert syms["G"].kind == "external" and table(aag).is_function("G")


def test_include_of_a_real_file(tmp_path):
    (tmp_path / "defs.h").write_text(fixed_form("""
        INTEGER N
        PARAMETER (N = 100)
        COMMON /SHARED/ A(N)
    """))
    src = tmp_path / "p.f"
    src.write_text(fixed_form("""
        PROGRAM P
        INCLUDE 'defs.h'
        A(1) = N
        END
    """))
    aag = build_aag([src])
    syms = table(aag).symbols
    assert (syms["N"].kind, syms["A"].common, syms["A"].is_array) == ("parameter", "SHARED", True)


def test_error_inside_an_include_file_points_into_that_file(tmp_path):
    inc = tmp_path / "bad.inc"
    inc.write_text("      INTEGER N,\n")
    src = tmp_path / "p.f"
    src.write_text(fixed_form("""
        PROGRAM P
        INCLUDE 'bad.inc'
        END
    """))
    with pytest.raises(InterpError) as exc:
        parse_file(src)
    assert exc.value.location.file == str(inc) and exc.value.location.line == 1


def test_missing_include_file(fixed):
    path = fixed("""
        PROGRAM P
        INCLUDE 'nothere.h'
        END
    """)
    with pytest.raises(InterpError) as exc:
        parse_file(path)
    assert exc.value.message == f"INCLUDE file 'nothere.h' not found (looked in {path.parent})"
    assert exc.value.location == SourceLocation(str(path), 2, 7, 2)


def test_include_of_itself_is_reported(tmp_path):
    (tmp_path / "loop.h").write_text("      INCLUDE 'loop.h'\n")
    src = tmp_path / "p.f"
    src.write_text(fixed_form("""
        PROGRAM P
        INCLUDE 'loop.h'
        END
    """))
    with pytest.raises(InterpError, match="INCLUDE nested too deeply"):
        parse_file(src)


def test_mpif_h_is_builtin(aag_of):
    aag = aag_of("""
        PROGRAM P
        INCLUDE 'mpif.h'
        CALL MPI_COMM_RANK(MPI_COMM_WORLD, ME, IERR)
        END
    """)
    syms = table(aag).symbols
    assert syms["MPI_COMM_WORLD"].constant == mpi_constants()["MPI_COMM_WORLD"] == 91
    assert syms["MPI_DOUBLE_PRECISION"].constant == 1003
    assert syms["MPI_STATUS_SIZE"].kind == "parameter"
