"""One configuration to predict: program × machine × P × inputs (the paper's model inputs).

The analyses (intervals, comparisons, sweeps, sensitivities) predict the same program many
times with one thing changed; :class:`Setup` holds what stays the same and makes the variants.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace

import sympy as sp

from interp.application.aag import AAG
from interp.engine.predict import Prediction, predict
from interp.errors import InterpError
from interp.system import SAG


@dataclass(frozen=True)
class Setup:
    aag: AAG
    sag: SAG
    nprocs: int
    given: Mapping[str, sp.Expr] = field(default_factory=dict)
    bound: str = "mid"
    routines: Mapping[str, float] | None = None
    iterations: Mapping[str, int] | None = None
    home: int | None = 0  # the P the user asked for (0: nprocs); None: P is varied

    def __post_init__(self):
        if self.home == 0:
            object.__setattr__(self, "home", self.nprocs)

    @classmethod
    def of(cls, pred: Prediction) -> Setup:
        """The configuration a prediction was made for (its user interpretation functions too)."""
        inputs = pred.processes[0].inputs if pred.processes else None
        return cls(pred.aag, pred.machine, pred.nprocs, dict(pred.given), pred.bound,
                   dict(inputs.routines) if inputs else None,
                   dict(inputs.iterations) if inputs else None)

    def predict(self, symbolic: bool = True, **changes) -> Prediction:
        s = replace(self, **changes) if changes else self
        try:
            return predict(s.aag, s.sag, s.nprocs, dict(s.given), s.bound, symbolic=symbolic,
                           routines=dict(s.routines or {}),
                           iterations=dict(s.iterations or {}))
        except InterpError as e:  # at a P the user did not give (a sweep, scaling): say which
            if s.nprocs != s.home:
                if not e.message.startswith("at P = "):
                    e.message = f"at P = {s.nprocs}: {e.message}"
                    e.args = (e.message,)
            raise

    def with_(self, **changes) -> Setup:
        return replace(self, **changes)

    def seconds(self, **changes) -> float:
        """A numeric prediction's time (all inputs used as values: the fast path)."""
        pred = self.predict(symbolic=False, **changes)
        if pred.seconds is None:
            raise missing_inputs(pred)
        return pred.seconds


def given_value(given: Mapping[str, sp.Expr], name: str):
    """The value given for input ``name`` (``NAME`` or ``UNIT.NAME``), or None."""
    if name in given:
        return given[name]
    return next((v for k, v in given.items() if k.split(".")[-1] == name.split(".")[-1]), None)


def needs_values(pred: Prediction) -> list[str]:
    """Inputs the prediction's number still needs (symbols without a given value)."""
    subs = pred.substitution()
    return sorted(s.name for s in pred.total.free_symbols if s not in subs)


def missing_inputs(pred: Prediction, what: str = "this analysis") -> InterpError:
    names = needs_values(pred)
    return InterpError(f"{what} needs values for the inputs " + ", ".join(names),
                       hint=" ".join(f"--set {n}=VALUE" for n in names))
