"""Programs that hang: predict stops with the hang report (Algorithm 2, step 3: leaf AAUs not
red), naming every blocked call with file:line; the CLI exits 1 with that report and no
traceback. Never a timeout: every test runs under a deadline.
"""

from __future__ import annotations

import re

import pytest
from click.testing import CliRunner

from interp.cli import main
from interp.engine.predict import Hang

from .helpers import program, run

# program, P, inputs, problem kinds, the lines of every call the report must name
HANGS = [
    ("deadlock.f", 2, {}, {"deadlock"}, [8, 11]),
    ("ringdeadlock.f", 4, {}, {"deadlock"}, [10]),
    ("unmatched.f", 2, {}, {"unmatched"}, [7]),
    ("halfsum.f", 2, {}, {"collective"}, [8]),
    ("tagmismatch.f", 2, {}, {"mismatch"}, [7, 8]),
    ("countmismatch.f", 2, {"NMSG": 3}, {"unmatched"}, [14]),
    ("countmismatch.f", 2, {"NMSG": 10**6}, {"unmatched"}, [14]),
    ("latedeadlock.f", 2, {"NITER": 100, "KBAD": 50}, {"deadlock"}, [11]),
]


@pytest.mark.parametrize("name, p, inputs, kinds, lines", HANGS,
                         ids=[f"{h[0]}-P{h[1]}-{h[2]}" for h in HANGS])
def test_predict_reports_the_hang(deadline, name, p, inputs, kinds, lines):
    with deadline(30), pytest.raises(Hang) as info:
        run(program(name), p, inputs)
    err = info.value
    assert {pr.kind for pr in err.problems} == kinds
    text = err.render()
    assert "hangs" in text
    for line in lines:
        assert re.search(rf"{re.escape(name)}:{line}\b", text), f"{name}:{line} not named:\n{text}"
    for pr in err.problems:
        assert pr.locations and all(loc.line in lines for loc in pr.locations
                                    if loc.file.endswith(name))


def test_deadlock_names_both_processes_and_calls(deadline):
    with deadline(30), pytest.raises(Hang) as info:
        run(program("deadlock.f"), 2)
    (problem,) = info.value.problems
    assert "node 0 waits in CRECV" in problem.message
    assert "node 1 waits in CRECV" in problem.message
    assert {loc.line for loc in problem.locations} == {8, 11}


def test_ring_deadlock_names_every_node(deadline):
    # the 4 nodes wait in the same CRECV: one run from the first to the last, said once
    with deadline(30), pytest.raises(Hang) as info:
        run(program("ringdeadlock.f"), 4)
    text = info.value.problems[0].message
    assert "node 0 .. node 3 (4 processes) each wait in CRECV" in text
    assert text.endswith("each for the next -> node 0")


@pytest.mark.parametrize("name, p, inputs, kinds, lines", HANGS[:6],
                         ids=[f"{h[0]}-P{h[1]}" for h in HANGS[:6]])
def test_cli_exit_code_one_and_report(deadline, name, p, inputs, kinds, lines):
    args = ["predict", program(name), "-P", str(p)]
    for k, v in inputs.items():
        args += ["--set", f"{k}={v}"]
    with deadline(30):
        result = CliRunner().invoke(main, args)
    assert result.exit_code == 1, result.output
    assert "Traceback" not in result.output
    assert "the program hangs" in result.stderr
    for line in lines:
        assert f"{name}:{line}" in result.stderr


def test_no_hang_when_the_bad_iteration_never_comes(deadline):
    """KBAD beyond NITER: the same program runs to the end, and equals full interpretation."""
    with deadline(30):
        pred = run(program("latedeadlock.f"), 2, {"NITER": 60, "KBAD": 61})
        ref = run(program("latedeadlock.f"), 2, {"NITER": 60, "KBAD": 61}, extend=False,
                  symbolic=False)
    assert pred.seconds == pytest.approx(ref.seconds, rel=1e-9)


def test_late_deadlock_in_a_long_loop_is_found(deadline):
    """A deadlock in iteration 2999 of 3000: the IF that decides it reads I, so the steady
    state jumps only to iteration 2998 (indextests) and the deadlock is interpreted. The
    deadline only guards against a hang; the speed is measured in benchmarks/bench_check.py."""
    with deadline(120), pytest.raises(Hang) as info:
        run(program("latedeadlock.f"), 2, {"NITER": 3000, "KBAD": 2999})
    assert {pr.kind for pr in info.value.problems} == {"deadlock"}
