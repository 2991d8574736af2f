"""Parsed source files in the user cache (interp/application/parser._parsed_source): the next
process reuses a file's statements, never when its bytes or its name changed, never an error;
and only the newest STATEMENTS_KEPT entries stay (temporary files would pile up)."""

from __future__ import annotations

import os

import pytest

from interp import cache
from interp.application import parser
from interp.errors import InterpError

PROGRAM = """\
      PROGRAM P
      INTEGER N
      N = {n}
      END
"""


@pytest.fixture
def user_cache(tmp_path, monkeypatch):
    folder = tmp_path / "cache"
    monkeypatch.setenv("INTERP_CACHE_DIR", str(folder))
    return folder


def _assigned(path) -> int:
    (unit,) = parser.parse_file(path)
    (stmt,) = [s for s in unit.body if type(s).__name__ == "Assign"]
    return int(stmt.value.value)


def test_second_parse_comes_from_the_cache(tmp_path, user_cache, monkeypatch):
    src = tmp_path / "p.f"
    src.write_text(PROGRAM.format(n=3))
    assert _assigned(src) == 3
    assert len(list(user_cache.glob("statements-*.pickle"))) == 1

    def no_parse(card):
        raise AssertionError("the file was parsed again")

    monkeypatch.setattr(parser, "parse_statement", no_parse)
    assert _assigned(src) == 3


def test_changed_bytes_are_parsed_again(tmp_path, user_cache):
    src = tmp_path / "p.f"
    src.write_text(PROGRAM.format(n=3))
    assert _assigned(src) == 3
    src.write_text(PROGRAM.format(n=4))  # same size: only the bytes tell the change
    assert _assigned(src) == 4
    assert len(list(user_cache.glob("statements-*.pickle"))) == 2


def test_locations_name_the_file_as_given(tmp_path, user_cache):
    """The same bytes under another name are another entry: locations show the name."""
    one, two = tmp_path / "one.f", tmp_path / "two.f"
    one.write_text(PROGRAM.format(n=3))
    two.write_text(PROGRAM.format(n=3))
    assert parser.parse_file(one)[0].loc.file == str(one)
    assert parser.parse_file(two)[0].loc.file == str(two)


def test_an_error_is_never_cached(tmp_path, user_cache):
    src = tmp_path / "bad.f"
    src.write_text("      PROGRAM P\n      N = (1\n      END\n")
    for _ in range(2):  # reported again the second time, not read from an entry
        with pytest.raises(InterpError):
            parser.parse_file(src)
    assert not list(user_cache.glob("statements-*.pickle"))


def test_only_the_newest_entries_are_kept(user_cache):
    """keep=2: three entries written one after another leave the last two (the first two
    dated 1 and 2 s after the epoch, so the order does not rest on the clock's resolution)."""
    for n in range(3):
        assert cache.cached("toy", f"d{n}", lambda n=n: n, keep=2) == n
        if n < 2:
            os.utime(user_cache / f"toy-d{n}.pickle", (n + 1, n + 1))
    left = sorted(p.name for p in user_cache.glob("toy-*.pickle"))
    assert left == ["toy-d1.pickle", "toy-d2.pickle"]
