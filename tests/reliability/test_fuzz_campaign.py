"""The fuzz campaign, short (CI): generated programs, specs and what-ifs keep the invariant —
exit 0, 1 or 2, no exception and no traceback (tests/reliability/fuzz_inputs.py). The long
campaign is benchmarks/fuzz_campaign.py."""

from __future__ import annotations

import tempfile
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from . import fuzz_inputs as F

# few examples (CI stays short); deadline: no case may take long, a hang fails the run
SHORT = settings(max_examples=12, deadline=10_000, derandomize=True,
                 suppress_health_check=[HealthCheck.too_slow])


def _holds(outcome: F.Outcome) -> None:
    assert outcome.crash is None, f"{outcome.args[:3]}: {outcome.crash}\n{outcome.output[-1500:]}"


@SHORT
@given(F.programs(), st.sampled_from(["predict", "check", "graph", "formula"]),
       st.sampled_from([1, 2, 3]))
def test_generated_programs_keep_the_invariant(source, command, nprocs):
    with tempfile.TemporaryDirectory() as tmp:
        _holds(F.program_case(Path(tmp), source, command, nprocs))


@SHORT
@given(F.specs())
def test_generated_specs_keep_the_invariant(text):
    with tempfile.TemporaryDirectory() as tmp:
        _holds(F.spec_case(Path(tmp), text))


@SHORT
@given(F.what_ifs())
def test_generated_what_ifs_keep_the_invariant(statements):
    _holds(F.what_if_case(statements))
