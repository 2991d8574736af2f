"""The instants of parallel work and the overlap of idle spans with them, against brute force."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st
from pytest import approx

from interp.analysis.lostcycles import merged, overlap, parallel_work

span = st.tuples(st.integers(0, 3), st.integers(0, 40), st.integers(1, 10), st.integers(0, 2)).map(
    lambda t: (t[0], float(t[1]), float(t[1] + t[2]), t[3]))  # (process, start, end, AAU)


def covered(intervals, t: float) -> bool:
    return any(a <= t < b for a, b in intervals)


@settings(max_examples=300, deadline=None)
@given(st.lists(span, max_size=12))
def test_parallel_work_is_the_spans_a_span_of_another_process_in_its_aau_overlaps(spans):
    work = parallel_work(spans)
    alongside = [(s, e) for p, s, e, a in spans
                 if any(q != p and b == a and s2 < e and s < e2 for q, s2, e2, b in spans)]
    for k in range(0, 2 * 52):  # every half second: the union, sampled between integers
        t = k / 2 + 0.25
        assert covered(work, t) == covered(alongside, t)
    assert all(a < b for a, b in work)
    assert all(b < c for (_, b), (c, _) in zip(work, work[1:]))  # sorted and disjoint


@settings(max_examples=300, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 40), st.integers(1, 10)), max_size=10),
       st.integers(0, 50), st.integers(0, 20))
def test_overlap_counts_the_seconds_inside_the_union(pieces, start, length):
    union = merged([(float(a), float(a + n)) for a, n in pieces])
    inside = sum(covered(union, start + (k + 0.5) / 4) for k in range(4 * length)) / 4
    assert overlap(union, float(start), float(start + length)) == approx(inside)


def test_a_longer_span_is_parallel_for_its_whole_length():
    """Rank 0 computes a loop from 0 to 10, rank 1 its smaller share from 0 to 6: rank 1 idles
    from 6 to 10 while rank 0 still has parallel work (load imbalance, not a serial section)."""
    work = parallel_work([(0, 0.0, 10.0, "loop"), (1, 0.0, 6.0, "loop")])
    assert work == [(0.0, 10.0)]
    assert overlap(work, 6.0, 10.0) == 4.0


def test_work_handed_from_one_process_to_the_next_is_serial():
    """A token ring: each rank computes in the same AAU, one after the other."""
    assert parallel_work([(0, 0.0, 1.0, "step"), (1, 1.0, 2.0, "step"), (2, 2.0, 3.0, "step")]) == []
