"""Random operations on a ``Network`` for the link-sharing property tests
(test_incremental_sharing.py, test_scale_paths.py)."""

from __future__ import annotations

from hypothesis import strategies as st

LINKS = ("a", "b", "c", "d")

# ("add", links, start, demand, weight, fifo predecessor pick) / ("close", which) / ("shift", by)
ADD = st.tuples(st.just("add"), st.sets(st.sampled_from(LINKS), min_size=1, max_size=3),
                st.floats(0, 1000), st.floats(0.5, 400), st.sampled_from([1.0, 2.0, 3.0]),
                st.integers(0, 3))
CLOSE = st.tuples(st.just("close"), st.integers(0, 30))
SHIFT = st.tuples(st.just("shift"), st.floats(0, 500))


def close(x: float, y: float) -> bool:
    """Equal to 1e-9 relative (1e-9 absolute near 0)."""
    return abs(x - y) <= 1e-9 * max(abs(x), abs(y), 1.0)
