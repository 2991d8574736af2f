"""Binary, octal and hexadecimal constants (B'...', O'...', Z'...' and the common X'...'),
in expressions and DATA: integers."""

from __future__ import annotations

import pytest

from interp.application import ast
from interp.application.cards import read_fixed_form
from interp.application.parser import parse_statement


def stmt(text: str) -> ast.Stmt:
    (card,) = read_fixed_form("      " + text + "\n", "t.f")
    return parse_statement(card)


@pytest.mark.parametrize("text, value", [
    ("K = B'1010'", 10), ("K = O'17'", 15), ("K = Z'3fff'", 0x3FFF), ("K = X'00003FFFFFFFFFFF'", 2**46 - 1),
])
def test_boz_in_expressions(text, value):
    s = stmt(text)
    assert isinstance(s.value, ast.Num) and s.value.value == value and s.value.kind == "INTEGER"


def test_boz_in_data():
    s = stmt("DATA K /Z'FF'/")
    assert [v.value for v in s.values] == [255]


def test_a_name_z_is_still_a_name():
    s = stmt("K = Z + B")
    assert isinstance(s.value, ast.BinOp) and s.value.left.name == "Z"
