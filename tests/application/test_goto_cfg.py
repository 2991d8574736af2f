"""The control-flow graph of a statement list, and what the structuring makes of it: natural
loops of back edges, cycles with two entries left as GO TOs, jumps into blocks refused."""

from __future__ import annotations

import pytest

from interp.application import ast
from interp.application.aag import build_aag
from interp.application.parser import parse_file
from interp.application.structure import _cfg
from interp.errors import UnsupportedError

from .test_structure import kinds, unit_body


def test_cfg_edges_fall_through_and_jump_from_nested_statements(fixed):
    (unit,) = parse_file(fixed("""
        PROGRAM P
        IF (K .GT. 0) GO TO 20
        10 X = X + 1
        20 Y = Y + 1
        IF (Y .LT. 5) GO TO 10
        END
    """))
    g = _cfg(unit.body)
    # 0: IF … GO TO 20, 1: 10 X, 2: 20 Y, 3: IF … GO TO 10, 4: falling off the end
    assert sorted(g.edges) == [(0, 1), (0, 2), (1, 2), (2, 3), (3, 1), (3, 4)]


def test_natural_loop_with_two_back_edges_is_one_goto_loop(fixed):
    stmts = unit_body(fixed, """
        PROGRAM P
        10 X = X + 1
        IF (X .LT. 3) GO TO 10
        IF (X .LT. 9) THEN
          X = X + 2
          GO TO 10
        END IF
        END
    """)
    (loop,) = stmts
    assert isinstance(loop, ast.GotoLoop) and loop.label == 10
    assert kinds(loop.body) == ["Assign", ("IfBlock", [["Goto"]]), ("IfBlock", [["Assign", "Goto"]])]


def test_cycle_with_two_entries_keeps_its_gotos(fixed):
    stmts = unit_body(fixed, """
        PROGRAM P
        IF (K .GT. 0) GO TO 20
        10 X = X + 1
        20 Y = Y + 1
        IF (Y .LT. 5) GO TO 10
        END
    """)
    assert kinds(stmts) == [("IfBlock", [["Goto"]]), "Assign", "Assign", ("IfBlock", [["Goto"]])]


def test_jump_into_a_do_loop_is_refused_at_the_goto(fixed):
    path = fixed("""
        PROGRAM P
        GO TO 10
        DO 20 I = 1, 3
        10 X = 1
        20 CONTINUE
        END
    """)
    with pytest.raises(UnsupportedError) as exc:
        build_aag([path])
    assert exc.value.message == ("GO TO 10: label 10 jumps into or across a block in a way "
                                 "interp cannot structure")
    assert (exc.value.location.line, exc.value.location.column) == (2, 7)
    assert "never into a DO loop or IF block" in exc.value.hint
