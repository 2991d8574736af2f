"""A message tag that is the loop's index (``tag = K``, or a routine's dummy bound to K) no longer
keeps a communicating loop from folding (indextests.mark_tag, steady._index_tags).

The steady state compares the values every decision reads; a tag K read a different value at
every iteration, so no two iterations looked alike and every one was interpreted (tagindex.f,
2,000 rounds at P = 8: 1.77 s of CPU in api.predict, 0.03 s now). A tag that is the index is
now logged as the index: when every side's tag is K, the matching is the same at every shift of
K. The jump is then made only with no message in flight and no process blocked at the cuts, so
the tags to come meet as the interpreted ones did. A tag computed otherwise from K (MOD(K, 7)
on the receiving side) is still read by its value: those iterations are interpreted, and the
receive that no longer matches at K = 7 is found.
"""

from __future__ import annotations

import pytest

from interp.engine.predict import Hang

from .helpers import load, program, run

TAGINDEX = program("tagindex.f")
FOLDED = "steady state reached after 3 iterations: 1997 more added in closed form"


def _predict(mode: int, **kw):
    return run(TAGINDEX, 8, {"NROUND": 2000, "MODE": mode}, machine=load("cluster"),
               symbolic=False, **kw)


@pytest.mark.parametrize("mode, folded", [
    (1, FOLDED), (2, FOLDED), (5, FOLDED),  # (5: K + 100)
    # (a one-way stream: the two ranks' clocks drift apart, folded as drifting loops are)
    (4, "steady state reached after 4 iterations: 1996 more added in closed form (the "
        "processes' clocks advance by different amounts each iteration; no wait they decide "
        "changes before the loop ends)"),
])
def test_tags_that_are_the_index_fold_to_the_stepped_prediction(mode, folded):
    pred = _predict(mode)
    assert folded in pred.notes
    assert not pred.scheduler.problems
    stepped = _predict(mode, extend=False)
    assert pred.seconds == pytest.approx(stepped.seconds, rel=1e-12)


def test_a_tag_that_parts_from_the_index_is_found_where_it_parts():
    """Sends tagged K, receives tagged MOD(K, 7): rounds 1 to 6 match, round 7's receive
    waits for tag 0 while tag 7 arrives, on every rank: the program hangs there."""
    with pytest.raises(Hang) as info:
        _predict(3)
    message = str(info.value)
    assert "(from rank 7, tag 0)" in message and "sends type/tag 7" in message
