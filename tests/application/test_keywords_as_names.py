"""Fortran has no reserved words: a statement shaped ``NAME [(...)] [(...)] = expr`` is an
assignment whatever NAME is (END, DO, IF, DATA, FORMAT, REAL...), while END, END IF, END DO
and the keyword statements keep their meaning."""

from __future__ import annotations

import pytest

from interp.application import ast
from interp.application.cards import read_fixed_form
from interp.application.parser import is_assignment, parse_statement

from .helpers import body, shape


def stmt(text: str) -> ast.Stmt:
    (card,) = read_fixed_form("      " + text + "\n", "t.f")
    return parse_statement(card)


@pytest.mark.parametrize("text, target", [
    ("END(D,C) = 1", "END"), ("DO = 1", "DO"), ("IF(2) = 3", "IF"), ("DATA = 2", "DATA"),
    ("FORMAT = DATA", "FORMAT"), ("REAL(1:3) = 'ABC'", "REAL"), ("CONTINUE = 0", "CONTINUE"),
    ("ENTRY = 1", "ENTRY"), ("POINTER(2) = 1", "POINTER"), ("GOTO = 5", "GOTO"),
    ("CALL(1) = 2", "CALL"), ("S(I)(2:3) = 'X'", "S"),
])
def test_a_keyword_named_target_is_an_assignment(text, target):
    s = stmt(text)
    assert isinstance(s, ast.Assign) and s.target.name == target
    assert s.loc.column == 7


def test_a_logical_if_holding_an_assignment_to_a_keyword_name():
    s = stmt("IF (DO .EQ. 1) END(2,3) = 4")
    assert isinstance(s, ast.LogicalIf)
    assert isinstance(s.stmt, ast.Assign) and s.stmt.target.name == "END"
    assert s.stmt.loc.column == 7 + len("IF (DO .EQ. 1) ")


@pytest.mark.parametrize("text", [
    "DO 10 I = 1, N", "DO I = 1, 10", "PARAMETER (N = 5)", "OPEN(UNIT=2, FILE='X')",
    "IF (A .EQ. B) THEN", "X == 1", "END", "END IF", "CALL F(X=1)",
])
def test_keyword_statements_are_not_assignments(text):
    assert not is_assignment(text)


def test_end_and_blocks_still_close(aag_of):
    aag = aag_of("""
        PROGRAM KW
        INTEGER END(2,3), DO, D, C
        DO = 1
        DO 10 D = 1, 2
           DO C = 1, 3
              END(D,C) = DO
           END DO
        10 CONTINUE
        IF (DO .EQ. 1) THEN
           DO = 0
        END IF
        END
    """)
    assert shape(body(aag)) == ["Seq", ("IterD", [("IterD", ["Seq"])]), ("CondtD", [["Seq"]])]
    inner = body(aag)[1].children[0].children[0]
    assert inner.ops.to_json() == {"fetch": 3, "store": 1}  # DO, and the indices D, C
