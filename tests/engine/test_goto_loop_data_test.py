"""A convergence loop whose test reads run-time data: ``IF (SQRT(RHO) .GT. TOL) GO TO 10``
with RHO the result of an MPI_ALLREDUCE of values interp does not follow (a CG iteration),
and the same test as DO WHILE. It used to stop the prediction ("the value of RHO is not
known ... give the variable's value with --set", and no --set of RHO can say how many
iterations run); the nested form ``IF (IT .LT. MAXIT) THEN / IF (…) GO TO 10`` was already
decided by error diffusion. Now the loop test is decided the same way, by its probability of
going on, ``p_<file>_<line of the test>``:

* the parts of the test interp follows decide where they can: with ``.AND. IT .LT. MAXIT``
  the loop ends at IT = MAXIT, and the data part's default is 1 (the loop runs to that bound,
  as a counted DO loop with an early-exit test runs its full count): MAXIT = 7 iterations;
* with no followed part the default is 0: the data alone decides, and the loop leaves at
  its first test, 1 iteration (a probability p gives the mean 1/(1 − p) of a geometric
  count);
* ``--set p=0.75``: the stop is owed 0.25·n ≥ 1 first at n = 4: 4 iterations; p = 0.9: 10.
"""

from __future__ import annotations

import sympy as sp

from .helpers import run

HEAD = """\
      PROGRAM CONV
      INCLUDE 'mpif.h'
      DOUBLE PRECISION R(100), DLOC, RHO
      CALL MPI_INIT(IERR)
      MAXIT = 7
      IT = 0
      DO 5 I = 1, 100
         R(I) = 1.0D0 / I
    5 CONTINUE
"""
BODY = """\
      IT = IT + 1
      DLOC = 0.0D0
      DO 20 I = 1, 100
         R(I) = 0.5D0 * R(I)
         DLOC = DLOC + R(I)*R(I)
   20 CONTINUE
      CALL MPI_ALLREDUCE(DLOC, RHO, 1, MPI_DOUBLE_PRECISION, MPI_SUM,
     &                   MPI_COMM_WORLD, IERR)
"""
TAIL = """\
      CALL MPI_FINALIZE(IERR)
      END
"""


def _iterations(tmp_path, test: str, given=None, nprocs: int = 2) -> int:
    tmp_path.mkdir(exist_ok=True)
    p = tmp_path / "conv.f"  # one file a test: helpers.aag_of caches by path
    assert not p.exists()
    source = HEAD + test.format(body=BODY) + TAIL
    p.write_text(source)
    pred = run(str(p), nprocs, given)
    line = source.splitlines().index("      IT = IT + 1") + 1
    rows = [r for r in pred.aau_rows() if r["type"] == "Seq" and r["line"] == line]
    return int(rows[0]["count"]) // nprocs if rows else 0  # IT = IT + 1, summed over the processes


GOTO = "   10 CONTINUE\n{body}      IF (SQRT(RHO) .GT. 1.0D-8) GO TO 10\n"
BOUNDED = "   10 CONTINUE\n{body}      IF (SQRT(RHO) .GT. 1.0D-8 .AND. IT .LT. MAXIT) GO TO 10\n"
WHILE = "      RHO = 1.0D0\n      DO WHILE (SQRT(RHO) .GT. 1.0D-8)\n{body}      END DO\n"


def test_a_followed_bound_ends_the_loop_by_default(tmp_path):
    assert _iterations(tmp_path, BOUNDED) == 7


def test_a_test_on_data_alone_leaves_at_its_first_test_by_default(tmp_path):
    assert _iterations(tmp_path, GOTO) == 1


def test_set_gives_the_mean_count(tmp_path):
    # the test is on line 19: 9 lines of HEAD, the label, 8 of BODY
    assert _iterations(tmp_path / "a", GOTO, {"P_CONV_F_19": sp.Float(0.75)}) == 4
    assert _iterations(tmp_path / "b", GOTO, {"P_CONV_F_19": sp.Float(0.9)}) == 10
    assert _iterations(tmp_path / "c", BOUNDED, {"P_CONV_F_19": sp.Float(0.75)}) == 4


def test_do_while_on_data(tmp_path):
    # RHO = 1 before the loop: the first test reads that followed value and goes on (with
    # RHO = 0 the loop does not run); the next reads the reduction, p = 0 by default: 1 pass
    assert _iterations(tmp_path / "a", WHILE) == 1
    assert _iterations(tmp_path / "b", WHILE.replace("RHO = 1.0D0", "RHO = 0.0D0")) == 0
