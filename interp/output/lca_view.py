"""``interp lca``: the fitted models as rich tables (the paper's Figure 2, one table per category
and slice), as JSON, and as a plot (matplotlib, Agg)."""

from __future__ import annotations

import io
import math

import numpy as np
from rich.console import Group
from rich.table import Table
from rich.text import Text

from interp.analysis.lca import (CONFIDENCE, PARTS, Crossover, Factorial, Fit, ModelFit,
                                 PointPrediction, Result, Series)
from interp.output.numbers import seconds_text
from interp.output.prediction_view import make_console
from interp.output import jsontext

NAMES = {"li": "Load Imbalance (LI)", "ip": "Insufficient Parallelism (IP)",
         "sl": "Synchronization Loss (SL)", "cl": "Communication Loss (CL)",
         "rc": "Resource Contention (RC)", "remaining": "Remaining: pure computation T_c",
         "tp": "Parallel run time T_p", "total": "Total time p·T_p",
         "to": "Total overhead T_o", "tp (composed)": "T_p = (T_o + T_c)/p"}
PCT = f"{CONFIDENCE:.0%}"


def _num(x: float | None) -> str:
    return "—" if x is None else f"{x:.6g}"


def _r2(fit: Fit | None) -> str:
    if fit is None:
        return ""
    return "n/a" if fit.r2 is None else f"{fit.r2:.4f}"


def coefficients_text(fit: Fit) -> Text:
    """``(0.000298 ± 1.7e-05)·p*sqrt(p) + …`` (the paper's form), intervals containing zero red."""
    out = Text()
    if not fit.coefficients:
        out.append("0")
    for i, c in enumerate(fit.coefficients):
        if i:
            out.append(" + ")
        out.append(f"({c.value:.6g} ± {c.half_width:.2g})",
                   style="red" if c.contains_zero else None)
        if c.term.factors:
            out.append(f"·{c.term}")
    return out


def _fixed_text(fixed) -> str:
    return ", ".join(f"{k}={v:g}" if isinstance(v, float) else f"{k}={v}" for k, v in fixed)


def _head(result: Result) -> Text:
    rows = result.rows
    head = Text()
    head.append("Lost cycles analysis ", style="bold")
    progs = sorted({r.program for r in rows})
    head.append(f"of {', '.join(progs)} ({rows[0].source}, {rows[0].machine}, by {rows[0].by}): "
                f"{len(rows)} rows from {', '.join(sorted({r.file for r in rows}))}\n")
    head.append(f"Least squares. ± : half-width of the {PCT} confidence interval. A term whose "
                "interval contains zero (red) is dropped and the model refitted.\n"
                "R² n/a: the data do not vary.\n", style="dim")
    return head


def series_table(s: Series) -> Table:
    where = f" — {_fixed_text(s.fixed)}" if s.fixed else ""
    t = Table(title=f"{NAMES.get(s.category, s.category)} against {s.var}{where}: "
                    f"{len(s.y)} points", title_justify="left")
    for col, just in (("", "left"), ("model", "left"), ("from", "left"),
                      ("fit", "left"), ("R²", "right"), ("refit without the red terms", "left"),
                      ("R²", "right")):
        t.add_column(col, justify=just)
    chosen = s.best
    for f in s.fits:
        mark = "★" if f is chosen else ""
        if f.full is None:
            t.add_row(mark, str(f.candidate.model), f.candidate.origin,
                      Text(f"not fitted: needs {f.needs} more point{'s' * (f.needs != 1)}",
                           style="yellow"), "", "", "")
            continue
        t.add_row(mark, str(f.candidate.model), f.candidate.origin, coefficients_text(f.full),
                  _r2(f.full), coefficients_text(f.refit) if f.refit else "—", _r2(f.refit))
    order = np.argsort(s.x, kind="stable")
    pts = ", ".join(f"({s.x[i]:g}, {s.y[i]:.4g})" for i in order[:12])
    t.caption = (f"points ({s.var}, {s.category}): {pts}{' …' if len(order) > 12 else ''}"
                 + ("   ★ highest adjusted R²" if chosen else "") + _threshold(s))
    t.caption_justify = "left"
    return t


def _threshold(s: Series) -> str:
    """RC grows "linearly once the number of processors passes a threshold value" (Section
    4.1): a·p + b read as a·(p − θ), θ = −b/a."""
    for f in s.fits:
        fit = f.final
        if s.category == "rc" and s.var == "p" and fit is not None and str(fit.model) == "p + 1":
            a, b = (c.value for c in fit.coefficients)
            if a > 0:
                return f"\nRC = a·(p − θ) with the threshold θ = −b/a = {-b / a:.4g}"
    return ""


def factorial_parts(f: Factorial) -> list:
    a, b = f.variables
    t = Table(title=f"{NAMES.get(f.category, f.category)} against {a} and {b}: the edges of "
                    "the factorial design", title_justify="left")
    for col, just in (("edge", "left"), ("points", "right"), ("best one-variable model", "left"),
                      ("R²", "right")):
        t.add_column(col, justify=just)
    for edge, s in f.edges:
        mf = s.best
        t.add_row(f"{edge.label} ({edge.varying} varies)", str(len(s.y)),
                  coefficients_text(mf.final) if mf else Text("no model fitted", style="yellow"),
                  _r2(mf.final) if mf else "")
    c = Table(title=f"{NAMES.get(f.category, f.category)}: the one-variable models "
                    f"{f.chosen_models[a].candidate.model} ({a}) and "
                    f"{f.chosen_models[b].candidate.model} ({b}) combined, fitted to all "
                    f"{len(f.runs)} points", title_justify="left")
    for col, just in (("", "left"), ("combination", "left"), ("fit", "left"), ("R²", "right"),
                      (f"held out: mean |error| ({f.heldout_what})", "right")):
        c.add_column(col, justify=just)
    chosen = f.chosen
    for comb in f.combinations:
        final = comb.fit.final
        c.add_row("★" if comb is chosen else "", comb.kind,
                  coefficients_text(final) if final else Text("not fitted", style="yellow"),
                  _r2(final), "—" if comb.heldout is None else
                  f"{comb.heldout:.2%} ({comb.heldout_points} points)")
    return [t, c, Text(verdict(f) + "\n")]


def verdict(f: Factorial) -> str:
    """Which combination, and the evidence."""
    chosen = f.chosen
    if chosen is None:
        return "No combination could be fitted."
    others = [c for c in f.combinations if c is not chosen and c.fit.final is not None]
    parts = [f"→ {chosen.kind}"]
    if chosen.heldout is not None and all(o.heldout is not None for o in others):
        parts.append(f": mean |error| {chosen.heldout:.2%} at the points left out ("
                     f"{f.heldout_what}) against " + ", ".join(
                         f"{o.heldout:.2%} {o.kind}" for o in others))
    else:
        parts.append(": the higher adjusted R² (no held-out points could be predicted)")
    r2 = [c for c in [chosen, *others] if c.fit.final.r2 is not None]
    if r2:
        parts.append("; R² " + ", ".join(f"{c.fit.final.r2:.4f} {c.kind}" for c in r2))
    if f.paper_rule is not None:
        agree = "agrees" if f.paper_rule == chosen.kind else "disagrees"
        parts.append(f". The paper's rule (allocation of variation by least squares): main "
                     f"effects {f.main_share:.1%}, interactions {f.interaction_share:.1%} → "
                     f"{f.paper_rule} ({agree})")
    return "".join(parts) + "."


def predictions_table(result: Result) -> Table:
    prog = result.program
    t = Table(title=f"Predicted from the models of {prog.name}: T_p = (T_o + T_c)/p",
              title_justify="left")
    for col in ("at", *PARTS, "T_o", "T_p", "T_p (model of tp)"):
        t.add_column(col, justify="right")
    for p in result.predictions:
        to = math.fsum(p.values[c] for c in PARTS[:-1])
        t.add_row(", ".join(f"{k}={v:g}" for k, v in p.point.items()),
                  *(seconds_text(p.values[c]) for c in PARTS), seconds_text(to),
                  Text(seconds_text(p.tp), style="bold"),
                  seconds_text(p.tp_direct) if p.tp_direct is not None else "—")
    t.caption = ("models: " + "; ".join(f"{c} = {prog.models[c].describe()}" for c in PARTS)
                 + (f"; p = {prog.fixed['p']:g}" if "p" in prog.fixed else ""))
    t.caption_justify = "left"
    return t


def crossover_parts(x: Crossover) -> list:
    a, b = x.programs
    t = Table(title=f"{NAMES.get(x.what, x.what)}: the models of {a.name} and {b.name}",
              title_justify="left")
    for col in ("category", a.name, b.name):
        t.add_column(col)
    for cat in a.models:
        t.add_row(cat, a.models[cat].describe(), b.models[cat].describe())
    var = x.variables[-1]
    text = Text()
    lo, hi = x.searched
    if len(x.variables) == 1:
        if x.roots:
            text.append(f"Crossover: {a.name} = {b.name} at {var} = "
                        + ", ".join(f"{r:.6g}" for r in x.roots), style="bold")
        else:
            text.append(f"No crossover for {var} in [{lo:g}, {hi:g}]", style="bold")
        text.append(f" (searched {lo:g} … {hi:g}; measured {x.measured[0]:g} … "
                    f"{x.measured[1]:g}).\n")
        for s in x.sides:
            text.append(f"  {var} in [{s.low:.6g}, {s.high:.6g}]: {s.winner} is faster"
                        f"{' (extrapolated)' if s.low >= x.measured[1] or s.high <= x.measured[0] else ''}\n")
        return [t, text]
    c = Table(title=f"Crossover curve: the {var} where {a.name} = {b.name}, for each "
                    f"{x.variables[0]} (searched {var} in [{lo:g}, {hi:g}])", title_justify="left")
    for col in (x.variables[0], f"{var} where equal", "faster below"):
        c.add_column(col, justify="right")
    for v, roots, winner in x.curve:
        c.add_row(f"{v:.6g}", ", ".join(f"{r:.6g}" for r in roots) or "none", winner)
    return [t, c]


def render_text(result: Result) -> Group:
    parts: list = [_head(result)]
    if result.crossing is not None:
        return Group(*parts, *crossover_parts(result.crossing))
    for s in result.series:
        parts += [series_table(s), Text("")]
    for f in result.factorials:
        parts += factorial_parts(f)
    if result.predictions:
        parts.append(predictions_table(result))
    return Group(*parts)


def print_text(result: Result) -> None:
    make_console(160).print(render_text(result))


# --- JSON ----------------------------------------------------------------------------------------


def _fit_json(fit: Fit | None) -> dict | None:
    if fit is None:
        return None
    return {"model": str(fit.model), "points": fit.points, "r2": fit.r2,
            "r2_adjusted": fit.r2_adj if math.isfinite(fit.r2_adj) else None,
            "ssr": fit.ssr,
            "coefficients": [{"term": str(c.term), "value": c.value, "low": c.low, "high": c.high,
                              "contains_zero": c.contains_zero} for c in fit.coefficients]}


def _model_json(mf: ModelFit, chosen: ModelFit | None) -> dict:
    return {"model": str(mf.candidate.model), "origin": mf.candidate.origin,
            "best": mf is chosen, "fitted": mf.full is not None, "needs_points": mf.needs,
            "reason": mf.reason or None, "fit": _fit_json(mf.full), "refit": _fit_json(mf.refit),
            "dropped": [str(t) for t in mf.dropped]}


def _series_json(s: Series) -> dict:
    chosen = s.best
    return {"category": s.category, "variable": s.var, "fixed": dict(s.fixed),
            "points": [{"x": float(x), "y": float(y), "file": r.file, "line": r.line}
                       for x, y, r in zip(s.x, s.y, s.runs)],
            "models": [_model_json(f, chosen) for f in s.fits]}


def _factorial_json(f: Factorial) -> dict:
    chosen = f.chosen
    return {"category": f.category, "variables": list(f.variables),
            "edges": [{"edge": e.label, "varying": e.varying, **_series_json(s)}
                      for e, s in f.edges],
            "one_variable_models": {v: str(m.candidate.model) for v, m in f.chosen_models.items()},
            "combinations": [{"kind": c.kind, "best": c is chosen, "fit": _fit_json(c.fit.full),
                              "refit": _fit_json(c.fit.refit), "heldout_mean_abs_rel_error":
                              c.heldout, "heldout_points": c.heldout_points}
                             for c in f.combinations],
            "heldout": f.heldout_what, "chosen": chosen.kind if chosen else None,
            "allocation_of_variation": {"main": f.main_share, "interaction": f.interaction_share,
                                        "paper_rule": f.paper_rule},
            "verdict": verdict(f)}


def _prediction_json(p: PointPrediction) -> dict:
    return {"at": p.point, "categories": p.values, "tp": p.tp, "tp_direct_model": p.tp_direct}


def _crossover_json(x: Crossover) -> dict:
    a, b = x.programs
    return {"what": x.what, "variables": list(x.variables), "programs": [a.name, b.name],
            "models": {p.name: {c: _fit_json(f) for c, f in p.models.items()} for p in (a, b)},
            "searched": list(x.searched), "measured": list(x.measured), "roots": x.roots,
            "sides": [{"low": s.low, "high": s.high, "faster": s.winner} for s in x.sides],
            "curve": [{x.variables[0]: v, "roots": r, "faster_below": w} for v, r, w in x.curve]}


def to_json(result: Result) -> dict:
    rows = result.rows
    out = {"files": sorted({r.file for r in rows}), "programs": sorted({r.program for r in rows}),
           "source": rows[0].source, "machine": rows[0].machine, "by": rows[0].by,
           "variables": list(result.request.variables), "confidence": CONFIDENCE,
           "series": [_series_json(s) for s in result.series],
           "factorials": [_factorial_json(f) for f in result.factorials],
           "predictions": [_prediction_json(p) for p in result.predictions]}
    if result.crossing is not None:
        out["crossover"] = _crossover_json(result.crossing)
    return out


def render_json(result: Result) -> str:
    return jsontext.dumps(to_json(result), indent=2)


# --- the plot ------------------------------------------------------------------------------------


def plot(result: Result) -> bytes:
    """Data points and fitted models: one panel per category (and slice or edge); for a
    crossover, both programs' models and the crossing points."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    panels = _panels(result)
    cols = min(3, len(panels))
    rows = math.ceil(len(panels) / cols)
    fig = Figure(figsize=(5.2 * cols, 3.8 * rows), layout="constrained")
    FigureCanvasAgg(fig)
    for i, draw in enumerate(panels):
        draw(fig.add_subplot(rows, cols, i + 1))
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=110)
    return buf.getvalue()


def _grid(xs: np.ndarray, lo: float | None = None, hi: float | None = None) -> np.ndarray:
    lo = float(np.min(xs)) if lo is None else lo
    hi = float(np.max(xs)) if hi is None else hi
    return np.geomspace(lo, hi, 200) if lo > 0 else np.linspace(lo, hi, 200)


def _log_x(ax, xs) -> None:
    if np.min(xs) > 0 and np.max(xs) / np.min(xs) >= 16:
        ax.set_xscale("log", base=2)


def _series_panel(s: Series, title: str):
    def draw(ax):
        ax.plot(s.x, s.y, "o", color="black", ms=4, label="data", zorder=3)
        xs = _grid(s.x)
        chosen = s.best
        for f in s.fits:
            if f.final is None:
                continue
            with np.errstate(all="ignore"):
                ys = f.final({s.var: xs})
            ax.plot(xs, ys, "-" if f is chosen else "--", lw=2 if f is chosen else 1,
                    label=f"{f.final.model}" + (" ★" if f is chosen else ""))
        _log_x(ax, s.x)
        _log_y(ax, ax.get_lines())
        ax.set_xlabel(s.var)
        ax.set_ylabel(f"{s.category} [s]")
        ax.set_title(title, fontsize=9)
        ax.grid(alpha=0.3)
        ax.legend(fontsize=7, frameon=False)
    return draw


def _factorial_panel(f: Factorial, var: str):
    """The points along ``var`` on its two edges, with the chosen combination's curves."""
    def draw(ax):
        chosen = f.chosen
        for edge, s in f.edges:
            if edge.varying != var:
                continue
            (line,) = ax.plot(s.x, s.y, "o", ms=4, label=f"data, {edge.label}")
            if chosen is not None and chosen.fit.final is not None:
                xs = _grid(s.x)
                env = {var: xs, edge.fixed: np.full(len(xs), edge.value)}
                with np.errstate(all="ignore"):
                    ax.plot(xs, chosen.fit.final(env), "-", color=line.get_color(), lw=1.5,
                            label=f"{chosen.kind}, {edge.label}")
            _log_x(ax, s.x)
        _log_y(ax, ax.get_lines())
        ax.set_xlabel(var)
        ax.set_ylabel(f"{f.category} [s]")
        ax.set_title(f"{NAMES.get(f.category, f.category)}: "
                     f"{chosen.fit.final.model if chosen else ''}", fontsize=9)
        ax.grid(alpha=0.3)
        ax.legend(fontsize=7, frameon=False)
    return draw


def _crossover_panel(x: Crossover):
    """Both programs' models against the (last) variable, the crossings marked; with two
    variables, at the largest measured value of the first."""
    def draw(ax):
        var = x.variables[-1]
        xs = _grid(np.array(x.searched))
        roots = x.roots if len(x.variables) == 1 else x.curve[-1][1]
        for prog in x.programs:
            env = {var: xs}
            if len(x.variables) == 2:
                env[x.variables[0]] = np.full(len(xs), x.curve[-1][0])
            with np.errstate(all="ignore"):
                ax.plot(xs, prog.value(x.what, env), "-", label=prog.name)
        _log_y(ax, ax.get_lines())
        for r in roots:
            ax.axvline(r, color="#c44e52", ls=":", lw=1)
        ax.axvspan(*x.measured, color="#eeeeee", zorder=0, label="measured range")
        _log_x(ax, xs)
        ax.set_xlabel(var)
        ax.set_ylabel(f"{x.what} [s]")
        fixed = f" at {x.variables[0]}={x.curve[-1][0]:g}" if len(x.variables) == 2 else ""
        ax.set_title(f"Crossover{fixed}: " + (", ".join(f"{var}={r:.4g}" for r in roots)
                                               or "none"), fontsize=9)
        ax.grid(alpha=0.3, which="both")
        ax.legend(fontsize=7, frameon=False)
    return draw


def _boundary_panel(x: Crossover):
    """The crossover curve in the plane of the two variables, each side named by its winner."""
    def draw(ax):
        first, var = x.variables
        pts = [(v, r) for v, roots, _w in x.curve for r in roots]
        if pts:
            ax.plot([p[0] for p in pts], [p[1] for p in pts], "o-", color="#c44e52",
                    label=f"{x.programs[0].name} = {x.programs[1].name}")
        for v, roots, winner in x.curve:
            if winner:
                ax.annotate(winner, (v, x.searched[0]), fontsize=7, ha="center", va="bottom")
        _log_x(ax, np.array([v for v, _r, _w in x.curve]))
        if x.searched[0] > 0:
            ax.set_yscale("log", base=2)
        ax.set_ylim(*x.searched)
        ax.set_xlabel(first)
        ax.set_ylabel(var)
        ax.set_title(f"Where {x.what} is equal (the faster program below it named)", fontsize=9)
        ax.grid(alpha=0.3, which="both")
        ax.legend(fontsize=7, frameon=False)
    return draw


def _log_y(ax, lines) -> None:
    ys = np.concatenate([np.asarray(line.get_ydata(), dtype=float) for line in lines]) \
        if lines else np.array([])
    ys = ys[np.isfinite(ys)]
    if ys.size and ys.min() > 0 and ys.max() / ys.min() >= 100:
        ax.set_yscale("log")


def _panels(result: Result) -> list:
    x = result.crossing
    if x is not None:
        return [_crossover_panel(x)] + ([_boundary_panel(x)] if len(x.variables) == 2 else [])
    out = [_series_panel(s, f"{NAMES.get(s.category, s.category)}"
                         + (f" ({_fixed_text(s.fixed)})" if s.fixed else ""))
           for s in result.series]
    for f in result.factorials:
        out += [_factorial_panel(f, v) for v in f.variables]
    return out
