"""The user cache (interp/cache.py): a parsed machine spec and the Lark tables are reused by the
next process, and never when the file they came from has changed."""

from __future__ import annotations

import os

import pytest
from lark import Lark

from interp import cache
from interp.system import loader

from conftest import MINIMAL


@pytest.fixture
def user_cache(tmp_path, monkeypatch):
    folder = tmp_path / "cache"
    monkeypatch.setenv("INTERP_CACHE_DIR", str(folder))
    loader._load_cached.cache_clear()  # the per-process cache would hide the user cache
    yield folder
    loader._load_cached.cache_clear()


def _fresh_load(path):
    """As a new process would: the per-process cache emptied first."""
    loader._load_cached.cache_clear()
    return loader.load_machine(str(path))


def test_second_load_comes_from_the_cache(tmp_path, user_cache, monkeypatch):
    spec = tmp_path / "tiny.yaml"
    spec.write_text(MINIMAL)
    first = _fresh_load(spec)
    assert len(list(user_cache.glob("sag-*.pickle"))) == 1

    def no_build(doc):
        raise AssertionError("the spec was read again")

    monkeypatch.setattr(loader, "build_sag", no_build)
    again = _fresh_load(spec)
    assert again.title == first.title == "a tiny machine"
    assert again.seconds("node.cs.dynamic.startup") == first.seconds("node.cs.dynamic.startup")


def test_a_changed_file_is_read_again(tmp_path, user_cache):
    spec = tmp_path / "tiny.yaml"
    spec.write_text(MINIMAL)
    stamp = spec.stat().st_mtime_ns
    assert _fresh_load(spec).seconds("node.cs.dynamic.startup") == pytest.approx(175e-6)
    # the same size and modification time: only the content tells the change
    spec.write_text(MINIMAL.replace("startup: 175e-6 s", "startup: 275e-6 s"))
    os.utime(spec, ns=(stamp, stamp))
    assert _fresh_load(spec).seconds("node.cs.dynamic.startup") == pytest.approx(275e-6)
    assert len(list(user_cache.glob("sag-*.pickle"))) == 2


def test_a_bad_spec_is_never_cached(tmp_path, user_cache, write_spec):
    spec = tmp_path / "bad.yaml"
    spec.write_text(MINIMAL.replace("clock: 40 MHz", "clock: 40 parsecs"))
    for _ in range(2):  # the second time reports the error again, it is not a cache entry
        with pytest.raises(Exception, match="parsecs|unit"):
            _fresh_load(spec)
    assert not list(user_cache.glob("sag-*.pickle"))


def test_a_damaged_entry_is_rebuilt(tmp_path, user_cache):
    spec = tmp_path / "tiny.yaml"
    spec.write_text(MINIMAL)
    _fresh_load(spec)
    (entry,) = user_cache.glob("sag-*.pickle")
    entry.write_bytes(b"not a pickle")
    assert _fresh_load(spec).title == "a tiny machine"


def test_no_cache_folder_still_loads(tmp_path, monkeypatch):
    blocked = tmp_path / "file"
    blocked.write_text("a file where the folder should be")
    monkeypatch.setenv("INTERP_CACHE_DIR", str(blocked / "cache"))
    assert cache.cache_dir() is None
    assert cache.grammar_cache("x.lark") is True  # Lark's own temp-folder cache
    spec = tmp_path / "tiny.yaml"
    spec.write_text(MINIMAL)
    assert _fresh_load(spec).title == "a tiny machine"
    loader._load_cached.cache_clear()


def test_a_changed_grammar_is_built_again(user_cache):
    path = cache.grammar_cache("toy.lark")
    assert str(path).startswith(str(user_cache))
    one = Lark('start: "a"+', parser="lalr", cache=path)
    assert len(one.parse("aaa").children) == 0
    two = Lark('start: "b"+', parser="lalr", cache=path)  # same cache file, new grammar
    two.parse("bb")
    with pytest.raises(Exception):
        two.parse("aa")
