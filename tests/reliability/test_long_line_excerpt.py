"""An error under a very long source line shows at most EXCERPT_WIDTH characters of it around
the column, with the caret still under the column (a 50 MB one-line YAML was echoed whole)."""

from __future__ import annotations

from hypothesis import given, strategies as st

from interp.errors import EXCERPT_WIDTH, excerpt

from .helpers import invoke


def test_a_long_one_line_spec(tmp_path):
    """900 kB on one line (under the 1 MB spec limit), the YAML error at its end."""
    spec = tmp_path / "big.yaml"
    spec.write_text("a: [" + "x, " * 300_000 + "]]")
    result = invoke("machine", "validate", spec)
    assert result.exit_code == 2
    assert len(result.stderr) < 500, len(result.stderr)
    source, caret = result.stderr.splitlines()[1:3]
    assert source.endswith("x, ]]") and source.lstrip().startswith("...")
    assert caret.index("^") == len(source) - 1  # under the last ']'


def test_a_six_megabyte_spec_is_refused_by_its_size(tmp_path):
    spec = tmp_path / "big.yaml"
    spec.write_text("a: [" + "x, " * 2_000_000 + "]]")
    result = invoke("machine", "validate", spec)
    assert result.exit_code == 2
    assert len(result.stderr) < 500, len(result.stderr)


@given(st.text(alphabet="ab ", max_size=400), st.integers(1, 400))
def test_the_caret_stays_under_the_column(line, column):
    column = min(column, len(line)) or 1
    text, at = excerpt(line, column)
    assert len(text) <= EXCERPT_WIDTH + 6  # the window and two "..." marks
    if line:
        assert text[at] == line[column - 1]
