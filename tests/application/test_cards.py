"""The card reader: physical lines → logical statements, each character keeping its place."""

from __future__ import annotations

import pytest

from interp.application.cards import read_fixed_form, read_free_form, read_source
from interp.application.parser import parse_file
from interp.errors import InterpError, SourceLocation


def cards(text: str):
    return read_fixed_form(text, "t.f")


# ---- fixed form ---------------------------------------------------------------------------


def test_label_in_columns_1_to_5_and_statement_from_column_7():
    (c,) = cards("   10 CONTINUE\n")
    assert (c.label, c.text) == (10, "CONTINUE")
    assert c.location(0) == SourceLocation("t.f", 1, 7, 1)
    (c,) = cards("10    X = 1\n")  # left-justified label, statement still at column 7
    assert (c.label, c.text) == (10, "X = 1")
    (c,) = cards("      X = 1\n")
    assert c.label is None


def test_column_6_continuation_joins_lines_and_keeps_physical_columns():
    src = "      X = A +\n     &    B\n     1  + C\n"
    (c,) = cards(src)
    assert c.text == "X = A +    B  + C"
    assert (c.line, c.end_line) == (1, 3)
    # 'B' is on line 2 at column 11 (6 for '&', then 4 blanks); '+' of line 3 at column 9
    assert c.location(c.text.index("B")) == SourceLocation("t.f", 2, 11, 3)
    assert c.location(c.text.rindex("+")) == SourceLocation("t.f", 3, 9, 3)


def test_zero_in_column_6_is_not_a_continuation():
    got = cards("      X = 1\n     0Y = 2\n")
    assert [c.text for c in got] == ["X = 1", "Y = 2"]


def test_nineteen_continuations_are_allowed():
    src = "      X = 1\n" + "     &+1\n" * 19
    (c,) = cards(src)
    assert c.text == "X = 1" + "+1" * 19 and c.end_line == 20


def test_twentieth_continuation_is_an_error_at_its_column_6():
    src = "      X = 1\n" + "     &+1\n" * 20
    with pytest.raises(InterpError) as exc:
        cards(src)
    assert "more than 19 continuation lines" in exc.value.message
    assert exc.value.location == SourceLocation("t.f", 21, 6)


def test_continuation_without_a_statement_is_an_error():
    with pytest.raises(InterpError) as exc:
        cards("     &X = 1\n")
    assert exc.value.message == "continuation line with no statement to continue"
    assert exc.value.location == SourceLocation("t.f", 1, 6)


def test_continuation_line_cannot_carry_a_label():
    with pytest.raises(InterpError) as exc:
        cards("      X = 1\n   10+2\n")
    assert exc.value.message == "a continuation line cannot carry a label"
    assert exc.value.location == SourceLocation("t.f", 2, 1)


def test_non_numeric_label_field_is_an_error():
    with pytest.raises(InterpError) as exc:
        cards("PROGRAM P\n")  # free-form text in a fixed-form file
    assert exc.value.message == "statement label 'PROGR' is not a number"
    assert exc.value.location == SourceLocation("t.f", 1, 1)


def test_text_past_column_72_is_ignored():
    line = "      X = 1".ljust(72) + "SEQ00010"
    (c,) = cards(line + "\n")
    assert c.text == "X = 1"
    # a statement running right up to column 72 keeps its last character, loses column 73
    (c,) = cards("      Y = " + "1" * 62 + "9\n")  # the 9 is in column 73
    assert c.text == "Y = " + "1" * 62


@pytest.mark.parametrize("mark", ["C", "c", "*"])
def test_comment_lines_in_column_1(mark):
    got = cards(f"{mark} a comment X = 1\n      Y = 2\n{mark}\n")
    assert [c.text for c in got] == ["Y = 2"]


def test_non_ascii_digits_are_not_labels():
    # '²'.isdigit() is True in Python, but int('²') fails: it must be a clean error
    with pytest.raises(InterpError) as exc:
        cards("  ²   X = 1\n")
    assert exc.value.message == "statement label '²' is not a number"
    got = read_free_form("² = 1\n", "t.f90")
    assert [(c.label, c.text) for c in got] == [(None, "² = 1")]


def test_bang_comments_but_not_inside_strings():
    got = cards(
        "! whole-line comment\n"
        "      ! indented comment\n"
        "      S = 'A!B' ! trailing comment\n"
        "      T = \"it's!\"! another\n"
    )
    assert [c.text for c in got] == ["S = 'A!B'", "T = \"it's!\""]


def test_bang_in_column_6_is_a_continuation_mark():
    # Only column 6 makes '!' a continuation character; anywhere else it starts a comment.
    (c,) = cards("      X = 1\n     !+ 2\n")
    assert c.text == "X = 1+ 2"


def test_blank_lines_are_skipped():
    got = cards("\n      X = 1\n\n   \n      Y = 2\n")
    assert [(c.text, c.line) for c in got] == [("X = 1", 2), ("Y = 2", 5)]


def test_tab_form_lines():
    got = cards("\tX = 1\n10\tCONTINUE\n\tY = A +\n\t1B\n")
    assert [(c.label, c.text) for c in got] == [(None, "X = 1"), (10, "CONTINUE"), (None, "Y = A +B")]
    # the statement starts right after the tab: column 2; continuation text after the digit
    assert got[0].location(0) == SourceLocation("t.f", 1, 2, 1)
    assert got[2].location(len("Y = A +")) == SourceLocation("t.f", 4, 3, 4)


def test_tab_form_continuations_obey_the_19_line_limit():
    src = "\tX = 1\n" + "\t1+1\n" * 20
    with pytest.raises(InterpError) as exc:
        cards(src)
    assert "more than 19 continuation lines" in exc.value.message
    assert exc.value.location.line == 21


def test_case_insensitive_outside_strings():
    (c,) = cards("      call Foo(x, 'Mixed Case', \"dq\")\n")
    assert c.text == "CALL FOO(X, 'Mixed Case', \"dq\")"


def test_string_continued_across_a_card_keeps_its_case():
    (c,) = cards("      S = 'abc\n     &def'\n")
    assert c.text == "S = 'abcdef'"


# ---- free form ------------------------------------------------------------------------------


def test_free_form_ampersand_continuation_comments_and_labels():
    src = (
        "program p  ! free form\n"
        "  x = a + &   ! comment after the &\n"
        "      & b\n"
        "\n"
        "10 continue\n"
        "  s = 'don''t!'\n"
        "end\n"
    )
    got = read_free_form(src, "t.f90")
    assert [(c.label, c.text) for c in got] == [
        (None, "PROGRAM P"), (None, "X = A +  B"), (10, "CONTINUE"), (None, "S = 'don''t!'"),
        (None, "END"),
    ]
    # 'B' is on line 3, column 9: 6 blanks, the leading '&' (column 7, dropped), a blank
    x = got[1]
    assert x.location(x.text.index("B")) == SourceLocation("t.f90", 3, 9, 3)
    assert got[2].location(0).column == 4


def test_free_form_file_builds_by_suffix(tmp_path):
    path = tmp_path / "p.f90"
    path.write_text("program p\n  x = 1 + &\n      2\nend program p\n")
    (unit,) = parse_file(path)
    assert unit.name == "P" and len(unit.body) == 1


# ---- files ----------------------------------------------------------------------------------


def test_missing_file(tmp_path):
    with pytest.raises(InterpError) as exc:
        read_source(tmp_path / "nope.f")
    assert exc.value.message == f"no such file: {tmp_path / 'nope.f'}"
    assert exc.value.location is None and exc.value.hint


def test_wrong_extension(write_raw):
    path = write_raw("      END\n", "prog.c")
    with pytest.raises(InterpError) as exc:
        read_source(path)
    assert exc.value.message == f"{path}: unrecognised file extension '.c'"
    assert ".f90" in exc.value.hint


def test_directory_is_not_a_source_file(tmp_path):
    d = tmp_path / "dir.f"
    d.mkdir()
    with pytest.raises(InterpError, match="is a directory"):
        read_source(d)


@pytest.mark.parametrize("text", ["", "   \n\n"])
def test_empty_file(write_raw, text):
    path = write_raw(text)
    with pytest.raises(InterpError) as exc:
        read_source(path)
    assert exc.value.message == f"{path} is empty"


def test_file_of_only_comments_has_no_program_unit(write_raw):
    path = write_raw("C just a comment\n\n* and another\n")
    with pytest.raises(InterpError) as exc:
        parse_file(path)
    assert exc.value.message == f"{path} holds no statements, only comments"
    assert exc.value.location == SourceLocation(str(path), 1, 1)


def test_missing_end_points_at_the_last_line(write_raw):
    path = write_raw("      PROGRAM P\n      X = 1\n")
    with pytest.raises(InterpError) as exc:
        parse_file(path)
    assert exc.value.message == "missing END statement at the end of the file"
    assert exc.value.location == SourceLocation(str(path), 2, 1)


def test_error_render_shows_the_line_and_a_caret():
    with pytest.raises(InterpError) as exc:
        cards("      X = 1\n   10+2\n")
    assert exc.value.render().splitlines()[:3] == [
        "t.f:2:1: error: a continuation line cannot carry a label",
        "       10+2",
        "    ^",
    ]
