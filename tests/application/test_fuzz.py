"""The front end never crashes: any text builds an AAG or raises an InterpError, nothing else."""

from __future__ import annotations

import itertools
import re

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from interp.application.aag import build_aag
from interp.errors import InterpError
from interp.resources import PROGRAMS

SAMPLES = [p.read_text() for p in sorted(PROGRAMS.glob("*/*.f"))]

# Characters Fortran source is made of, plus a few that it is not.
FORTRAN_CHARS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789 =+-*/(),.':$!&\"_\t<>;?#é²"
FUZZ = settings(max_examples=150, deadline=None,
                suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])

_counter = itertools.count()


@pytest.fixture(scope="module")
def fuzz_dir(tmp_path_factory):
    return tmp_path_factory.mktemp("fuzz")


def build(directory, text: str, suffix: str = ".f") -> None:
    path = directory / f"f{next(_counter)}{suffix}"
    path.write_text(text)
    try:
        build_aag([path])
    except InterpError as err:
        err.render()  # rendering the message must not crash either


# A line that looks like fixed-form Fortran: label field, continuation mark, statement text.
fortran_line = st.one_of(
    st.text(FORTRAN_CHARS, max_size=80),
    st.builds(lambda label, mark, stmt: f"{label:<5}{mark}{stmt}",
              st.sampled_from(["", "10", "20", "100", "   10", "X"]),
              st.sampled_from([" ", " ", " ", "&", "1"]),
              st.text(FORTRAN_CHARS, max_size=66)),
    st.sampled_from([
        "      PROGRAM P", "      END", "      DO 10 I = 1, N", "   10 CONTINUE", "      END DO",
        "      IF (X .GT. 0) THEN", "      ELSE", "      END IF", "      GO TO 10",
        "      IF (X .LT. 1) GO TO 20", "   20 X = X + 1", "      CALL CSEND(1, X, 8, 0, 0)",
        "      SUBROUTINE S(A)", "      CALL S(X)", "      RETURN", "      DO WHILE (X .LT. 2)",
        "      X = Y(1:2) // 'A'", "      READ (5,*) N", "      INCLUDE 'mpif.h'",
        "      IMPLICIT NONE", "      INTEGER FUNCTION F(X)", "      Y = F(X)", "C comment",
        "      END(1, 2) = 3", "      IF (X) DO = 1", "      DOUBLE COMPLEX Z(4)",
        "      Z(1) = (1.0D0, -2.0D0) * DCONJG(Z(2))", "      K = Z'FF' + X'1'",
        "      OPEN(2, FILE='x.dat', STATUS='OLD', IOSTAT=I)", "      READ(2, *, END=20) N",
        "      READ(2, *, ERR=10) (Y(I), I=1,N)", "      INQUIRE(FILE='x', EXIST=L)",
        "      INCLUDE 'x.incl'", "      IF (N . EQ. 2) X = 1",
    ]),
)


@FUZZ
@given(lines=st.lists(fortran_line, max_size=25))
def test_random_fixed_form_text(fuzz_dir, lines):
    build(fuzz_dir, "\n".join(lines) + "\n")


@FUZZ
@given(text=st.text(max_size=400))
def test_random_free_form_text(fuzz_dir, text):
    build(fuzz_dir, text, ".f90")


mutation = st.tuples(
    st.sampled_from(["del_char", "ins_char", "dup_char", "del_line", "dup_line", "swap_lines"]),
    st.integers(min_value=0, max_value=10**6),
    st.sampled_from(FORTRAN_CHARS + "\n"),
)


def mutate(text: str, edits) -> str:
    for op, pos, ch in edits:
        if op.endswith("_char"):
            i = pos % (len(text) + 1)
            text = {"del_char": text[:i] + text[i + 1:],
                    "ins_char": text[:i] + ch + text[i:],
                    "dup_char": text[:i] + text[i:i + 1] + text[i:]}[op]
        else:
            lines = text.split("\n")
            i = pos % len(lines)
            j = (pos // 7) % len(lines)
            if op == "del_line":
                del lines[i]
            elif op == "dup_line":
                lines.insert(i, lines[i])
            else:
                lines[i], lines[j] = lines[j], lines[i]
            text = "\n".join(lines)
    return text


@FUZZ
@given(sample=st.sampled_from(SAMPLES), edits=st.lists(mutation, min_size=1, max_size=6))
def test_mutated_sample_programs(fuzz_dir, sample, edits):
    build(fuzz_dir, mutate(sample, edits))


# Token-level edits reach further than character edits: most of them still parse, so the
# structure builder, the symbol table, the SymPy conversion and the op counter all see them.
_TOKEN = re.compile(r"\.[A-Z]+\.|[A-Z][A-Z0-9_]*|\d+\.\d*(?:D[+-]?\d+)?|\d+|'[^']*'|\*\*|//|\S")
TOKENS = sorted({t for s in SAMPLES for line in s.splitlines() if line[:1] not in "Cc*"
                 for t in _TOKEN.findall(line[6:72])}) + [
    "0", "-1", ".TRUE.", "GO TO 10", "THEN", "END IF", "ENDDO", "2.5D0", "'S'", "X(1:2)",
    "MOD(N, 0)", "IRECV(1, X, 8)", "MIN(2, N .GT. 1)"]

token_edit = st.tuples(st.integers(0, 10**6), st.integers(0, 10**6),
                       st.sampled_from(["replace", "delete", "insert"]), st.sampled_from(TOKENS))


def edit_tokens(text: str, edits) -> str:
    lines = text.split("\n")
    code = [i for i, line in enumerate(lines) if len(line) > 6 and line[0] not in "Cc*"]
    for li, ti, op, tok in edits:
        i = code[li % len(code)]
        line = lines[i]
        spans = [m.span() for m in _TOKEN.finditer(line, 6, min(len(line), 72))]
        if not spans:
            continue
        a, b = spans[ti % len(spans)]
        lines[i] = {"replace": line[:a] + tok + line[b:], "delete": line[:a] + line[b:],
                    "insert": line[:b] + " " + tok + line[b:]}[op]
    return "\n".join(lines)


@FUZZ
@given(sample=st.sampled_from(SAMPLES), edits=st.lists(token_edit, min_size=1, max_size=4))
def test_token_edits_of_sample_programs(fuzz_dir, sample, edits):
    build(fuzz_dir, edit_tokens(sample, edits))
