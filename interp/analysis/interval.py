"""A prediction's interval over the spec's ``[min, max]`` values (Tables 1-3 give both ends).

The same configuration is predicted with every parameter at its minimum and at its maximum
(numeric predictions: the inputs' values are used from the start, which is fast). Where a
faster part makes another wait longer the two ends need not bracket the mid value; they are
reported as computed, never reordered.

The two ends are independent interpretations of the same program: where the platform can
fork, the max end runs in a child process while this one works out the min end, so the range
costs one interpretation of wall time on two cores instead of two.
"""

from __future__ import annotations

import multiprocessing

from interp.analysis.setup import Setup
from interp.engine.predict import Prediction


def interval(pred: Prediction) -> tuple[float | None, float | None]:
    """``(time with bound=min, time with bound=max)`` for the configuration of ``pred``;
    ``(None, None)`` when the prediction has no number (inputs not given). Computed once per
    prediction."""
    if pred.seconds is None:
        return None, None
    cached = pred.__dict__.get("_interval")
    if cached is None:
        cached = pred.__dict__["_interval"] = _ends(pred)
    return cached


def _ends(pred: Prediction) -> tuple[float, float]:
    setup = Setup.of(pred)
    if pred.bound != "mid":
        other = "max" if pred.bound == "min" else "min"
        seconds = _seconds(setup, other)
        return (pred.seconds, seconds) if pred.bound == "min" else (seconds, pred.seconds)
    child = _fork(setup, "max")
    low = _seconds(setup, "min")
    high = _join(child)
    return low, high if high is not None else _seconds(setup, "max")


def _seconds(setup: Setup, bound: str) -> float:
    return setup.predict(symbolic=False, bound=bound).seconds


def _fork(setup: Setup, bound: str):
    """A child process predicting ``bound`` (it inherits the parsed program); None where
    fork is not available."""
    if "fork" not in multiprocessing.get_all_start_methods():
        return None
    ctx = multiprocessing.get_context("fork")
    receive, send = ctx.Pipe(duplex=False)
    proc = ctx.Process(target=_child, args=(setup, bound, send), daemon=True)
    proc.start()
    send.close()
    return proc, receive


def _child(setup: Setup, bound: str, send) -> None:
    try:
        send.send(_seconds(setup, bound))
    except BaseException:  # the parent predicts it again and reports the error itself
        send.send(None)
    finally:
        send.close()


def _join(child) -> float | None:
    if child is None:
        return None
    proc, receive = child
    try:
        return receive.recv()
    except EOFError:  # the child died (killed, out of memory): predict it here instead
        return None
    finally:
        receive.close()
        proc.join()
