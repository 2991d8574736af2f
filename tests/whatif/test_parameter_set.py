"""``--set NAME=V`` and ``--what-if 'NAME *= k'`` of a PARAMETER constant: the program is
rebuilt with that value, so "what if N were ten times larger" works where N is fixed in the
source (NPB's sizes in npbparams.h). Each prediction must equal that of the source edited by
hand to the same value."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from interp.cli import main

PROGRAM = """\
      PROGRAM PSET
      INCLUDE 'sizes.h'
      INTEGER I, K
      DOUBLE PRECISION X(NMAX), S
      S = 0.0D0
      DO 20 K = 1, NSTEP
         DO 10 I = 1, N
            X(I) = X(I)*0.5D0 + 1.0D0
            S = S + X(I)
   10    CONTINUE
   20 CONTINUE
      PRINT *, S
      END
"""
SIZES = "      INTEGER N, NMAX, NSTEP\n      PARAMETER (N = {n}, NMAX = 4000, NSTEP = {nstep})\n"


def program(tmp_path, n=100, nstep=3, name="p") -> str:
    folder = tmp_path / name
    folder.mkdir()
    (folder / "sizes.h").write_text(SIZES.format(n=n, nstep=nstep))
    (folder / "pset.f").write_text(PROGRAM)
    return str(folder / "pset.f")


def seconds(*args) -> float:
    out = CliRunner().invoke(main, ["predict", *map(str, args), "--format", "json"])
    assert out.exit_code == 0, out.output
    return json.loads(out.stdout)["total_seconds"]


def test_set_equals_the_edited_source(tmp_path):
    base = program(tmp_path)
    for n, nstep in ((200, 3), (100, 7), (2000, 5)):
        edited = program(tmp_path, n, nstep, name=f"e{n}_{nstep}")
        assert seconds(base, "--set", f"N={n}", "--set", f"NSTEP={nstep}") == \
            pytest.approx(seconds(edited), rel=1e-12)


def test_time_is_linear_in_the_parameter(tmp_path):
    # DO 20 K = 1, NSTEP around a fixed body: T = a + b*NSTEP, so the slope from 3 to 5
    # equals the slope from 5 to 9
    base = program(tmp_path)
    t3, t5, t9 = (seconds(base, "--set", f"NSTEP={k}") for k in (3, 5, 9))
    assert (t9 - t5) / 4 == pytest.approx((t5 - t3) / 2, rel=1e-9)
    assert seconds(base) == pytest.approx(t3, rel=1e-12)  # the source's own NSTEP = 3


def test_what_if_scales_the_parameter_from_its_own_value(tmp_path):
    base = program(tmp_path)
    assert seconds(base, "--what-if", "N *= 10") == pytest.approx(
        seconds(program(tmp_path, 1000, name="n1000")), rel=1e-12)


def test_the_note_names_the_parameter_and_where_it_is(tmp_path):
    out = CliRunner().invoke(main, ["predict", program(tmp_path), "--set", "N=50"])
    assert out.exit_code == 0, out.output
    assert "N = 50 replaces the PARAMETER at" in out.output and "sizes.h:2" in out.output


def test_an_integer_parameter_takes_a_whole_number(tmp_path):
    out = CliRunner().invoke(main, ["predict", program(tmp_path), "--set", "NSTEP=2.5"])
    assert out.exit_code == 2, out.output
    assert "NSTEP is an INTEGER PARAMETER" in out.output and "Traceback" not in out.output


def test_a_sweep_over_a_parameter_interprets_each_value(tmp_path):
    base = program(tmp_path)
    out = CliRunner().invoke(main, ["sweep", base, "--vary", "NSTEP=3,9", "--format", "json"])
    assert out.exit_code == 0, out.output
    rows = json.loads(out.stdout)
    got = {r["NSTEP"]: r["seconds"] for r in rows["rows"]} if "rows" in rows else None
    assert got is not None, rows
    for k in (3, 9):
        assert got[k] == pytest.approx(seconds(base, "--set", f"NSTEP={k}"), rel=1e-12)
