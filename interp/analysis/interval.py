"""A prediction's interval over the spec's ``[min, max]`` values (Tables 1-3 give both ends).

The same configuration is predicted with every parameter at its minimum and at its maximum
(numeric predictions: the inputs' values are used from the start, which is fast). Where a
faster part makes another wait longer the two ends need not bracket the mid value; they are
reported as computed, never reordered.
"""

from __future__ import annotations

from interp.analysis.setup import Setup
from interp.engine.predict import Prediction


def interval(pred: Prediction) -> tuple[float | None, float | None]:
    """``(time with bound=min, time with bound=max)`` for the configuration of ``pred``;
    ``(None, None)`` when the prediction has no number (inputs not given)."""
    if pred.seconds is None:
        return None, None
    setup = Setup.of(pred)
    lo = pred.seconds if pred.bound == "min" else setup.predict(symbolic=False, bound="min").seconds
    hi = pred.seconds if pred.bound == "max" else setup.predict(symbolic=False, bound="max").seconds
    return lo, hi
