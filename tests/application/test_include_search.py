"""INCLUDE of any file name: searched beside the including file, then in each -I folder; the
included file takes the including file's form (fixed or free); a missing one is an error at
the INCLUDE line naming the folders searched; mpif.h stays built in."""

from __future__ import annotations

import pytest
from click.testing import CliRunner

from interp.application.aag import build_aag
from interp.application.parser import parse_file
from interp.cli import main
from interp.errors import InterpError

MAIN = ("      PROGRAM P\n"
        "      INCLUDE 'params.incl'\n"
        "      INTEGER I, S\n"
        "      S = 0\n"
        "      DO I = 1, N\n"
        "         S = S + I\n"
        "      END DO\n"
        "      END\n")
PARAMS = "      INTEGER N\n      PARAMETER (N = 7)\n"


def _trips(aag) -> int:
    loop = next(a for a in aag.units["P"].aaus if a.type == "IterD")
    return int(loop.num_iters)


def test_an_include_beside_the_source_with_any_extension(tmp_path):
    (tmp_path / "params.incl").write_text(PARAMS)
    (tmp_path / "p.f").write_text(MAIN)
    assert _trips(build_aag([tmp_path / "p.f"])) == 7


def test_an_include_found_through_dash_i(tmp_path):
    (tmp_path / "inc").mkdir()
    (tmp_path / "src").mkdir()
    (tmp_path / "inc" / "params.incl").write_text(PARAMS)
    (tmp_path / "src" / "p.f").write_text(MAIN)
    aag = build_aag([tmp_path / "src" / "p.f"], include_dirs=[tmp_path / "inc"])
    assert _trips(aag) == 7
    out = CliRunner().invoke(main, ["graph", str(tmp_path / "src" / "p.f"),
                                    "-I", str(tmp_path / "inc")])
    assert out.exit_code == 0, out.output
    assert "iterations: 7" in out.output


def test_the_including_folder_comes_before_dash_i(tmp_path):
    (tmp_path / "inc").mkdir()
    (tmp_path / "inc" / "params.incl").write_text("      INTEGER N\n      PARAMETER (N = 99)\n")
    (tmp_path / "params.incl").write_text(PARAMS)
    (tmp_path / "p.f").write_text(MAIN)
    assert _trips(build_aag([tmp_path / "p.f"], include_dirs=[tmp_path / "inc"])) == 7


def test_an_included_file_takes_the_free_form_of_a_free_form_source(tmp_path):
    # free form: a statement from column 1, continued with '&'
    (tmp_path / "params.incl").write_text("integer n\nparameter (n = &\n  3)\n")
    (tmp_path / "p.f90").write_text(
        "program p\ninclude 'params.incl'\ninteger i, s\ns = 0\ndo i = 1, n\n"
        "  s = s + i\nend do\nend\n")
    assert _trips(build_aag([tmp_path / "p.f90"])) == 3


def test_a_missing_include_names_where_it_looked(tmp_path):
    (tmp_path / "p.f").write_text(MAIN)
    with pytest.raises(InterpError) as exc:
        parse_file(tmp_path / "p.f", [tmp_path / "a", tmp_path / "b"])
    assert exc.value.message == (f"INCLUDE file 'params.incl' not found (looked in {tmp_path}, "
                                 f"{tmp_path / 'a'}, {tmp_path / 'b'})")
    assert (exc.value.location.line, exc.value.location.column) == (2, 7)
    assert "-I DIR" in exc.value.hint


def test_mpif_h_is_built_in(tmp_path):
    (tmp_path / "m.f").write_text("      PROGRAM M\n      INCLUDE 'mpif.h'\n"
                                  "      INTEGER IERR\n      CALL MPI_INIT(IERR)\n"
                                  "      CALL MPI_FINALIZE(IERR)\n      END\n")
    assert "M" in build_aag([tmp_path / "m.f"]).units


def test_every_command_taking_files_has_dash_i_and_input_file():
    def commands(group):
        for cmd in group.commands.values():
            yield from commands(cmd) if hasattr(cmd, "commands") else [cmd]

    with_files = [c for c in commands(main) if any(p.name == "files" for p in c.params)]
    assert len(with_files) >= 10
    for cmd in with_files:
        flags = {o for p in cmd.params for o in getattr(p, "opts", [])}
        assert {"-I", "--input-file"} <= flags, cmd.name


def test_predict_and_check_with_dash_i(tmp_path):
    (tmp_path / "inc").mkdir()
    (tmp_path / "inc" / "params.incl").write_text(PARAMS)
    (tmp_path / "p.f").write_text(MAIN)
    for command in (["predict"], ["check"], ["formula"]):
        out = CliRunner().invoke(main, [*command, str(tmp_path / "p.f"), "-I",
                                        str(tmp_path / "inc")])
        assert out.exit_code == 0, out.output
    out = CliRunner().invoke(main, ["predict", str(tmp_path / "p.f")])
    assert out.exit_code == 2 and "-I DIR" in out.output


def test_a_declarations_header_is_parsed_once_and_executable_includes_afresh(tmp_path):
    (tmp_path / "decl.h").write_text("      INTEGER N\n      PARAMETER (N = 4)\n")
    (tmp_path / "body.h").write_text("      READ(5, *, END=10) K\n")
    (tmp_path / "p.f").write_text(
        "      SUBROUTINE A(K)\n      INCLUDE 'decl.h'\n      INCLUDE 'body.h'\n"
        "   10 CONTINUE\n      END\n"
        "      SUBROUTINE B(K)\n      INCLUDE 'decl.h'\n      INCLUDE 'body.h'\n"
        "   10 CONTINUE\n      END\n")
    a, b = parse_file(tmp_path / "p.f")
    assert a.decls[0] is b.decls[0]  # the header's statements are shared
    for unit in (a, b):  # each READ keeps its END= jump (an IF around the skipped part)
        assert [type(s).__name__ for s in unit.body][:2] == ["Read", "IfBlock"]
    assert a.body[0] is not b.body[0]
