"""OPEN, READ, INQUIRE and CLOSE with IOSTAT=, ERR= and END=.

An input file that is absent (in the current folder, as the real program looks) makes an
OPEN with STATUS='OLD' fail: IOSTAT= gets a nonzero value, ERR= is taken, and the program's
own fallback path runs; the prediction says so in a note. ``--input-file NAME=PATH`` (or the
file being there) lets list-directed READs give the program known values, implied-DO lists
included. The counts below follow from the values by hand.
"""

from __future__ import annotations

import pytest
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st

from interp import api
from interp.cli import main
from interp.engine.inputfiles import MAX_REPEAT, _split_record, convert

PROGRAM = """\
      PROGRAM RD
      INTEGER FSTAT, N, I, K
      DOUBLE PRECISION X(0:3), S
      OPEN(UNIT=2, FILE='niter.in', STATUS='OLD', IOSTAT=FSTAT)
      IF (FSTAT .EQ. 0) THEN
         READ(2,*) N
         READ(2,*) (X(I), I=0,3)
         CLOSE(2)
      ELSE
         N = 10
         X(2) = 3
      ENDIF
      K = NINT(X(2))
      S = 0.0D0
      DO I = 1, N*K
         S = S + 1.0D0
      END DO
      END
"""
LOOP_BODY_LINE = 16


def _run(tmp_path, program=PROGRAM, input_files=None):
    path = tmp_path / "rd.f"
    path.write_text(program)
    pred = api.predict(api.Program.load([str(path)], input_files=input_files), "ipsc860", 1)
    counts = {r["line"]: r["count"] for r in pred.aau_rows()}
    return pred, counts


def test_an_absent_file_takes_the_fallback_path(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    pred, counts = _run(tmp_path)
    assert counts[LOOP_BODY_LINE] == 10 * 3  # N = 10, K = NINT(3.0)
    assert "niter.in: absent, the program's fallback path is taken (rd.f:4)" in pred.notes


def test_input_file_gives_the_values(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    data = tmp_path / "runs" / "n.txt"
    data.parent.mkdir()
    # each READ starts a record: "= iterations" is skipped; the implied DO reads X(0..3)
    data.write_text("4   = iterations\n1.0 2.0\n5.0D0, 4.0\n")
    pred, counts = _run(tmp_path, input_files={"niter.in": str(data)})
    assert counts[LOOP_BODY_LINE] == 4 * 5  # N = 4, K = NINT(X(2)) = 5
    assert f"niter.in: read from {data} (rd.f:4)" in pred.notes


def test_a_file_in_the_current_folder_is_read(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "niter.in").write_text("2\n3*0.0 7\n")  # X = 0, 0, 0, 7: K = 0
    _, counts = _run(tmp_path)
    assert counts.get(LOOP_BODY_LINE, 0) == 0


def test_err_label_is_taken_when_the_open_fails(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    program = """\
      PROGRAM RE
      INTEGER N, I
      DOUBLE PRECISION S
      N = 5
      OPEN(UNIT=3, FILE='absent.dat', STATUS='OLD', ERR=10)
      READ(3,*) N
      CLOSE(3)
   10 CONTINUE
      S = 0.0D0
      DO I = 1, N
         S = S + 1.0D0
      END DO
      END
"""
    pred, counts = _run(tmp_path, program)
    assert counts[11] == 5
    (tmp_path / "absent.dat").write_text("8\n")
    _, counts = _run(tmp_path, program)
    assert counts[11] == 8


def test_end_label_at_the_end_of_the_file(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "one.dat").write_text("6\n")
    program = """\
      PROGRAM EN
      INTEGER N, M, I
      DOUBLE PRECISION S
      M = 2
      OPEN(4, FILE='one.dat')
      READ(4, *) N
      READ(4, *, END=20) M
   20 CONTINUE
      S = 0.0D0
      DO I = 1, N + M
         S = S + 1.0D0
      END DO
      END
"""
    _, counts = _run(tmp_path, program)
    assert counts[11] == 6 + 2  # the second READ found no record: M keeps 2


def test_a_read_without_items_skips_a_record(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "opts.dat").write_text("* the number of steps, then a size:\n    3\n"
                                       "* size\n    4\n")
    program = """\
      PROGRAM SK
      INTEGER N, M, I, IOS
      DOUBLE PRECISION S
      OPEN(7, FILE='opts.dat', STATUS='OLD', IOSTAT=IOS)
      READ(7, *)
      READ(7, *) N
      READ(7, *)
      READ(7, *) M
      S = 0.0D0
      DO I = 1, N * M
         S = S + 1.0D0
      END DO
      END
"""
    _, counts = _run(tmp_path, program)
    assert counts[11] == 3 * 4


def test_a_formatted_read_takes_one_record(tmp_path, monkeypatch):
    """READ (u, '(A)') reads one record (not interpreted): the next list-directed READ reads
    the record after it."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "f.dat").write_text("2\n5 0   text for a formatted read\n3\n")
    program = """\
      PROGRAM FM
      INTEGER N, M, I
      CHARACTER*40 LINE
      DOUBLE PRECISION S
      OPEN(8, FILE='f.dat', STATUS='OLD')
      READ(8, *) N
      READ(8, '(A)') LINE
      READ(8, *) M
      S = 0.0D0
      DO I = 1, N * M
         S = S + 1.0D0
      END DO
      END
"""
    _, counts = _run(tmp_path, program)
    assert counts[11] == 2 * 3


def test_an_untested_open_of_an_absent_file_is_said(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    program = """\
      PROGRAM UT
      INTEGER N
      N = 3
      OPEN(9, FILE='gone.dat', STATUS='OLD')
      READ(9, *, END=10) N
   10 CONTINUE
      END
"""
    pred, _ = _run(tmp_path, program)
    assert any(n.startswith("gone.dat: absent; the program, which does not test the OPEN, "
                            "would stop there") for n in pred.notes)


@pytest.mark.parametrize("content, n", [
    ("", 2 + 10),  # END=20: past label 20, N = 2 + 10
    ("5\n", 5 + 1 + 10),  # read: on through both labels
    ("X\n", 2),  # not a number for an INTEGER: a read error, ERR=30
])
def test_err_and_end_on_one_read(tmp_path, monkeypatch, content, n):
    """Both labels on one READ: the two jumps nest (the farther one tested first)."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "one.dat").write_text(content)
    for order in ("ERR=30, END=20", "END=20, ERR=30"):
        program = f"""\
      PROGRAM BO
      INTEGER N, I, IOS
      DOUBLE PRECISION S
      N = 2
      OPEN(4, FILE='one.dat')
      READ(4, *, {order}, IOSTAT=IOS) N
      N = N + 1
   20 CONTINUE
      N = N + 10
   30 CONTINUE
      S = 0.0D0
      DO I = 1, N
         S = S + 1.0D0
      END DO
      END
"""
        _, counts = _run(tmp_path, program)
        assert counts[13] == n, order


def test_inquire_exist(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    program = """\
      PROGRAM IQ
      LOGICAL EX
      INTEGER N, I
      DOUBLE PRECISION S
      INQUIRE(FILE='flag.dat', EXIST=EX)
      N = 1
      IF (EX) N = 9
      S = 0.0D0
      DO I = 1, N
         S = S + 1.0D0
      END DO
      END
"""
    _, counts = _run(tmp_path, program)
    assert counts[10] == 1
    (tmp_path / "flag.dat").write_text("")
    _, counts = _run(tmp_path, program)
    assert counts[10] == 9


@pytest.mark.parametrize("record, values, stop", [
    ("1 2,3", ["1", "2", "3"], False),
    ("3*1.5 2*", ["1.5", "1.5", "1.5", None, None], False),
    ("1,,3", ["1", None, "3"], False),
    ("'a b', 2 / 9", ["'a b'", "2"], True),
    ("7   = number of steps", ["7", "=", "number", "of", "steps"], False),
])
def test_list_directed_records(record, values, stop):
    assert _split_record(record) == (values, stop)


def test_a_repeat_count_is_ascii_digits_and_bounded():
    # '²' is a digit to str.isdigit but not to int(): once a ValueError (found by hypothesis)
    assert _split_record("²*") == (["²*"], False)
    # a count no READ list could take is capped, not spelled out (once 10^11 list entries)
    values, _ = _split_record("99999999999*0")
    assert len(values) == MAX_REPEAT and values[0] == "0"


def test_a_missing_input_file_path_is_a_clear_error(tmp_path):
    path = tmp_path / "rd.f"
    path.write_text(PROGRAM)
    out = CliRunner().invoke(main, ["predict", str(path), "--input-file",
                                    f"niter.in={tmp_path / 'nothere'}"])
    assert out.exit_code == 2
    assert "--input-file niter.in=" in out.output and "no such file" in out.output
    out = CliRunner().invoke(main, ["predict", str(path), "--input-file", "niter.in"])
    assert out.exit_code == 2 and "expected NAME=PATH" in out.output


@settings(max_examples=200, deadline=None)
@given(record=st.text(max_size=60), ftype=st.sampled_from(["INTEGER", "REAL", "DOUBLE",
                                                           "LOGICAL", "CHARACTER"]))
def test_any_record_reads_without_crashing(record, ftype):
    values, _stop = _split_record(record)
    for v in values:
        if v is not None:
            convert(v, ftype)
