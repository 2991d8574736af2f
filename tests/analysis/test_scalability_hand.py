"""seed 002's numbers for cube.f on the cluster worked by hand (docs/scalability.md, "The ideal
machines"): T_s, E and L at the size the search finds.

cube.f's one rank runs NW = N³ iterations of S = S + 1.5D0*S: fetch S twice (4 clk each),
mul (3-4: 3.5 clk), add (1-4: 2.5), store (1) and the loop's step (1-2: 1.5), 16.5 clk of
0.4 ns = 6.6 ns; on one rank its MPI calls cost no messages, so T_s on the PRAM's node is
`interp predict -P 1`, whose formula is 6.6e-9·N³ + c."""

from __future__ import annotations

from pathlib import Path

from pytest import approx

from interp import api

CUBE = str(Path(__file__).parent / "programs" / "cube.f")
ITERATION = (4 + 4 + 3.5 + 2.5 + 1 + 1.5) * 0.4e-9


def test_t_s_e_and_l_at_the_found_size():
    study = api.scalability(CUBE, "cluster", [2, 4], "N=t", 0.9, "combination")
    one = {n: api.predict(CUBE, "cluster", 1, {"N": n}, symbolic=False).seconds
           for p in study.points for n in (p.t - 1, p.t)}
    for p in study.points:
        n = p.t
        assert one[n] - one[n - 1] == approx(ITERATION * (n**3 - (n - 1)**3), rel=1e-9)
        assert p.ts == approx(one[n], rel=1e-12)  # T_s = predict -P 1 here
        tp = api.predict(CUBE, "cluster", p.nprocs, {"N": n}, symbolic=False).seconds
        assert p.tp == approx(tp, rel=1e-12)
        e = p.ts / (p.nprocs * tp)  # eq. 5 with 7
        assert e >= 0.9
        before = api.predict(CUBE, "cluster", p.nprocs, {"N": n - 1}, symbolic=False).seconds
        assert one[n - 1] / (p.nprocs * before) < 0.9  # the smallest such N
        assert p.l == approx(tp - p.ts / p.nprocs, rel=1e-12)  # eq. 3
    assert study.table[(2, 4)] == approx(study.points[0].l / study.points[1].l)  # eq. 9
