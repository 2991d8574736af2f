"""Fixtures for the interpreter-engine tests (constants and helpers: :mod:`.helpers`)."""

from __future__ import annotations

import signal

import pytest

from interp.system import load_machine


@pytest.fixture(scope="session")
def ipsc():
    return load_machine("ipsc860")


@pytest.fixture
def deadline():
    """Fail (instead of hanging the suite) when the body takes longer than ``seconds``."""

    class _Deadline:
        def __call__(self, seconds: int):
            def handler(signum, frame):
                raise TimeoutError(f"the engine did not finish within {seconds} s")

            signal.signal(signal.SIGALRM, handler)
            signal.alarm(seconds)
            return self

        def __enter__(self):
            return self

        def __exit__(self, *exc):
            signal.alarm(0)
            return False

    yield _Deadline()
    signal.alarm(0)
