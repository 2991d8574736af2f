"""interp validate on a program of several files with an INCLUDE file (validation/multifile/:
main.f, exch.f, clock.f and comm.h), as NPB's benchmarks are built: each file compiled by
smpiff on its own, then linked; the program's own MPI_WTIME reads cost nothing on either side.

Hand-computed communication time on the iPSC/860 (Table 3, computation off):

* MPI_ALLREDUCE of one double (8 B, static buffers), recursive doubling, log2(P) rounds of
  one hop each: 70 us startup + 0.42 us/B * 8 B + 11 us/hop = 84.36 us per round.
* then 100 doubles (800 B, dynamic buffers) from rank 0 to rank P-1, log2(P) hops on the cube:
  175 us + 0.36 us/B * 800 B + 33 us/hop * log2(P) (receive overhead 0).
"""

from __future__ import annotations

import math

import pytest

from interp.analysis import validate as V
from interp.application.aag import build_aag
from interp.errors import InterpError
from interp.system import load_machine

from .conftest import VALIDATION

FOLDER = VALIDATION / "multifile"
FILES = [FOLDER / "exch.f", FOLDER / "main.f", FOLDER / "clock.f"]  # main not first


def hand_seconds(p: int) -> float:
    rounds = hops = int(math.log2(p))
    allreduce = rounds * (70e-6 + 0.42e-6 * 8 + 11e-6)
    ship = 175e-6 + 0.36e-6 * 800 + 33e-6 * hops
    return allreduce + ship


def test_hand_values():
    assert hand_seconds(2) == pytest.approx(580.36e-6)  # 84.36 + 496
    assert hand_seconds(4) == pytest.approx(697.72e-6)  # 168.72 + 529


@pytest.fixture(scope="module")
def ipsc():
    return load_machine("ipsc860")


@pytest.mark.parametrize("p", [2, 4, 8, 16])
def test_interp_communication_is_hand_computed(p, ipsc):
    pred = V.predict_communication(build_aag([str(f) for f in FILES]), ipsc, p)
    assert pred.seconds == pytest.approx(hand_seconds(p), rel=1e-9)


def test_program_is_named_after_the_file_with_program():
    assert V.Program.of(FILES).name == "main"
    assert V.Program.of(FILES, name="multi").name == "multi"


def test_a_folder_with_its_own_mpif_h_is_refused(tmp_path):
    (tmp_path / "mpif.h").write_text("      INTEGER MPI_COMM_WORLD\n")
    (tmp_path / "a.f").write_text("      PROGRAM A\n      END\n")
    with pytest.raises(InterpError) as err:
        V.compile_program([tmp_path / "a.f"], tmp_path)
    assert "its own mpif.h" in err.value.message and "rename" in err.value.render()


@pytest.mark.parametrize("p", [2, 4])
def test_smpi_agrees_and_is_hand_computed(p, smpi, ipsc, tmp_path):
    [row] = V.validate([V.Program.of(FILES)], [p], ipsc, workdir=tmp_path)
    assert abs(row.error) <= 0.05
    # SMPI prints 6 significant digits; its 10 ns per MPI_WTIME would show (smpi/wtime:0)
    assert row.smpi == pytest.approx(hand_seconds(p), abs=5e-9)
    assert row.interp == pytest.approx(hand_seconds(p), rel=1e-9)


def test_cli_one_program(smpi):
    from click.testing import CliRunner

    from interp.cli import main

    result = CliRunner().invoke(main, ["validate", "--one-program", *map(str, FILES), "-P", "4"])
    assert result.exit_code == 0, result.output
    assert "| main | ipsc860 | 4 | 697.7 | 697.7 | +0.00% |" in result.output
