"""A prediction's interval over the spec's ``[min, max]`` values (Tables 1-3 give both ends).

The same configuration is predicted with every parameter at its minimum and at its maximum
(numeric predictions: the inputs' values are used from the start, which is fast). Where a
faster part makes another wait longer the two ends need not bracket the mid value; they are
reported as computed, never reordered.

The ends cannot be read off the mid run's formula: it has the spec's values as numbers, and
the choices the interpretation made with them (which message arrives first, how long a wait
lasts, when the steady state is reached, which messages share a link) may differ at another
end of the ranges. So the ends are two more interpretations, independent of the mid one:
where the platform can fork, :func:`start` runs them in a child process while this one makes
the (slower, symbolic) mid prediction, so the range costs no wall time on two cores; without
it the max end runs in a child while this process works out the min end.
"""

from __future__ import annotations

import multiprocessing
import weakref
from dataclasses import dataclass

from interp.analysis.setup import Setup
from interp.engine.predict import Prediction

Ends = tuple[float | None, float | None]


def interval(pred: Prediction) -> Ends:
    """``(time with bound=min, time with bound=max)`` for the configuration of ``pred``;
    ``(None, None)`` when the prediction has no number (inputs not given). Computed once per
    prediction."""
    if pred.seconds is None:
        return None, None
    cached = pred.__dict__.get("_interval")
    if cached is None:
        cached = pred.__dict__["_interval"] = _ends(pred)
    return cached


@dataclass
class Early:
    """The ends of a setup's interval being worked out in a child process (:func:`start`)."""

    setup: Setup
    child: tuple | None

    def result(self, setup: Setup) -> Ends:
        """The child's ends when it predicted ``setup`` (else ``(None, None)``: predict here;
        e.g. an input was asked for on the way)."""
        if not _same(self.setup, setup):
            self.close()
            return None, None
        ends = _join(self.child)
        self.child = None
        return ends or (None, None)

    def close(self) -> None:
        """Stop the child, whose ends are not wanted (no number, or an error)."""
        if self.child is not None:
            proc, receive = self.child
            self.child = None
            proc.terminate()  # before the pipe closes: a child sending then has no error to print
            proc.join()
            receive.close()


def start(setup: Setup) -> Early | None:
    """Begin the interval of the prediction ``setup`` is about to make, in a forked child that
    predicts both ends (or the other end at bound=min/max) while this process makes the
    prediction; None where fork is not available."""
    bounds = ("min", "max") if setup.bound == "mid" else ("max" if setup.bound == "min" else "min",)
    child = _fork(setup, bounds)
    return Early(setup, child) if child is not None else None


def attach(pred: Prediction, early: Early | None) -> None:
    """Hand ``pred`` the ends :func:`start` is working out (the child is stopped when ``pred``
    is dropped without asking for them)."""
    if early is not None:
        pred.__dict__["_early"] = early
        weakref.finalize(pred, early.close)


def _ends(pred: Prediction) -> tuple[float, float]:
    setup = Setup.of(pred)
    early = pred.__dict__.pop("_early", None)
    low, high = early.result(setup) if early is not None else (None, None)
    if pred.bound == "min":
        low = pred.seconds
    elif pred.bound == "max":
        high = pred.seconds
    elif low is None and high is None:  # nothing from a child yet: max in one, min here
        child = _fork(setup, ("max",))
        low = _seconds(setup, "min")
        high = (_join(child) or (None, None))[1]
    return (low if low is not None else _seconds(setup, "min"),
            high if high is not None else _seconds(setup, "max"))


def _same(a: Setup, b: Setup) -> bool:
    """Do ``a`` and ``b`` predict the same (the program and machine are the same objects)?"""
    return (a.aag is b.aag and a.sag is b.sag and a.nprocs == b.nprocs and a.bound == b.bound
            and dict(a.given) == dict(b.given) and dict(a.routines or {}) == dict(b.routines or {})
            and dict(a.iterations or {}) == dict(b.iterations or {}))


def _seconds(setup: Setup, bound: str) -> float:
    return setup.predict(symbolic=False, bound=bound).seconds


def _fork(setup: Setup, bounds: tuple[str, ...]):
    """A child process predicting ``bounds`` (it inherits the parsed program); None where
    fork is not available."""
    if "fork" not in multiprocessing.get_all_start_methods():
        return None
    ctx = multiprocessing.get_context("fork")
    receive, send = ctx.Pipe(duplex=False)
    proc = ctx.Process(target=_child, args=(setup, bounds, send), daemon=True)
    proc.start()
    send.close()
    return proc, receive


def _child(setup: Setup, bounds: tuple[str, ...], send) -> None:
    ends: dict[str, float | None] = {}
    for bound in bounds:
        try:
            ends[bound] = _seconds(setup, bound)
        except BaseException:  # the parent predicts it again and reports the error itself
            ends[bound] = None
    try:
        send.send((ends.get("min"), ends.get("max")))
    finally:
        send.close()


def _join(child) -> Ends | None:
    """The child's ``(min, max)`` (None where it did not predict one); None without a child
    or when it died (killed, out of memory): the parent predicts the ends itself."""
    if child is None:
        return None
    proc, receive = child
    try:
        return receive.recv()
    except EOFError:
        return None
    finally:
        receive.close()
        proc.join()
