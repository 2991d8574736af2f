"""JSON text that is valid JSON: Python's ``json.dumps`` writes ``Infinity`` and ``NaN``, which
no JSON parser is obliged to read. A number that is not finite is written as ``null``."""

from __future__ import annotations

import json
import math


def _finite(value):
    if isinstance(value, float) and not math.isfinite(value):
        return None
    if isinstance(value, dict):
        return {k: _finite(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_finite(v) for v in value]
    return value


def dumps(data, **kwargs) -> str:
    """``json.dumps`` of ``data`` with every inf or nan as ``null`` (``allow_nan=False`` proves
    none is left)."""
    return json.dumps(_finite(data), allow_nan=False, **kwargs)
