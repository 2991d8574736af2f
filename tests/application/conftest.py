"""Fixtures for the Level-1 front-end tests: Fortran snippets written to ``tmp_path``."""

from __future__ import annotations

from pathlib import Path

import pytest

from interp.application.aag import AAG, build_aag

from .helpers import fixed_form


@pytest.fixture
def write_raw(tmp_path: Path):
    """Write ``text`` verbatim to ``tmp_path/name``; returns the path."""

    def write(text: str, name: str = "t.f") -> Path:
        path = tmp_path / name
        path.write_text(text)
        return path

    return write


@pytest.fixture
def fixed(tmp_path: Path):
    """Write a snippet laid out in fixed form (see :func:`.helpers.fixed_form`); returns the path."""

    def write(text: str, name: str = "t.f") -> Path:
        path = tmp_path / name
        path.write_text(fixed_form(text))
        return path

    return write


@pytest.fixture
def aag_of(fixed):
    """Build the AAG of a fixed-form snippet."""

    def build(text: str, granularity: str = "largest", name: str = "t.f") -> AAG:
        return build_aag([fixed(text, name)], granularity)

    return build

