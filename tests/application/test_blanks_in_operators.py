"""Blanks are not significant in fixed form: ``N . EQ. 2``, ``. TRUE .``, ``1 . AND .`` are
operators and constants as without the blanks."""

from __future__ import annotations

import pytest

from interp.application.ast import expr_text
from interp.application.cards import read_fixed_form
from interp.application.parser import parse_statement


def expr(src: str) -> str:
    (card,) = read_fixed_form("      X = " + src + "\n", "t.f")
    return expr_text(parse_statement(card).value)


@pytest.mark.parametrize("src, text", [
    ("(N . EQ. 200)", "(N .EQ. 200)"),
    ("N .ne . 1 . and. M . GT .2", "((N .NE. 1) .AND. (M .GT. 2))"),
    ("1. EQ. 2", "(1 .EQ. 2)"),
    (". NOT. L", ".NOT. L"),
    ("L . EQV . . TRUE .", "(L .EQV. .TRUE.)"),
    ("A .NEQV. .FALSE.", "(A .NEQV. .FALSE.)"),
    ("1.5 .LT. 2.", "(1.5 .LT. 2.0)"),
])
def test_operators_with_blanks(src, text):
    assert expr(src) == text
