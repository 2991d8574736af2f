"""The Lark F77 grammar and the AST it produces: one test per construct, then the errors."""

from __future__ import annotations

import pytest

from interp.application import ast
from interp.application.ast import expr_text
from interp.application.cards import read_fixed_form
from interp.application.parser import parse_file, parse_statement
from interp.errors import InterpError, SourceLocation, UnsupportedError


def stmt(text: str) -> ast.Stmt:
    """Parse one statement written from column 7."""
    (card,) = read_fixed_form("      " + text + "\n", "t.f")
    return parse_statement(card)


def expr(src: str) -> str:
    """The fully parenthesised text of the expression ``src``."""
    return expr_text(stmt("X = " + src).value)


def dims(entity: ast.Entity) -> list:
    return [(expr_text(lo) if lo else None, expr_text(hi) if hi else None) for lo, hi in entity.dims]


# ---- program units ------------------------------------------------------------------------


def test_program_subroutine_function_end(fixed):
    units = parse_file(fixed("""
        PROGRAM MAIN
        CALL S(1, 2)
        END
        SUBROUTINE S(A, B)
        RETURN
        END SUBROUTINE S
        INTEGER FUNCTION F(X)
        F = X
        END
        DOUBLE PRECISION FUNCTION G()
        G = 1.0D0
        END
        FUNCTION H(Y)
        H = Y
        END
    """))
    assert [(u.kind, u.name, u.dummies) for u in units] == [
        ("PROGRAM", "MAIN", []), ("SUBROUTINE", "S", ["A", "B"]), ("FUNCTION", "F", ["X"]),
        ("FUNCTION", "G", []), ("FUNCTION", "H", ["Y"]),
    ]
    assert [u.result_type.base if u.result_type else None for u in units] == [
        None, None, "INTEGER", "DOUBLE", None]
    assert [(u.loc.line, u.end_line) for u in units] == [(1, 3), (4, 6), (7, 9), (10, 12), (13, 15)]


def test_main_program_without_program_statement(fixed):
    (unit,) = parse_file(fixed("""
        X = 1
        END
    """))
    assert (unit.kind, unit.name) == ("PROGRAM", "MAIN")


# ---- specification statements --------------------------------------------------------------


@pytest.mark.parametrize("text, base, size", [
    ("INTEGER I", "INTEGER", None),
    ("INTEGER*2 I", "INTEGER", 2),
    ("REAL X", "REAL", None),
    ("REAL*8 X", "DOUBLE", 8),
    ("DOUBLE PRECISION X", "DOUBLE", 8),
    ("DOUBLEPRECISION X", "DOUBLE", 8),
    ("LOGICAL L", "LOGICAL", None),
    ("COMPLEX Z", "COMPLEX", None),
    ("CHARACTER C", "CHARACTER", 1),
    ("CHARACTER*10 C", "CHARACTER", 10),
    ("CHARACTER*(8) C", "CHARACTER", 8),
])
def test_type_declarations(text, base, size):
    s = stmt(text)
    assert isinstance(s, ast.TypeDecl)
    assert (s.type.base, s.type.size) == (base, size)


def test_character_lengths_per_entity_and_assumed():
    s = stmt("CHARACTER*10 S, T*5, U(3)*2")
    assert [(e.name, e.char_len) for e in s.entities] == [("S", None), ("T", 5), ("U", 2)]
    assert dims(s.entities[2]) == [(None, "3")]
    assert stmt("CHARACTER*(*) Q").type.size == 0  # taken from the actual argument


def test_array_declarations_with_bounds():
    s = stmt("INTEGER I, J(10), K(0:N+1, *)")
    assert [e.dims is None for e in s.entities] == [True, False, False]
    assert dims(s.entities[1]) == [(None, "10")]
    assert dims(s.entities[2]) == [("0", "(N + 1)"), (None, None)]


def test_dimension_statement():
    s = stmt("DIMENSION U(0:N+1), V(N, 2)")
    assert isinstance(s, ast.Dimension)
    assert [(e.name, dims(e)) for e in s.entities] == [
        ("U", [("0", "(N + 1)")]), ("V", [(None, "N"), (None, "2")])]


def test_parameter_statement():
    s = stmt("PARAMETER (N = 10, M = N*2)")
    assert [(name, expr_text(e)) for name, e, _ in s.defs] == [("N", "10"), ("M", "(N * 2)")]


@pytest.mark.parametrize("text, blocks", [
    ("COMMON /BLK/ A, B(10) /C2/ X", [("BLK", ["A", "B"]), ("C2", ["X"])]),
    ("COMMON /BLK/ A, /C2/ X, Y", [("BLK", ["A"]), ("C2", ["X", "Y"])]),  # comma before a name
    ("COMMON X, Y", [("", ["X", "Y"])]),
    ("COMMON // X, /B/ Y", [("", ["X"]), ("B", ["Y"])]),
])
def test_common_statement(text, blocks):
    s = stmt(text)
    assert [(b, [e.name for e in es]) for b, es in s.blocks] == blocks


def test_common_array_declarator():
    s = stmt("COMMON /BLK/ A, B(10)")
    assert dims(s.blocks[0][1][1]) == [(None, "10")]


def test_data_statement_with_repeat_counts_and_constants():
    s = stmt("DATA A /1.0/, B /3*0.0/, I, J /1, -2/, L /.TRUE./, D /2.5D0/")
    assert [expr_text(t) for t in s.targets] == ["A", "B", "I", "J", "L", "D"]
    assert [expr_text(v) for v in s.values] == ["1.0", "0.0", "0.0", "0.0", "1", "-2", ".TRUE.", "2.5"]
    assert s.values[-1].kind == "DOUBLE"


def test_external_intrinsic_save():
    s = stmt("EXTERNAL FOO, BAR")
    assert (s.kind, s.names) == ("EXTERNAL", ["FOO", "BAR"])
    assert stmt("INTRINSIC SQRT").kind == "INTRINSIC"
    assert stmt("SAVE").kind == "SAVE"


def test_implicit_statements():
    assert stmt("IMPLICIT NONE").none is True
    s = stmt("IMPLICIT DOUBLE PRECISION (A-H, O-Z), INTEGER (I-N), LOGICAL (L)")
    assert [(spec.base, ranges) for spec, ranges in s.rules] == [
        ("DOUBLE", [("A", "H"), ("O", "Z")]), ("INTEGER", [("I", "N")]), ("LOGICAL", [("L", "L")])]


def test_implicit_range_of_names_is_an_error():
    with pytest.raises(InterpError, match="single letters"):
        stmt("IMPLICIT REAL (AB-C)")


def test_include_statement():
    assert stmt("INCLUDE 'mpif.h'").path == "mpif.h"


# ---- expressions ---------------------------------------------------------------------------


@pytest.mark.parametrize("src, tree", [
    ("A - B - C", "((A - B) - C)"),              # left-associative
    ("A / B * C", "((A / B) * C)"),
    ("A + B * C", "(A + (B * C))"),
    ("2**3**2", "(2 ** (3 ** 2))"),              # ** is right-associative
    ("-2**2", "-(2 ** 2)"),                      # unary minus binds looser than **
    ("-A + B", "(-A + B)"),
    ("A * B**2", "(A * (B ** 2))"),
    ("2.0**-1", "(2.0 ** -1)"),                  # signed exponent (common extension)
    ("A // B // C", "((A // B) // C)"),
    ("X .LT. Y + 1", "(X .LT. (Y + 1))"),        # arithmetic before relational
    ("A // B .EQ. C", "((A // B) .EQ. C)"),      # concatenation before relational
    (".NOT. A .AND. B", "(.NOT. A .AND. B)"),    # .NOT. before .AND.
    ("A .OR. B .AND. C", "(A .OR. (B .AND. C))"),
    ("A .EQV. B .OR. C", "(A .EQV. (B .OR. C))"),
    ("A .NEQV. B", "(A .NEQV. B)"),
    ("I.EQ.1.AND.J.NE.2", "((I .EQ. 1) .AND. (J .NE. 2))"),
    ("X .GE. Y .AND. X .LE. Z .OR. X .GT. W", "(((X .GE. Y) .AND. (X .LE. Z)) .OR. (X .GT. W))"),
    ("X == Y", "(X .EQ. Y)"),
    ("X /= Y", "(X .NE. Y)"),
    (".TRUE. .OR. .FALSE.", "(.TRUE. .OR. .FALSE.)"),
])
def test_f77_operator_precedence(src, tree):
    assert expr(src) == tree


def test_integer_before_relational_operator_lexes_as_integer():
    # "1.EQ.2" is 1 .EQ. 2, not the real 1. followed by EQ.2
    e = stmt("L = 1.EQ.2").value
    assert isinstance(e, ast.BinOp) and e.op == "EQ"
    assert (e.left.value, e.left.kind, e.right.value, e.right.kind) == (1, "INTEGER", 2, "INTEGER")
    e = stmt("L = 1.0.EQ.2.").value
    assert (e.left.value, e.left.kind, e.right.value, e.right.kind) == (1.0, "REAL", 2.0, "REAL")


@pytest.mark.parametrize("src, value, kind", [
    ("2.5D0", 2.5, "DOUBLE"),
    ("1.D0", 1.0, "DOUBLE"),
    ("1.5D-3", 0.0015, "DOUBLE"),
    ("2.5E0", 2.5, "REAL"),
    (".5E-3", 0.0005, "REAL"),
    ("3.", 3.0, "REAL"),
    ("1E5", 100000.0, "REAL"),
    ("42", 42, "INTEGER"),
])
def test_numeric_literals(src, value, kind):
    n = stmt("X = " + src).value
    assert (n.value, n.kind) == (value, kind)


def test_string_literals_with_doubled_quotes():
    assert stmt("S = 'it''s'").value.value == "it's"
    assert stmt('S = "say ""hi"""').value.value == 'say "hi"'


def test_array_references_and_substrings():
    e = stmt("X = A(I, J+1) + S(1:3)").value
    assert expr_text(e) == "(A(I, (J + 1)) + S(1:3))"
    rng = e.right.args[0]
    assert isinstance(rng, ast.Range) and (rng.lo.value, rng.hi.value) == (1, 3)
    assert expr_text(stmt("C = T(:2)").value) == "T(:2)"


@pytest.mark.parametrize("src, lo, hi", [
    ("S(1:3)", "1", "3"), ("S(:2)", None, "2"), ("S(2:)", "2", None), ("S(:)", None, None)])
def test_substring_forms(src, lo, hi):
    (rng,) = stmt("C = " + src).value.args
    assert isinstance(rng, ast.Range)
    assert (rng.lo and expr_text(rng.lo), rng.hi and expr_text(rng.hi)) == (lo, hi)
    # "C = S(" from column 7: the range starts at column 13 (its ':' when there is no lower bound)
    assert rng.loc.column == 13


def test_expression_locations():
    # "X = (B - A) / C + F(I)" from column 7:
    #  X@7 (@11 B@12 A@16 /@19 C@21 F@25 I@27
    e = stmt("X = (B - A) / C + F(I)").value
    div, ref = e.left, e.right
    assert [n.loc.column for n in (e, div, div.left, div.left.left, div.right, ref, ref.args[0])] == [
        11, 11, 12, 12, 21, 25, 27]
    # a node starts at its first character: the parenthesis of a parenthesised first operand
    # belongs to the enclosing node, not to the operand itself
    (do,) = stmt("READ (5,*) (A(I), I = 1, N)").items
    assert do.loc.column == 18  # the '(' of the implied DO


def test_statement_of_a_logical_if_starts_after_the_condition():
    # "IF (S .EQ. ')') CALL F(X)" from column 7: CALL is at column 23 (the ')' in the
    # string does not end the condition)
    s = stmt("IF (S .EQ. ')') CALL F(X)")
    assert (s.loc.column, s.stmt.loc.column) == (7, 23)
    s = stmt("IF ((A) .GT. B) IDR = IRECV(1, Y, 4)")
    assert s.stmt.loc.column == 23 and s.cond.loc.column == 11
    # an array whose name begins with IF is not a logical IF
    assert stmt("IFLAG(I) = 0").loc.column == 7


def test_array_element_assignment():
    s = stmt("U(I+1) = 0.5D0*(U(I) + U(I+2))")
    assert isinstance(s, ast.Assign) and isinstance(s.target, ast.Ref)
    assert expr_text(s.target) == "U((I + 1))"


def test_intrinsics_and_type_keywords_as_function_names():
    # REAL, DBLE, ... are intrinsic names in an expression, not the REAL type keyword
    assert expr("REAL(I) + DBLE(J) + SQRT(X) + MOD(I, 2)") == \
        "(((REAL(I) + DBLE(J)) + SQRT(X)) + MOD(I, 2))"


@pytest.mark.parametrize("text", ["IFX = 1", "DOX = 1", "ENDX = 1", "CALLX = 1", "READX = 1",
                                  "DATAX = 1", "REALX = 1", "GOTOX = 1"])
def test_names_that_begin_with_keywords_are_assignments(text):
    s = stmt(text)
    assert isinstance(s, ast.Assign) and s.target.name == text.split()[0]


# ---- executable statements -------------------------------------------------------------------


def test_do_statements():
    s = stmt("DO 10 I = ME+1, N-1, NP")
    assert (s.end_label, s.var, expr_text(s.start), expr_text(s.stop), expr_text(s.step)) == (
        10, "I", "(ME + 1)", "(N - 1)", "NP")
    s = stmt("DO 10, I = 1, N")
    assert (s.end_label, s.step) == (10, None)
    s = stmt("DO I = 1, N")
    assert (s.end_label, s.var) == (None, "I")
    s = stmt("DO WHILE (X .LT. 1.0)")
    assert isinstance(s, ast.DoWhileStmt) and expr_text(s.cond) == "(X .LT. 1.0)"
    assert stmt("DO 20 WHILE (K .GT. 0)").end_label == 20


@pytest.mark.parametrize("text, cls", [
    ("ENDDO", ast.EndDo), ("END DO", ast.EndDo),
    ("IF (X .GT. 0) THEN", ast.IfThen),
    ("ELSEIF (X .GT. 1) THEN", ast.ElseIf), ("ELSE IF (X .GT. 1) THEN", ast.ElseIf),
    ("ELSE", ast.Else), ("END IF", ast.EndIf), ("ENDIF", ast.EndIf),
    ("CONTINUE", ast.Continue), ("RETURN", ast.Return),
    ("STOP", ast.Stop), ("STOP 1", ast.Stop), ("STOP 'DONE'", ast.Stop),
    ("END", ast.End), ("END PROGRAM P", ast.End), ("END SUBROUTINE", ast.End),
])
def test_control_statements(text, cls):
    assert isinstance(stmt(text), cls)


def test_logical_if_holds_an_action_statement():
    s = stmt("IF (ME .EQ. 0) CALL CSEND(20, SUM, 8, MYHOST(), 0)")
    assert isinstance(s, ast.LogicalIf) and isinstance(s.stmt, ast.CallStmt)
    assert expr_text(s.cond) == "(ME .EQ. 0)"
    assert isinstance(stmt("IF (X .GT. 0) GOTO 10").stmt, ast.Goto)


@pytest.mark.parametrize("text", ["GO TO 10", "GOTO 10"])
def test_goto(text):
    s = stmt(text)
    assert isinstance(s, ast.Goto) and s.target == 10


def test_call_statements():
    assert stmt("CALL FOO").args == []
    assert stmt("CALL FOO()").args == []
    s = stmt("CALL FOO(A, 'S', B(1), N+1)")
    assert (s.name, [expr_text(a) for a in s.args]) == ("FOO", ["A", "'S'", "B(1)", "(N + 1)"])


def test_function_result_of_a_library_call_is_an_assignment():
    s = stmt("IDR = IRECV(40, U(0), 8)")
    assert isinstance(s, ast.Assign) and s.value.name == "IRECV"


# ---- input/output ---------------------------------------------------------------------------


@pytest.mark.parametrize("text, items", [
    ("READ (5,*) N", ["N"]),
    ("READ (5,*) N, (A(I), I=1,N)", ["N", "(A(I), I=1, N)"]),
    ("READ (5, 100, END=99) X, Y", ["X", "Y"]),
    ("READ *, M, K", ["M", "K"]),
    ("READ 100, K", ["K"]),
    ("READ (5,*)", []),
])
def test_read(text, items):
    s = stmt(text)
    assert isinstance(s, ast.Read) and [expr_text(i) for i in s.items] == items


@pytest.mark.parametrize("text, items", [
    ("WRITE (6,*) 'HI', N", ["'HI'", "N"]),
    ("WRITE (6, '(I5)') N", ["N"]),
    ("WRITE (*,*)", []),
    ("PRINT *, N, X+1", ["N", "(X + 1)"]),
    ("PRINT 100", []),
])
def test_write_and_print(text, items):
    s = stmt(text)
    assert isinstance(s, ast.Write) and [expr_text(i) for i in s.items] == items


def test_format_and_file_statements():
    assert isinstance(stmt("FORMAT (1X,'N =',I10, 1PE12.4)"), ast.Format)
    assert stmt("OPEN (UNIT=7, FILE='X')").kind == "OPEN"
    assert stmt("CLOSE (7)").kind == "CLOSE"


def test_labels_are_attached_to_statements(fixed):
    (unit,) = parse_file(fixed("""
        PROGRAM P
        GO TO 20
        20 X = 1
        END
    """))
    assert unit.body[0].label == 20 and isinstance(unit.body[0], ast.Assign)


# ---- unsupported constructs: exact file:line:col -------------------------------------------


@pytest.mark.parametrize("line, message", [
    ("ENTRY E", "an ENTRY statement (an alternate entry point) is not supported"),
    ("EQUIVALENCE (A, B)", "EQUIVALENCE (storage association) is not supported"),
    ("RETURN 1", "alternate RETURN is not supported"),
])
def test_unsupported_constructs_point_at_the_statement(fixed, line, message):
    path = fixed(f"""
        SUBROUTINE S(X, I)
        Y = 1
          {line}
        10 CONTINUE
        20 CONTINUE
        30 CONTINUE
        END
    """)
    with pytest.raises(UnsupportedError) as exc:
        parse_file(path)
    assert exc.value.message == message
    # the statement is on line 3, indented two blanks: it starts at column 9
    assert exc.value.location == SourceLocation(str(path), 3, 9, 3)
    assert exc.value.hint


def test_unsupported_construct_says_what_to_write_instead(fixed):
    """The hint names the rewrite, not only that the construct is refused (sweep 4: it read
    "interp models a structured Fortran 77 subset; see README")."""
    path = fixed("""
        SUBROUTINE S(X)
          ENTRY E(X)
        END
    """)
    with pytest.raises(UnsupportedError) as exc:
        parse_file(path)
    assert exc.value.hint.startswith("make each entry point a SUBROUTINE or FUNCTION of its own")


def test_alternate_return_argument_points_at_the_star(fixed):
    path = fixed("""
        PROGRAM P
        CALL S(A, *10)
        10 CONTINUE
        END
    """)
    with pytest.raises(UnsupportedError) as exc:
        parse_file(path)
    # "CALL S(A, *10)" from column 7: the '*' is the 11th character → column 17
    assert exc.value.location == SourceLocation(str(path), 2, 17, 2)


# ---- syntax errors ---------------------------------------------------------------------------


def test_syntax_error_names_the_offending_token_and_what_was_expected(fixed):
    path = fixed("""
        PROGRAM P
        X = 1 + * 2
        END
    """)
    with pytest.raises(InterpError) as exc:
        parse_file(path)
    err = exc.value
    # "X = 1 + * 2" from column 7: the '*' is the 9th character → column 15
    assert err.location == SourceLocation(str(path), 2, 15, 2)
    assert err.message == "syntax error: unexpected '*'"
    assert err.hint.startswith("expected one of: ") and "a name" in err.hint
    assert err.render().splitlines() == [
        f"{path}:2:15: error: syntax error: unexpected '*'",
        "          X = 1 + * 2",
        "                  ^",
        f"  hint: {err.hint}",
    ]


def test_syntax_error_at_end_of_statement_points_past_the_last_character():
    with pytest.raises(InterpError) as exc:
        stmt("X = (1 +")
    # "X = (1 +" occupies columns 7-14; the statement ends before column 15
    assert exc.value.location.column == 15
    assert exc.value.message == "syntax error: unexpected end of the statement"


def test_syntax_error_in_a_statement_cut_at_column_72_says_so(tmp_path):
    """Fixed form reads columns 7-72; a statement typed past 72 loses its end, and the
    parse error at column 73 said only what was expected."""
    path = tmp_path / "long.f"
    long = "      PARAMETER (NC = MAX(LOGM, 3) + MOD(M, 7), NS = NINT(SQRT(REAL(M))))"
    assert len(long) == 73  # its last ")" in column 73: ignored
    path.write_text("      PROGRAM P\n" + long + "\n      END\n")
    with pytest.raises(InterpError) as exc:
        parse_file(path)
    assert exc.value.location.line == 2 and exc.value.location.column == 73
    assert exc.value.hint.startswith("fixed form ignores text past column 72 (line 2)")
    # a card deck's sequence numbers past column 72 change nothing when the statement parses
    path.write_text("      PROGRAM P" + " " * 57 + "P0000010\n      X = 1" + " " * 61
                    + "P0000020\n      END\n")
    parse_file(path)


def test_syntax_error_on_a_continuation_line_points_at_that_line(fixed):
    path = fixed("""
        PROGRAM P
        X = A +
        &   B C
        END
    """)
    with pytest.raises(InterpError) as exc:
        parse_file(path)
    # line 3 is "     &   B C": 'C' is in column 12
    assert exc.value.location == SourceLocation(str(path), 3, 12, 3)
    assert exc.value.message == "syntax error: unexpected 'C'"


def test_expected_hint_uses_readable_operator_names():
    with pytest.raises(InterpError) as exc:
        stmt("X = 'A' 'B'")
    assert "'//'" in exc.value.hint and ".AND." in exc.value.hint
    assert "CONCA," not in exc.value.hint


def test_logical_if_cannot_hold_another_if():
    with pytest.raises(InterpError) as exc:
        stmt("IF (X) IF (Y) Z = 1")
    assert exc.value.message.startswith("syntax error")
