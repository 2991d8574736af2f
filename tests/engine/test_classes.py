"""Process classes (engine/classes.py, docs/scale.md): the ranks that behave alike are
interpreted once, the others split off where they differ; the prediction is the per-rank
interpretation's (the exact mode) to 1e-9 relative, process by process, notes included.

Each test also looks at the classes made (which ranks got a shadow of their own), so a check
that never splits, or classes never used, fails."""

from __future__ import annotations

from pathlib import Path

import pytest

from interp import api
from interp.engine import classes, predict

ROOT = Path(__file__).resolve().parents[2]

HEAD = """      PROGRAM T
      IMPLICIT NONE
      INCLUDE 'mpif.h'
      INTEGER ME, NP, LEFT, RIGHT, IT, I, K, NLOC, N, IERR, REQ
      INTEGER STATUS(MPI_STATUS_SIZE)
      DOUBLE PRECISION X(1000), S
      PARAMETER (N = 1003)
      CALL MPI_INIT(IERR)
      CALL MPI_COMM_RANK(MPI_COMM_WORLD, ME, IERR)
      CALL MPI_COMM_SIZE(MPI_COMM_WORLD, NP, IERR)
      LEFT = MOD(ME - 1 + NP, NP)
      RIGHT = MOD(ME + 1, NP)
"""
TAIL = """      CALL MPI_FINALIZE(IERR)
      END
"""

# rank 5 does extra work in every iteration: it must not be replayed from rank 1's events
DEVIATING = HEAD + """      DO 10 IT = 1, 20
         S = 0.0D0
         IF (ME .EQ. 5) THEN
            DO 20 I = 1, 1000
               S = S + X(I) * X(I)
   20       CONTINUE
         END IF
         CALL MPI_SEND(S, 1, MPI_DOUBLE_PRECISION, RIGHT, 1,
     &                 MPI_COMM_WORLD, IERR)
         CALL MPI_RECV(S, 1, MPI_DOUBLE_PRECISION, LEFT, 1,
     &                 MPI_COMM_WORLD, STATUS, IERR)
   10 CONTINUE
""" + TAIL

# N = 1003 elements over NP ranks: the first MOD(N, NP) ranks hold one more, so their loop
# runs once more per iteration (a rank-dependent trip count)
REMAINDER = HEAD + """      NLOC = N / NP
      IF (ME .LT. MOD(N, NP)) NLOC = NLOC + 1
      DO 10 IT = 1, 20
         S = 0.0D0
         DO 20 I = 1, NLOC
            S = S + X(1) * X(2)
   20    CONTINUE
         CALL MPI_ISEND(S, 1, MPI_DOUBLE_PRECISION, RIGHT, 1,
     &                  MPI_COMM_WORLD, REQ, IERR)
         CALL MPI_RECV(S, 1, MPI_DOUBLE_PRECISION, LEFT, 1,
     &                 MPI_COMM_WORLD, STATUS, IERR)
         CALL MPI_WAIT(REQ, STATUS, IERR)
   10 CONTINUE
""" + TAIL

# the partner of the second exchange is read from a message: the classes cannot follow it
# and the program is interpreted rank by rank
RECEIVED = HEAD + """      K = RIGHT
      DO 10 IT = 1, 5
         CALL MPI_SEND(K, 1, MPI_INTEGER, RIGHT, 1, MPI_COMM_WORLD,
     &                 IERR)
         CALL MPI_RECV(K, 1, MPI_INTEGER, LEFT, 1, MPI_COMM_WORLD,
     &                 STATUS, IERR)
         CALL MPI_SEND(S, 1, MPI_DOUBLE_PRECISION, K, 2,
     &                 MPI_COMM_WORLD, IERR)
         CALL MPI_RECV(S, 1, MPI_DOUBLE_PRECISION, MPI_ANY_SOURCE, 2,
     &                 MPI_COMM_WORLD, STATUS, IERR)
   10 CONTINUE
""" + TAIL


@pytest.fixture
def shadows(monkeypatch):
    """The ranks a shadow was made for, in order (the first: the root class)."""
    made: list[int] = []
    new = classes.Classes._new

    def counting(self, pid, jumps):
        made.append(pid)
        return new(self, pid, jumps)
    monkeypatch.setattr(classes.Classes, "_new", counting)
    return made


@pytest.fixture
def runs(monkeypatch):
    """Whether each interpretation tried the classes, in order (a fall-back: True, False)."""
    tried: list[bool] = []
    interpret = predict.interpret

    def watched(*args, **kwargs):
        tried.append(kwargs.get("classes", True))
        return interpret(*args, **kwargs)
    monkeypatch.setattr(predict, "interpret", watched)
    return tried


def _load(tmp_path: Path, text: str) -> api.Program:
    path = tmp_path / "t.f"
    path.write_text(text)
    return api.Program.load([str(path)])


def _outcome(program: api.Program, nprocs: int, exact: bool, inputs=None):
    pred = api.predict(program, "cluster", nprocs, inputs=inputs or {}, exact=exact)
    finish = [float(pred.evaluate(p.finish)) for p in pred.processes]
    return float(pred.seconds), finish, [str(n) for n in pred.notes]


def _close(a: float, b: float) -> bool:
    return abs(a - b) <= 1e-9 * max(abs(a), abs(b), 1e-300)


def _same(fast, exact) -> None:
    assert _close(fast[0], exact[0])
    assert len(fast[1]) == len(exact[1])
    assert all(_close(a, b) for a, b in zip(fast[1], exact[1]))
    assert fast[2] == exact[2]


def test_a_deviating_rank_is_split_off(tmp_path, shadows):
    program = _load(tmp_path, DEVIATING)
    fast = _outcome(program, 16, exact=False)
    # rank 0's class holds every rank but 5, which splits off at ME .EQ. 5
    assert shadows == [0, 5]
    exact = _outcome(program, 16, exact=True)
    _same(fast, exact)
    # rank 5's extra loop shows: it finishes its first lap later than rank 4 sends
    assert fast[1][5] > fast[1][4]


@pytest.mark.parametrize("nprocs", [4, 16, 64])
def test_rank_dependent_trip_counts(tmp_path, shadows, nprocs):
    program = _load(tmp_path, REMAINDER)
    fast = _outcome(program, nprocs, exact=False)
    extra = 1003 % nprocs  # ranks 0 .. extra-1 run NLOC = 1003 // P + 1 iterations
    if extra:  # the ranks with one more element and those without are apart
        assert shadows[:1] == [0] and extra in shadows
    _same(fast, _outcome(program, nprocs, exact=True))


def test_partner_read_from_a_message_falls_back(tmp_path, shadows, runs):
    program = _load(tmp_path, RECEIVED)
    fast = _outcome(program, 8, exact=False)
    # the classes were tried, then left for the rank-by-rank interpretation
    assert shadows and runs == [True, False]
    _same(fast, _outcome(program, 8, exact=True))


@pytest.mark.parametrize("name,param,count,expected", [
    ("ring.f", "NLAPS", 20, [0, 1]),  # rank 0 starts each lap; the others pass it on
    ("halo1d.f", "NITER", 10, [0, 1, 1023]),  # the two ends have one neighbour
])
def test_regular_programs_at_p_1024(shadows, name, param, count, expected):
    program = api.Program.load([str(ROOT / "validation" / name)])
    fast = _outcome(program, 1024, exact=False, inputs={param: count})
    assert shadows == expected
    _same(fast, _outcome(program, 1024, exact=True, inputs={param: count}))


# the usual MPI idiom: rank 0 reads the size, MPI_BCAST gives it to every rank, and each
# rank's loop runs over its share: the decision (the loop bound) reads what the broadcast
# brought, the same for every rank (the root's value)
BROADCAST_INPUT = HEAD.replace("      PARAMETER (N = 1003)\n", "") + """      IF (ME .EQ. 0) READ (5, *) N
      CALL MPI_BCAST(N, 1, MPI_INTEGER, 0, MPI_COMM_WORLD, IERR)
      NLOC = N / NP
      DO 10 IT = 1, 20
         S = 0.0D0
         DO 20 I = 1, NLOC
            S = S + X(1) * X(2)
   20    CONTINUE
         CALL MPI_SEND(S, 1, MPI_DOUBLE_PRECISION, RIGHT, 1,
     &                 MPI_COMM_WORLD, IERR)
         CALL MPI_RECV(S, 1, MPI_DOUBLE_PRECISION, LEFT, 1,
     &                 MPI_COMM_WORLD, STATUS, IERR)
   10 CONTINUE
""" + TAIL

# the same, but the broadcast's root is rank 1: the first shadow (rank 0's) is not the root,
# so what it brings is not known to the classes: rank by rank, the same numbers
BROADCAST_FROM_ONE = BROADCAST_INPUT.replace("IF (ME .EQ. 0) READ", "IF (ME .EQ. 1) READ") \
    .replace("MPI_INTEGER, 0, MPI_COMM_WORLD", "MPI_INTEGER, 1, MPI_COMM_WORLD")


def test_an_input_broadcast_keeps_the_classes(tmp_path, shadows, runs):
    """Before, the broadcast broke the classes ('a decision reads what a message brings') and
    every rank was interpreted alone: now rank 0's class and the class of the ranks that
    skip the READ (from rank 1) hold all 64 ranks, each taking N from rank 0's request."""
    program = _load(tmp_path, BROADCAST_INPUT)
    fast = _outcome(program, 64, exact=False, inputs={"N": 6400})
    assert shadows == [0, 1] and False not in runs
    _same(fast, _outcome(program, 64, exact=True, inputs={"N": 6400}))


def test_a_broadcast_from_a_root_the_classes_do_not_follow_falls_back(tmp_path, shadows, runs):
    program = _load(tmp_path, BROADCAST_FROM_ONE)
    fast = _outcome(program, 16, exact=False, inputs={"N": 1600})
    assert shadows and runs[-1] is False
    _same(fast, _outcome(program, 16, exact=True, inputs={"N": 1600}))
