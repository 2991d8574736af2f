"""Views of the latency metric (seed 004): the E-conserved scale table (3.7) with W(N) in its
last rows, Theorem 2's (W/N)/(W'/N') beside it, the isospeed sizes, and the average over E
(3.8), as text or JSON."""

from __future__ import annotations

from rich.console import Group
from rich.table import Table
from rich.text import Text

from interp.analysis.latency_metric import LatencyStudy, midpoints
from interp.output.jsontext import dumps
from interp.output.numbers import seconds_text
from interp.output.scalability_view import STATUS, scale_grid


def render_text(study: LatencyStudy) -> Group:
    ns = [p.n for p in study.points]
    head = Text(f"Latency metric of {study.program} on {study.machine}, E = {study.target:g}, "
                f"path {study.path.text}, W = {study.work_text}")
    grid = scale_grid(ns, study.table, "N, N'")
    grid.add_section()
    grid.add_row("χ(N)", *(p.chi for p in study.points))
    grid.add_row("W", *(f"{p.work:g}" for p in study.points))
    grid.add_row("E", *(f"{p.e1:.4f}" for p in study.points))
    grid.add_row("T_para", *(seconds_text(p.run.t_para) for p in study.points))
    grid.add_row("L (method 1)", *(seconds_text(p.l1) for p in study.points))
    grid.add_row("L (method 2)", *(seconds_text(p.l2) for p in study.points))
    parts: list = [head, Text("scale(E, (N, N')) = L(W, N) / L(W', N')  (3.7)"), grid,
                   Text("Theorem 2: (W/N) / (W'/N')  (3.13)"),
                   scale_grid(ns, study.theorem2(), "N, N'")]
    if study.isospeed:
        speed = Table()
        for name in ("N", "χ(N)", "W", "S = W/(N·T_para)", ""):
            speed.add_column(name, justify="right", overflow="fold")
        for p in study.isospeed:
            speed.add_row(str(p.n), p.chi, f"{p.work:g}", f"{p.speed:.4g} /s",
                          STATUS[p.root.status])
        parts += [Text(f"Isospeed: W(N) keeping the speed of N = {study.points[0].n}"), speed]
    if study.integral is not None:
        es = ", ".join(f"{e:g}" for e in midpoints(study.integral_k))
        parts += [Text(f"Scale(N, N') = ∫ scale(E) dE  (3.8), midpoint rule on E = {es}"),
                  scale_grid(ns, study.integral, "N, N'")]
        if study.off_target:
            parts.append(Text("\n".join(f"E = {e:g}, N = {n}: {STATUS[status]}"
                                         for e, n, status in study.off_target)))
    notes = [f"N = {p.n}: {STATUS[p.root.status]} ({p.chi}, E = {p.e1:.4f})"
             for p in study.points if p.root.status != "found"]
    if notes:
        parts.append(Text("\n".join(notes)))
    return Group(*parts)


def to_dict(study: LatencyStudy) -> dict:
    def pairs(table):
        return [{"N": a, "N2": b, "value": v} for (a, b), v in table.items() if a < b]

    return {"target": study.target, "path": study.path.text, "work": study.work_text,
            "program": study.program, "machine": study.machine,
            "points": [{"N": p.n, "status": p.root.status, "t": p.t, "W": p.work,
                        "T_seq": p.t_seq, "T_para": p.run.t_para, "L_method1": p.l1,
                        "L_method2": p.l2, "E_method1": p.e1, "E_method2": p.e2,
                        "speed": p.speed} for p in study.points],
            "scale": pairs(study.table), "theorem2": pairs(study.theorem2()),
            "isospeed": [{"N": p.n, "t": p.t, "W": p.work, "speed": p.speed}
                         for p in study.isospeed],
            "integral": None if study.integral is None else
            {"efficiencies": midpoints(study.integral_k), "scale": pairs(study.integral),
             "off_target": [{"E": e, "N": n, "status": status}
                            for e, n, status in study.off_target]}}


def render_json(study: LatencyStudy) -> str:
    return dumps(to_dict(study), indent=2)
