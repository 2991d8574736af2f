"""benchmarks/npb_validate.py: an NPB benchmark built by smpiff from its Makefile's files and
compared with interp, communication only. Uses the NPB tree (NPB_DIR or ../shared/npb)."""

from __future__ import annotations

import pytest

from benchmarks import npb_suite, npb_validate  # the project root: tests/validation/conftest.py

MAKEFILE = """\
OBJS = main.o solve.o \\
       ${COMMON}/timers.o

${PROGRAM}: config
\t${MAKE} exec

plain: ${OBJS} noio.o
\t${FLINK} ${FLINKFLAGS} -o ${PROGRAM} ${OBJS} noio.o ${FMPI_LIB}

withio: ${OBJS} realio.o
\t${FLINK} ${FLINKFLAGS} -o ${PROGRAM}.io ${OBJS} realio.o ${FMPI_LIB}
"""


def test_the_default_link_line_adds_its_objects(tmp_path):
    """BT links btio.o (its no-I/O stubs) beside OBJS; the I/O variants are other programs."""
    (tmp_path / "X").mkdir()
    (tmp_path / "X" / "Makefile").write_text(MAKEFILE)
    names = [p.name for p in npb_suite.sources(tmp_path, "X")]
    assert names == ["main.f", "solve.f", "timers.f", "noio.f"]


def test_ep_class_s_four_ranks(smpi, capsys):
    if not npb_suite.npb_dir().is_dir():
        pytest.skip(f"no NPB tree at {npb_suite.npb_dir()} (set NPB_DIR)")
    status = npb_validate.main(["--bench", "EP", "--class", "S", "-P", "4"])
    out = capsys.readouterr().out
    row = next(line for line in out.splitlines() if line.startswith("EP "))
    assert status == 0, out
    assert "ipsc860" in row and "%" in row


def test_max_steps_reaches_interp(smpi, capsys, monkeypatch):
    """--max-steps is interp's step budget: EP's stepped loops see a budget of 1000 AAU
    executions (past it a computing DO loop is not followed, so the case still validates:
    stepbudget.py), and the budget is the default again after the run."""
    from interp.engine import stepbudget
    from interp.engine.stepbudget import DEFAULT_MAX_STEPS, MAX_STEPS

    if not npb_suite.npb_dir().is_dir():
        pytest.skip(f"no NPB tree at {npb_suite.npb_dir()} (set NPB_DIR)")
    seen: set[int] = set()
    check = stepbudget.check

    def recording(p, a, computing=False):
        seen.add(p.max_steps)
        return check(p, a, computing)

    monkeypatch.setattr(stepbudget, "check", recording)
    status = npb_validate.main(["--bench", "EP", "--class", "S", "-P", "4",
                                "--max-steps", "1000"])
    out = capsys.readouterr().out
    assert status == 0, out
    assert seen == {1000}
    assert MAX_STEPS.get() == DEFAULT_MAX_STEPS


def test_max_steps_must_be_positive(capsys):
    with pytest.raises(SystemExit) as stop:
        npb_validate.main(["--max-steps", "0"])
    assert stop.value.code == 2
    assert "expected a positive whole number" in capsys.readouterr().err
