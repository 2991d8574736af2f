"""Helpers for the GO TO construct tests: predict a program text, count an AAU's executions."""

from __future__ import annotations

import sympy as sp

from interp.application.aag import build_aag
from interp.engine.predict import predict

from application.helpers import shape  # one definition, for the GO TO tests too

from .helpers import load

__all__ = ["body", "executions", "predict_text", "shape"]


def predict_text(tmp_path, text: str, given: dict | None = None, name: str = "t.f"):
    path = tmp_path / name
    path.write_text(text)
    aag = build_aag([str(path)])
    given = {k: sp.Integer(v) for k, v in (given or {}).items()}
    return aag, predict(aag, load(), 1, given, symbolic=False)


def body(aag) -> list:
    """The AAUs of the main program between Start and End."""
    return aag.programs()[0].aaus[1:-1]


def executions(pred, line: int) -> int:
    """How many times the AAU that starts at ``line`` ran (0 when never)."""
    return sum(int(r["count"]) for r in pred.aau_rows() if r["line"] == line)
