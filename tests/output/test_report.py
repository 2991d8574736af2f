"""``interp report``: one self-contained HTML file, or Markdown with its images beside it."""

from __future__ import annotations

import base64
import re

import pytest
from markdown_it import MarkdownIt

from interp.analysis import scaling
from interp.analysis.setup import Setup
from interp.output import report

from .conftest import TINY, TRAP_ARGS, run

PNG = b"\x89PNG\r\n\x1a\n"


@pytest.fixture(scope="module")
def html_report(tmp_path_factory):
    out = tmp_path_factory.mktemp("report") / "report.html"
    result = run("report", *TRAP_ARGS, "-o", out, "--budget", "5", "--at", "node.f:30-56")
    assert result.exit_code == 0, result.output
    return out.read_text()


def test_html_is_self_contained(html_report):
    doc = html_report
    assert doc.startswith("<!DOCTYPE html>")
    # nothing is fetched: no external scripts, styles, images or fonts
    assert not re.search(r"""(src|href)\s*=\s*["']?(https?:)?//""", doc, re.I)
    assert "<script" not in doc.lower() and "@import" not in doc and "url(http" not in doc
    images = re.findall(r'<img [^>]*src="data:image/png;base64,([A-Za-z0-9+/=]+)"', doc)
    assert len(images) >= 5  # breakdown, N, NITER, P, SAAG, timeline
    for b64 in images:
        assert base64.b64decode(b64).startswith(PNG)
    assert not re.search(r'<img [^>]*src="(?!data:)', doc)


def test_html_contents(html_report):
    doc = html_report
    assert "<math" in doc and "</math>" in doc and "&#8970;" in doc  # floor(N/4) in MathML
    assert "NITER - 4" in doc  # the plain-text formula
    for heading in ("Inputs and machine", "The formula", "Where the time goes", "Scaling",
                    "The SAAG", "Annotated source", "Notes and assumptions", "Selected parts"):
        assert heading in doc
    assert "Intel iPSC/860" in doc and "N = 10000" in doc
    assert "Over all 5 processes: computation" in doc
    assert "SUM = SUM + 4.0D0/(1.0D0 + X*X)" in doc
    assert "steady state reached" in doc
    assert "Re-predicted at P = 1, 2, 4, 8, 16" in doc and "speed-up over P = 1" in doc


def test_markdown_report(tmp_path):
    out = tmp_path / "r.md"
    result = run("report", TINY, "-P", "2", "-o", out, "--budget", "3")
    assert result.exit_code == 0, result.output
    text = out.read_text()
    html = MarkdownIt("commonmark").enable("table").render(text)
    assert "<table>" in html and "<h2>Annotated source</h2>" in html
    refs = re.findall(r"!\[[^\]]*\]\(([^)]+)\)", text)
    assert refs and all((tmp_path / r).read_bytes().startswith(PNG) for r in refs)
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(["r.md", *refs])
    assert "$$T = " in text and "```text" in text


def test_report_with_trace(tmp_path):
    result = run("report", TINY, "-P", "2", "-o", tmp_path / "r.html", "--trace",
                 tmp_path / "t.json", "--budget", "2")
    assert result.exit_code == 0, result.output
    assert (tmp_path / "t.json").read_text().startswith('{"traceEvents"')


def test_what_if_section(tmp_path):
    pytest.importorskip("interp.engine.whatif")
    out = tmp_path / "r.html"
    result = run("report", *TRAP_ARGS, "-o", out, "--budget", "0", "--what-if", "P = 2")
    assert result.exit_code == 0, result.output
    doc = out.read_text()
    assert "What if" in doc and "P = 2" in doc


def test_bad_what_if_is_an_error_before_work(tmp_path):
    pytest.importorskip("interp.engine.whatif")
    result = run("report", TINY, "-P", "2", "-o", tmp_path / "r.html", "--what-if", "P ==")
    assert result.exit_code == 2 and "Traceback" not in result.output
    assert list(tmp_path.iterdir()) == []


def test_formula_mathml_rounds_for_reading():
    import sympy as sp

    n = sp.Symbol("N", integer=True, positive=True)
    out = report.formula_mathml(sp.Float(4.0) * n + sp.Float(1.23456789e-6) * sp.floor(n / 3))
    assert out.startswith("<math") and "<mn>4</mn>" in out and "1.2346" in out


def test_sweeps_respect_the_formula_assumptions(trap, ipsc):
    runner = scaling.Runner(Setup.of(trap))
    sweeps, _notes = scaling.input_curves(trap, runner, 30.0)
    niter = next(s for s in sweeps if s.name == "NITER")
    assert all(x >= 4 for x, _ in niter.points)  # the formula holds from NITER = 4
    assert {x for x, _ in niter.exact} <= {1.0, 2.0, 3.0} and niter.exact
    for x, y in niter.exact:  # below it, interpreted exactly: a fresh prediction
        import sympy as sp

        again = runner.predict(4, {"N": sp.Integer(10**4), "NITER": sp.Integer(int(x))})
        assert y == pytest.approx(again.seconds)
    n = next(s for s in sweeps if s.name == "N")
    assert min(x for x, _ in n.points) == 1000 and max(x for x, _ in n.points) == 100000
