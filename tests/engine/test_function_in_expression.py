"""A user FUNCTION referenced in an expression: its time is the user's (--routine) when given,
a function without a closed form is interpreted step by step with its arguments' values, and
is a clear error when they are not known (it used to escape as a traceback)."""

from __future__ import annotations

import pytest

from interp.errors import InterpError

from .helpers import REL, program, run


def test_a_function_that_must_be_unrolled_is_interpreted_with_its_arguments(tmp_path):
    """F halves its argument until it is at most 1: F(1.5) loops once, F(3.0) twice, F(12.0)
    four times; every iteration costs the same, so T(12) − T(3) = 2·(T(3) − T(1.5)). (Such a
    function used to be refused; MG's POWER is one.)"""
    source = (program("funcwhile.f"))
    times = {}
    for arg in ("1.5", "3.0", "12.0"):
        path = tmp_path / f"fw_{arg.replace('.', '_')}.f"
        path.write_text(open(source).read().replace("F(3.0)", f"F({arg})"))
        times[arg] = run(str(path), 1).seconds
    one = times["3.0"] - times["1.5"]
    assert one > 0
    assert times["12.0"] - times["3.0"] == pytest.approx(2 * one, rel=REL)


def test_a_function_that_must_be_unrolled_on_unknown_arguments_is_a_clear_error(tmp_path):
    # F's DO WHILE tests an input (A, not given): the loop must be unrolled and cannot be.
    # (On run-time data, F(G(1.0)) with G external, its test has a probability of going on
    # and the loop is followed: test_goto_loop_data_test.py.)
    path = tmp_path / "fwu.f"
    path.write_text(open(program("funcwhile.f")).read().replace(
        "      X = F(3.0)\n", "      X = F(A)\n"))
    with pytest.raises(InterpError) as info:
        run(str(path), 1)
    assert "FUNCTION F, used in an expression at line 3, has no closed form" in info.value.message
    assert info.value.hint == "give its time with --routine F=SECONDS"
    # after a READ the two statements are one Seq AAU starting at the READ: the error names
    # the reference's own line (it named the READ's, line 3)
    path = tmp_path / "fwr.f"
    path.write_text(open(program("funcwhile.f")).read().replace(
        "      X = F(3.0)\n", "      READ (5,*) B\n      X = F(A)\n"))
    with pytest.raises(InterpError) as info:
        run(str(path), 1)
    assert "FUNCTION F, used in an expression at line 4, has no closed form" in info.value.message
    assert info.value.location.line == 4


def test_the_users_time_for_a_function_counts_once_per_reference():
    one = run(program("funcwhile.f"), 1, routines={"F": 1e-3}).seconds
    two = run(program("funcwhile.f"), 1, routines={"F": 2e-3}).seconds
    # X = F(3.0) references F once: 1 ms more for F makes the program 1 ms slower
    assert two - one == pytest.approx(1e-3, rel=REL)
    assert one > 1e-3


def test_a_functions_dummy_is_bound_to_the_actual_argument():
    """Y = F(N) with F's loop DO K = 1, M: the time is linear in N (it was a formula in the
    dummy M). Hand count, in clocks (Table 1/2 mid values, 25 ns):
      per iteration: per-iter overhead (no step) 11 + F = F + 1.0: fetch 1 + add 1 + store 2 = 15
      once: Y = F(N): fetch N 1 + store Y 2 + call overhead 1.5 (+ 0 per argument) = 4.5;
            F = 0.0: store 2; the loop's fixed overhead 7.5 + fetching its bound M 1 = 8.5
            = 15 clk."""
    from .helpers import ADD, CLK, FETCH, NOSTEP_FIXED, NOSTEP_ITER, STORE, mid

    CALL_OVERHEAD = mid(2, 1) * CLK  # Table 1, Call Ovhd [1, 2] clk

    per_iter = NOSTEP_ITER + FETCH + ADD + STORE
    once = (FETCH + STORE + CALL_OVERHEAD) + STORE + (NOSTEP_FIXED + FETCH)
    assert per_iter == pytest.approx(15 * CLK) and once == pytest.approx(15 * CLK)
    for n in (1, 10, 1000):
        pred = run(program("funcarg.f"), 1, {"N": n})
        assert pred.seconds == pytest.approx(once + n * per_iter, rel=REL)
        assert {s.name for s in pred.total.free_symbols} <= {"N"}


def test_a_function_called_with_the_loop_index_sums_over_it():
    """DO I = 1, N: Y = F(I): F runs I iterations on the I-th call: Σ_i (once_F + i·per_iter)."""
    pred = run(program("funcloop.f"), 1, {"N": 20})
    small = run(program("funcloop.f"), 1, {"N": 19})
    # one more outer iteration (I = 20) costs its overheads plus F's 20 inner iterations
    grow = pred.seconds - small.seconds
    grow_21 = run(program("funcloop.f"), 1, {"N": 21}).seconds - pred.seconds
    from .helpers import ADD, CLK, FETCH, NOSTEP_ITER, STORE

    assert grow_21 - grow == pytest.approx(NOSTEP_ITER + FETCH + ADD + STORE, rel=1e-6)  # 15 clk
    assert NOSTEP_ITER + FETCH + ADD + STORE == pytest.approx(15 * CLK)
