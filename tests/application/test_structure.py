"""Nesting DO/IF blocks and turning the GO TO patterns of structured F77 into structure."""

from __future__ import annotations

import pytest

from interp.application import ast
from interp.application.aag import build_aag
from interp.application.ast import expr_text
from interp.application.parser import parse_file
from interp.errors import InterpError, SourceLocation, UnsupportedError

from .helpers import body, shape


def unit_body(fixed, text):
    (unit,) = parse_file(fixed(text))
    return unit.body


def kinds(stmts) -> list:
    """Statement classes with nesting, for compact structural assertions."""
    out = []
    for s in stmts:
        if isinstance(s, (ast.DoLoop, ast.WhileLoop)):
            out.append((type(s).__name__, kinds(s.body)))
        elif isinstance(s, ast.IfBlock):
            arms = [kinds(b) for _, b, _ in s.branches]
            if s.else_body is not None:
                arms.append(kinds(s.else_body))
            out.append(("IfBlock", arms))
        else:
            out.append(type(s).__name__)
    return out


# ---- DO loops ------------------------------------------------------------------------------


def test_labelled_do_with_continue(fixed):
    stmts = unit_body(fixed, """
        PROGRAM P
        DO 10 I = 1, N
        X = X + I
        10 CONTINUE
        Y = X
        END
    """)
    assert kinds(stmts) == [("DoLoop", ["Assign", "Continue"]), "Assign"]
    loop = stmts[0]
    assert (loop.loc.line, loop.end_line, loop.var) == (2, 4, "I")


def test_do_ended_by_a_labelled_assignment(fixed):
    stmts = unit_body(fixed, """
        PROGRAM P
        DO 10 I = 1, N
        10 X = X + I
        END
    """)
    assert kinds(stmts) == [("DoLoop", ["Assign"])]


def test_shared_terminal_label_closes_both_loops(fixed):
    stmts = unit_body(fixed, """
        PROGRAM P
        DO 10 I = 1, N
        X = 1
        DO 10 J = 1, M
        Y = 2
        10 CONTINUE
        Z = 3
        END
    """)
    assert kinds(stmts) == [("DoLoop", ["Assign", ("DoLoop", ["Assign", "Continue"])]), "Assign"]
    assert [stmts[0].var, stmts[0].body[1].var] == ["I", "J"]


def test_do_enddo_and_do_while(fixed):
    stmts = unit_body(fixed, """
        PROGRAM P
        DO I = 1, 3
          X = X + 1
        ENDDO
        DO WHILE (X .LT. 10)
          X = X + 1
        END DO
        DO 20 K = 1, 2
          X = 0
        20 END DO
        END
    """)
    assert kinds(stmts) == [("DoLoop", ["Assign"]), ("WhileLoop", ["Assign"]),
                            ("DoLoop", ["Assign", "Continue"])]
    assert expr_text(stmts[1].cond) == "(X .LT. 10)" and not stmts[1].test_at_end


def test_do_ended_by_a_labelled_logical_if(fixed):
    stmts = unit_body(fixed, """
        PROGRAM P
        DO 10 I = 1, N
        10 IF (X .GT. 0) Y = 1
        END
    """)
    assert kinds(stmts) == [("DoLoop", [("IfBlock", [["Assign"]])])]


# ---- IF blocks ----------------------------------------------------------------------------


def test_logical_if_becomes_a_one_arm_block(fixed):
    (s,) = unit_body(fixed, """
        PROGRAM P
        IF (X .GT. 0) Y = 1
        END
    """)
    assert isinstance(s, ast.IfBlock) and s.else_body is None
    assert [expr_text(c) for c, _, _ in s.branches] == ["(X .GT. 0)"]


@pytest.mark.parametrize("elseif, endif", [("ELSE IF", "END IF"), ("ELSEIF", "ENDIF")])
def test_block_if_else_if_else(fixed, elseif, endif):
    (s,) = unit_body(fixed, f"""
        PROGRAM P
        IF (X .GT. 1) THEN
          Y = 1
        {elseif} (X .GT. 0) THEN
          Y = 2
          Z = 2
        ELSE
          Y = 3
        {endif}
        END
    """)
    assert kinds([s]) == [("IfBlock", [["Assign"], ["Assign", "Assign"], ["Assign"]])]
    assert [expr_text(c) for c, _, _ in s.branches] == ["(X .GT. 1)", "(X .GT. 0)"]
    assert (s.loc.line, s.end_line, s.else_loc.line) == (2, 9, 7)


# ---- GO TO → structure ------------------------------------------------------------------------


def test_forward_conditional_skip_becomes_a_conditional(fixed, aag_of):
    text = """
        PROGRAM P
        IF (X .GT. 0) GO TO 10
        Y = 1
        10 CONTINUE
        Z = 1
        END
    """
    stmts = unit_body(fixed, text)
    # the skipped Y = 1 runs only when the condition is false: the ELSE arm
    assert kinds(stmts) == [("IfBlock", [[], ["Assign"]]), "Continue", "Assign"]
    assert shape(body(aag_of(text))) == [("CondtD", [[], ["Seq"]]), "Seq"]


def test_branch_ending_in_goto_takes_the_skipped_code_out_of_its_path(fixed):
    stmts = unit_body(fixed, """
        PROGRAM P
        IF (A .GT. 0) THEN
          X = 1
          GO TO 20
        END IF
        Y = 2
        20 CONTINUE
        END
    """)
    assert kinds(stmts) == [("IfBlock", [["Assign"], ["Assign"]]), "Continue"]
    assert stmts[0].else_body[0].target.name == "Y"


def test_forward_unconditional_goto_drops_dead_code(fixed):
    stmts = unit_body(fixed, """
        PROGRAM P
        GO TO 10
        X = 1
        10 Y = 2
        END
    """)
    assert kinds(stmts) == ["Assign"] and stmts[0].target.name == "Y"


def test_backward_conditional_goto_is_a_loop_tested_at_its_end(fixed, aag_of):
    text = """
        PROGRAM P
        10 X = X + 1
        IF (X .LT. 10) GO TO 10
        END
    """
    (loop,) = unit_body(fixed, text)
    assert isinstance(loop, ast.WhileLoop) and loop.test_at_end
    assert expr_text(loop.cond) == "(X .LT. 10)" and kinds(loop.body) == ["Assign"]
    (it,) = body(aag_of(text))
    assert it.type == "IterND" and it.num_iters is None
    assert it.nd_reason == "a GO TO loop: it repeats while its condition holds"


def test_backward_goto_loop_with_a_forward_skip_inside(fixed):
    stmts = unit_body(fixed, """
        PROGRAM P
        10 CONTINUE
        IF (X .GT. 5) GO TO 20
        X = X + 2
        20 X = X + 1
        IF (X .LT. 100) GO TO 10
        END
    """)
    assert kinds(stmts) == [("WhileLoop", ["Continue", ("IfBlock", [[], ["Assign"]]), "Assign"])]


def test_goto_to_the_loop_terminal_is_a_cycle_not_an_exit(aag_of):
    (loop,) = body(aag_of("""
        PROGRAM P
        REAL A(10)
        DO 10 I = 1, 10
        IF (A(I) .LT. 0) GO TO 10
        S = S + A(I)
        10 CONTINUE
        END
    """))
    assert loop.type == "IterD" and loop.num_iters == 10
    assert shape(loop.children) == [("CondtD", [[], ["Seq"]])]


def test_exit_from_a_do_loop_makes_it_nondeterministic(aag_of):
    (loop, after) = body(aag_of("""
        PROGRAM P
        DO 10 I = 1, 10
          IF (X .GT. 5) GO TO 20
          X = X + 1
        10 CONTINUE
        20 Y = X
        END
    """))
    assert loop.type == "IterND" and after.type == "Seq"
    assert loop.nd_reason == "a GO TO can leave it before the last iteration"
    assert loop.num_iters == 10  # the bound is still known: at most 10
    cond = loop.children[0]
    assert cond.type == "CondtD" and [a.type for a in cond.branches[0].body] == ["End"]
    assert cond.branches[0].body[0].kind == "exit:20"


def test_exit_from_an_inner_loop_makes_both_loops_nondeterministic(aag_of):
    (outer,) = body(aag_of("""
        PROGRAM P
        DO 20 I = 1, 10
          DO 10 J = 1, 10
            IF (X .GT. 1) GO TO 30
        10  CONTINUE
        20 CONTINUE
        30 CONTINUE
        END
    """))
    assert shape([outer]) == [("IterND", [("IterND", [("CondtD", [["End"]])])])]


def test_exit_from_a_block_if_inside_a_loop(aag_of):
    (loop,) = body(aag_of("""
        PROGRAM P
        DO 10 I = 1, 10
          IF (X .GT. 1) THEN
            Y = 1
            GO TO 20
          END IF
        10 CONTINUE
        20 CONTINUE
        END
    """))
    assert shape([loop]) == [("IterND", [("CondtD", [["Seq", "End"]])])]


# ---- errors --------------------------------------------------------------------------------


def check_error(fixed, text, message, line, cls=InterpError):
    path = fixed(text)
    with pytest.raises(cls) as exc:
        build_aag([path])
    assert exc.value.message == message
    assert (exc.value.location.file, exc.value.location.line) == (str(path), line)
    return exc.value


def test_jump_into_a_block_is_unsupported(fixed):
    err = check_error(fixed, """
        PROGRAM P
        GO TO 10
        IF (A .GT. 0) THEN
        10 X = 1
        END IF
        END
    """, "GO TO 10: label 10 jumps into or across a block in a way interp cannot structure", 2,
        UnsupportedError)
    assert err.location.column == 7


def test_goto_an_undefined_label(fixed):
    check_error(fixed, """
        PROGRAM P
        GO TO 99
        END
    """, "GO TO 99: label 99 is not defined in this program unit", 2, UnsupportedError)


def test_do_never_closed(fixed):
    check_error(fixed, """
        PROGRAM P
        DO 10 I = 1, 10
        X = 1
        END
    """, "DO loop is never closed: no statement labelled 10 ends it", 2)


def test_if_never_closed(fixed):
    check_error(fixed, """
        PROGRAM P
        IF (X .GT. 0) THEN
        X = 1
        END
    """, "IF block is never closed: add its END IF", 2)


def test_do_terminal_inside_an_if_block(fixed):
    check_error(fixed, """
        PROGRAM P
        DO 10 I = 1, 10
        IF (X .GT. 0) THEN
        10 CONTINUE
        END IF
        END
    """, "label 10 ends a DO loop inside an unfinished IF block", 4)


def test_improperly_nested_do_loops(fixed):
    check_error(fixed, """
        PROGRAM P
        DO 10 I = 1, 10
        DO 20 J = 1, 10
        10 CONTINUE
        20 CONTINUE
        END
    """, "label 10 ends the DO loop at line 2 before the DO loop at line 3 inside it", 4)


@pytest.mark.parametrize("stmt, message", [
    ("END IF", "END IF without a matching IF (...) THEN"),
    ("ELSE", "ELSE without a matching IF (...) THEN"),
    ("ELSE IF (X .GT. 0) THEN", "ELSE IF without a matching IF (...) THEN"),
    ("END DO", "END DO without a matching DO"),
])
def test_unmatched_block_ends(fixed, stmt, message):
    check_error(fixed, f"""
        PROGRAM P
        X = 1
        {stmt}
        END
    """, message, 3)


def test_specification_after_executable_statement(fixed):
    check_error(fixed, """
        PROGRAM P
        X = 1
        INTEGER I
        END
    """, "specification statement after the first executable statement", 3)


def test_unit_starting_before_the_previous_end(fixed):
    check_error(fixed, """
        PROGRAM P
        X = 1
        SUBROUTINE S
        END
    """, "SUBROUTINE S starts before the previous unit's END", 3)


def test_unit_defined_twice(fixed):
    path = fixed("""
        SUBROUTINE S
        END
        SUBROUTINE S
        END
    """)
    with pytest.raises(InterpError) as exc:
        build_aag([path])
    assert exc.value.message == f"program unit S is defined twice (first at {path}:1:7)"
    assert exc.value.location == SourceLocation(str(path), 3, 7, 3)
