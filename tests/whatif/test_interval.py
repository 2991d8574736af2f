"""Every headline prediction with its interval over the spec's [min, max] values."""

from __future__ import annotations

import json

from click.testing import CliRunner

from interp import api
from interp.cli import main

from .conftest import PROGRAMS


def test_min_mid_max_trapezoid(trapezoid, ipsc):
    pred = api.predict(trapezoid, ipsc, 4, {"N": 10**5, "NITER": 10}, symbolic=False)
    lo, hi = api.prediction_interval(pred)
    assert lo < pred.seconds < hi
    assert lo == api.predict(trapezoid, ipsc, 4, {"N": 10**5, "NITER": 10}, bound="min",
                             symbolic=False).seconds


def test_min_mid_max_twonode(twonode, ipsc):
    pred = api.predict(twonode, ipsc, 2)
    lo, hi = api.prediction_interval(pred)
    assert lo <= pred.seconds * (1 + 1e-12) and pred.seconds <= hi * (1 + 1e-12)


def test_no_number_no_interval(trapezoid, ipsc):
    pred = api.predict(trapezoid, ipsc, 4)
    assert pred.seconds is None and api.prediction_interval(pred) == (None, None)


def test_predict_text_and_json():
    f = str(PROGRAMS / "twonode.f")
    res = CliRunner().invoke(main, ["predict", f, "-P", "2", "--top", "0"])
    assert res.exit_code == 0, res.output
    assert "range over the spec's [min, max] values: " in res.output
    res = CliRunner().invoke(main, ["predict", f, "-P", "2", "--format", "json"])
    data = json.loads(res.output)
    assert data["total_seconds_min"] <= data["total_seconds"] <= data["total_seconds_max"]
