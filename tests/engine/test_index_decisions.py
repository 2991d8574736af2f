"""A time-step loop that decides on its own index still reaches its steady state.

programs/step_print.f is written as the NAS benchmarks write their time-step loops: rank 0
does extra work (a progress line) when ``MOD(STEP, 20) .EQ. 0 .OR. STEP .EQ. 1``, and each
step sweeps two stages that exchange with the neighbours (a loop that synchronizes inside
the loop that synchronizes). Before, the decision read STEP, whose value changes every
iteration, so no two iterations looked alike and all 100 were interpreted; and the cuts at
the inner loop's head came between those at the outer head, so the outer loop was never
compared with itself. Now the IF is logged by the arm it took, the steady state jumps up to
the iteration before the next one that decides otherwise, and cuts are compared by place.
"""

from __future__ import annotations

import pytest

from interp import api
from interp.system import load_machine

from .helpers import PROGRAMS, REL, run

STEP_PRINT = PROGRAMS / "step_print.f"
P = 4
# STEP = 1, 20, 40, 60, 80, 100: the first step, and 100 / 20 = 5 multiples of 20
EXTRA_RUNS = 1 + 100 // 20


def _partial_folds(pred) -> list[str]:
    return [n for n in pred.notes if n.startswith("steady state reached")
            and "an IF on the loop's index decides otherwise" in n]


def _extra_work(pred):
    """The Seq of the IF's arm (X = X + 1, X = X * 2) at line 21."""
    return next(a for a in pred.aag.all_aaus() if a.type == "Seq" and a.loc.line == 21)


@pytest.mark.parametrize("machine", ["cluster", "ipsc860"])
def test_the_fold_gives_what_every_iteration_gives(machine):
    spec = load_machine(machine)
    folded = run(STEP_PRINT, P, {}, spec)
    unfolded = run(STEP_PRINT, P, {}, spec, extend=False, symbolic=False)
    assert _partial_folds(folded), folded.notes
    assert not _partial_folds(unfolded)
    assert float(folded.seconds) == pytest.approx(float(unfolded.seconds), rel=REL)
    exact = run(STEP_PRINT, P, {}, spec, exact=True)  # rank by rank, no classes: the same
    assert float(exact.seconds) == pytest.approx(float(unfolded.seconds), rel=REL)
    for p, q in zip(folded.processes, unfolded.processes):
        assert float(p.finish) == pytest.approx(float(q.finish), rel=REL)
        for part in ("computation", "transmission", "waiting"):
            assert float(p.cats[part]) == pytest.approx(float(q.cats[part]), rel=REL, abs=1e-15)


def test_the_arm_runs_at_the_steps_its_condition_holds():
    """The jumps stop before every step that decides otherwise, so the arm runs exactly at
    STEP = 1, 20, 40, 60, 80 and 100 on rank 0, never on the others; the inner loop's body
    (one SENDRECV) runs twice a step, 200 times."""
    folded = run(STEP_PRINT, P, {}, load_machine("cluster"))
    extra = _extra_work(folded)
    assert folded.processes[0].stats[extra.id].count == EXTRA_RUNS == 6
    assert all(extra.id not in p.stats or p.stats[extra.id].count == 0
               for p in folded.processes[1:])
    sendrecv = next(a for a in folded.aag.all_aaus() if a.loc.line == 29 and a.type != "Seq")
    assert all(p.stats[sendrecv.id].count == 2 * 100 for p in folded.processes)


def test_a_first_step_that_decides_otherwise_stops_the_first_jump(tmp_path):
    """With ``STEP .EQ. 50`` instead, the arm runs once; a jump may not cross step 50."""
    text = STEP_PRINT.read_text().replace("MOD(STEP, 20) .EQ. 0 .OR. STEP .EQ. 1",
                                          "STEP .EQ. 50")
    path = tmp_path / "step50.f"
    path.write_text(text)
    spec = load_machine("cluster")
    folded = run(path, P, {}, spec)
    unfolded = run(path, P, {}, spec, extend=False, symbolic=False)
    assert folded.processes[0].stats[_extra_work(folded).id].count == 1
    assert float(folded.seconds) == pytest.approx(float(unfolded.seconds), rel=REL)


def test_check_folds_the_loop_too():
    """interp check folds on the communication pattern: the loop is not stepped 100 times,
    and its edges still count every step: each rank's SENDRECV to the next, twice a step
    (200), and the allreduce's global operation once a step (100)."""
    built = api.saag(str(STEP_PRINT), "cluster", P)
    assert built.problems == []
    assert any("an IF on the loop's index decides otherwise" in n for n in built.notes)
    by_line: dict[int, list] = {}
    lines = {a.id: a.loc.line for a in built.aag.all_aaus()}
    for e in built.edges:
        by_line.setdefault(lines[e.src_aau], []).append(int(e.count))
    assert sorted(by_line[29]) == [200] * P
    assert by_line[34] and set(by_line[34]) == {100}
