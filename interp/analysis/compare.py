"""Baseline versus scenario: where a what-if changes the time.

The components are the headline time and, summed over the processes, the time each spends in
computation, call overhead, transmission, waiting and idle (the Output module's AAG-level
statistics, Section 3.5).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from interp.analysis.setup import missing_inputs
from interp.engine.predict import Prediction

COMPONENTS = ("computation", "call", "transmission", "waiting", "idle")


def components(pred: Prediction) -> dict[str, float]:
    """``total`` and the per-process categories summed over processes, in seconds."""
    if pred.seconds is None:
        raise missing_inputs(pred, "comparing predictions")
    out = {"total": pred.seconds}
    rows = pred.process_rows()
    for c in COMPONENTS:
        out[c] = float(sum(_number(pred, r[c]) for r in rows))
    return out


def _number(pred: Prediction, value) -> float:
    v = pred.evaluate(value)
    if not v.is_number:
        raise missing_inputs(pred, "comparing predictions")
    return float(v)


@dataclass
class Comparison:
    baseline: Prediction
    scenario: Prediction
    what_if: list[str]
    rows: list[dict] = field(default_factory=list)

    @classmethod
    def of(cls, baseline: Prediction, scenario: Prediction, what_if: list[str]) -> Comparison:
        a, b = components(baseline), components(scenario)
        rows = []
        for name in a:
            diff = b[name] - a[name]
            rows.append({"component": name, "baseline_seconds": a[name], "scenario_seconds": b[name],
                         "difference_seconds": diff,
                         "difference_percent": 100 * diff / a[name] if a[name] else None})
        return cls(baseline, scenario, list(what_if), rows)

    def to_json(self) -> dict:
        """``interp compare --format json`` (keys are only ever added)."""

        def side(p: Prediction) -> dict:
            return {"machine": p.machine.name, "nprocs": p.nprocs, "bound": p.bound,
                    "inputs": {k: int(v) if v.is_Integer else float(v) for k, v in p.given.items()},
                    "total_seconds": p.seconds}

        return {"what_if": self.what_if, "baseline": side(self.baseline),
                "scenario": side(self.scenario), "components": self.rows,
                "files": self.baseline.aag.files, "headline": self.baseline.headline}
