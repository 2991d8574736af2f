"""Level-2 (SAAG) tests: every test runs from the repository root, so that program paths and
the file names in reported locations read ``tests/saag/programs/x.f``."""

from __future__ import annotations

import pytest

from .helpers import REPO


@pytest.fixture(autouse=True)
def _at_repo_root(monkeypatch):
    monkeypatch.chdir(REPO)
