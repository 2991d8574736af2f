"""``interp scalability`` and ``interp latency-metric``: output, plot, and usage errors."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner
from pytest import approx

from interp.cli import main

CUBE = str(Path(__file__).parent / "programs" / "cube.f")
COMMON = [CUBE, "--machine", "cluster", "-P", "2,4,8"]


def run(*args):
    return CliRunner().invoke(main, list(args))


def test_scalability_json_and_plot(tmp_path):
    plot = tmp_path / "lat.png"
    r = run("scalability", *COMMON, "--path", "N=t", "--efficiency", "0.9", "--kind",
            "combination", "--format", "json", "--plot", str(plot))
    assert r.exit_code == 0, r.output
    data = json.loads(r.stdout)
    assert [p["P"] for p in data["points"]] == [2, 4, 8]
    lat = {p["P"]: p["L"] for p in data["points"]}
    scale = {(s["P"], s["P2"]): s["value"] for s in data["scale"]}
    assert scale[(2, 8)] == approx(lat[2] / lat[8])
    assert scale[(2, 8)] == approx(scale[(2, 4)] * scale[(4, 8)])
    assert plot.read_bytes()[:4] == b"\x89PNG"


def test_scalability_text_has_the_table_and_sizes():
    r = run("scalability", *COMMON, "--path", "N=t", "--efficiency", "0.7")
    assert r.exit_code == 0, r.output
    assert "Algorithmic scalability" in r.stdout and "χ(P)" in r.stdout and "N=" in r.stdout


def test_unreachable_target_is_reported_not_looped():
    r = run("scalability", *COMMON, "--path", "N=t", "--efficiency", "0.9", "--kind",
            "combination", "--max-size", "4")
    assert r.exit_code == 0, r.output
    assert "target not reached on the path" in r.stdout


def test_usage_errors_exit_2():
    for args in (["--path", "N=t+", "--efficiency", "0.7"],
                 ["--path", "N=t", "--efficiency", "1.5"],
                 ["--path", "N=t", "--efficiency", "0.7", "--kind", "other"],
                 ["--path", "Q=t", "--efficiency", "0.7"]):
        r = run("scalability", *COMMON, *args)
        assert r.exit_code == 2, (args, r.output)
    r = run("scalability", *COMMON, "--path", "N=t", "--efficiency", "0.7", "--set", "N=10")
    assert r.exit_code == 2 and "given twice" in r.output
    r = run("scalability", CUBE, "--machine", "cluster", "-P", "4", "--path", "N=t",
            "--efficiency", "0.7")
    assert r.exit_code == 2 and "two machine sizes" in r.output


def test_latency_metric_json():
    r = run("latency-metric", *COMMON, "--scale", "N", "--efficiency", "0.25", "--format",
            "json", "--work", "N*N*N")
    assert r.exit_code == 0, r.output
    data = json.loads(r.stdout)
    for p in data["points"]:
        assert p["E_method1"] >= 0.25
        assert p["W"] == approx(p["t"] ** 3)
    assert data["integral"] is None and len(data["isospeed"]) == 3


def test_latency_metric_text():
    r = run("latency-metric", *COMMON, "--scale", "N", "--efficiency", "0.25", "--integral", "2")
    assert r.exit_code == 0, r.output
    for text in ("(3.7)", "Theorem 2", "Isospeed", "(3.8)", "L (method 2)"):
        assert text in r.stdout


def test_a_long_size_is_folded_not_cut_short():
    """χ of a path of many inputs (NPB MG's) is wider than its column: every character of it
    is printed (folded over lines), none replaced by an ellipsis."""
    from interp.analysis.scalability import Scalability, SizePoint
    from interp.analysis.sizepath import Root, parse_path
    from interp.output.prediction_view import make_console
    from interp.output.scalability_view import render_text

    path = parse_path("NX_DEFAULT=2^t, NY_DEFAULT=2^t, NZ_DEFAULT=2^t, LT_DEFAULT=t")
    points = [SizePoint(p, Root(t, "found", 0.71), path.show(t, p), t, 1.0, 0.7 / p, 0.6 / p)
              for p, t in ((2, 3), (4, 4), (8, 5))]
    console = make_console(60)
    with console.capture() as out:
        console.print(render_text(Scalability("combination", 0.7, path, "mg", "cluster", points)))
    text = out.get()
    assert "…" not in text
    chi = "".join(line.split("│")[4].strip() for line in text.splitlines()
                  if line.count("│") == 5 and line.split("│")[1].strip() in ("χ(P)", ""))
    assert chi == "NX_DEFAULT=NY_DEFAULT=NZ_DEFAULT=32,LT_DEFAULT=5"
