"""``interp report``: one document with everything a prediction says.

The HTML report is a single self-contained file (inline CSS, images embedded as base64 PNG,
the formula as MathML; nothing is fetched over a network); ``.md`` gives Markdown with its
images saved beside it. Contents: inputs and machine, the formula, the per-process breakdown
(table and stacked bars), time against each input that stays symbolic and against P, the
SAAG (chains and edges) and the SAAG in time, the annotated source, the notes and
assumptions, and optionally ``--at`` sections and a what-if comparison.

Everything is computed before anything is written, and files are written all-or-nothing.
"""

from __future__ import annotations

import base64
from pathlib import Path

import sympy as sp
from jinja2 import Environment, FileSystemLoader, select_autoescape
from sympy.printing.mathml import mathml

from interp.analysis.scaling import InputCurve, NprocsCurve, Studies, WhatIf
from interp.application.expr import as_sympy
from interp.engine.predict import Prediction
from interp.errors import InterpError
from interp.output import annotate as annotate_mod
from interp.output import levels, plots
from interp.output.files import check_writable, write_files
from interp.output.numbers import count_text, require_numbers, seconds_text
from interp.output.prediction_view import formula_python, formula_text, own_rows

TEMPLATES = Path(__file__).parent / "templates"
FORMATS = {".html": "html", ".htm": "html", ".md": "md", ".markdown": "md"}


def report_format(path: str | Path) -> str:
    fmt = FORMATS.get(Path(path).suffix.lower())
    if fmt is None:
        raise InterpError(f"-o {path}: a report is written as .html or .md",
                          hint="name the output report.html (one self-contained file) or "
                               "report.md (Markdown, images beside it)")
    return fmt


def check_output(path: str | Path) -> str:
    """The report format for ``path``, after checking it can be written (before any work)."""
    fmt = report_format(path)
    check_writable(path, "report")
    return fmt


# ---- formula ----------------------------------------------------------------------------------


def rounded(expr: sp.Expr, digits: int = 5) -> sp.Expr:
    """Floats rounded for reading; whole-number floats (``4.0``) become integers."""
    expr = as_sympy(expr)
    reps = {}
    for f in expr.atoms(sp.Float):
        reps[f] = sp.Integer(int(f)) if float(f).is_integer() else sp.Float(f, digits)
    return expr.xreplace(reps)


def formula_mathml(expr: sp.Expr) -> str:
    body = mathml(rounded(expr), printer="presentation")
    return ('<math xmlns="http://www.w3.org/1998/Math/MathML" display="block">'
            f"<mrow><mi>T</mi><mo>=</mo>{body}</mrow></math>")


# ---- the studies (computed by interp.analysis.scaling) ------------------------------------------


def _input_sweep(pred: Prediction, c: InputCurve) -> dict:
    note = None
    if c.assumes:
        note = (f"The formula assumes {c.assumes}; " + (
            "points outside it were interpreted exactly (squares)" if c.exact else
            "points outside it are not shown"))
    fixed = ", ".join(f"{name} = {val}" for name, val in c.fixed)
    title = f"Predicted time against {c.name}" + (f" ({fixed})" if fixed else "")
    xs, ys = [x for x, _ in c.points], [y for _, y in c.points]
    png = plots.sweep_chart(xs, ys, c.name, title,
                            (c.value, pred.seconds) if pred.seconds else None, c.exact)
    return {"name": c.name, "title": title, "png": png, "note": note, "points": c.points,
            "exact": c.exact}


def _nprocs_sweep(pred: Prediction, c: NprocsCurve | None) -> dict | None:
    if c is None:
        return None
    xs, ys = [x for x, _ in c.points], [y for _, y in c.points]
    ideal = [ys[0] / x for x in xs] if xs[0] == 1 else None
    png = plots.sweep_chart(xs, ys, "P (nodes)", f"Predicted time against P (up to {c.limit}, "
                            f"the machine's maximum)", (pred.nprocs, pred.seconds) if pred.seconds
                            else None, line_label="re-predicted", ideal=ideal, base2=True)
    rows = [{"p": x, "seconds": y, "text": seconds_text(y),
             "speedup": ys[0] / y if xs[0] == 1 and y else None} for x, y in zip(xs, ys)]
    return {"png": png, "rows": rows, "notes": c.notes}


# ---- the document -----------------------------------------------------------------------------


def _aau_table(pred: Prediction, num, top: int = 12) -> list[dict]:
    vals = own_rows(pred, num.get)
    total = sum(v for _, v in vals) or 1.0
    out = []
    for r, v in vals[:top]:
        lines = f"{r['line']}" if r["end_line"] == r["line"] else f"{r['line']}-{r['end_line']}"
        count = num.get(r["count"])
        out.append({"id": r["id"], "type": r["type"], "where": f"{Path(r['file']).name}:{lines}",
                    "count": count_text(count) if count is not None else str(r["count"]),
                    "delta": seconds_text(v), "share": f"{100 * v / total:.1f}%"})
    return out


def _heat(share: float) -> str:
    a = min(1.0, share * 4) if share > 0 else 0.0
    return f"rgba(220, 60, 40, {0.08 + 0.6 * a:.2f})" if share > 0 else "transparent"


def _annotated(ann: annotate_mod.Annotation) -> list[dict]:
    files = []
    for f in ann.files:
        lines = []
        for ln in f.lines:
            timed = ln.seconds > 0 or bool(ln.aaus)
            lines.append({"number": ln.number, "text": ln.text,
                          "time": seconds_text(ln.seconds) if timed else "",
                          "share": f"{100 * ln.share:.1f}%" if timed else "",
                          "execs": count_text(ln.executions), "heat": _heat(ln.share),
                          "hot": ln.share >= 0.05})
        files.append({"path": f.path, "name": Path(f.path).name, "time": seconds_text(f.seconds),
                      "share": f"{100 * f.seconds / ann.total:.1f}%" if ann.total else "",
                      "lines": lines, "listing": _listing(f, ann)})
    return files


def _listing(f, ann) -> str:
    """A plain-text listing of one file (for Markdown)."""
    out = [f"{'line':>5} {'time':>12} {'share':>6} {'execs':>9}  source"]
    for ln in f.lines:
        timed = ln.seconds > 0 or bool(ln.aaus)
        out.append(f"{ln.number:>5} {seconds_text(ln.seconds) if timed else '':>12} "
                   f"{(f'{100 * ln.share:.1f}%' if timed else ''):>6} "
                   f"{count_text(ln.executions):>9}  {ln.text}")
    return "\n".join(out)


def _level_section(pred: Prediction, where: str) -> dict:
    lv = levels.level(pred, where)
    data = levels.to_json(lv)
    data["rows_text"] = [
        {"process": r["process"],
         "tau": seconds_text(r.get("tau")) if r.get("tau") is not None else "—",
         "executions": count_text(r["executions"]) if r.get("executions") is not None else "—",
         "delta": seconds_text(r.get("delta")) if "delta" in r else seconds_text(r.get("busy")),
         "computation": seconds_text(r.get("computation")) if r.get("computation") is not None else "—",
         "communication": seconds_text(r.get("communication")) if r.get("communication") is not None else "—",
         "share": f"{100 * r['share']:.1f}%" if r.get("share") is not None else "—"}
        for r in lv.rows + [{"process": "total", **lv.total}]]
    data["counted"] = [levels.describe_brief(b) for b in lv.details.get("aaus", [])]
    return data


def _what_if(pred: Prediction, w: WhatIf) -> dict:
    other = w.prediction
    num_o = require_numbers(other, "the what-if comparison")
    base = levels.aag_level(pred)["total"]
    new = levels.aag_level(other)["total"]
    rows = []
    for c in ("computation", "call", "transmission", "waiting", "idle"):
        rows.append({"what": {"call": "call overhead"}.get(c, c), "base": seconds_text(base[c]),
                     "new": seconds_text(new[c]),
                     "change": f"{100 * (new[c] - base[c]) / base[c]:+.1f}%"
                     if base[c] and new[c] is not None else ""})
    b, n = pred.seconds, num_o(other.total)
    return {"statements": w.statements, "nprocs": other.nprocs, "machine": other.machine.name,
            "base": seconds_text(b), "new": seconds_text(n),
            "speedup": f"{b / n:.3g}" if b and n else "", "rows": rows,
            "formula": formula_text(other.total)}


def build(pred: Prediction, studies: Studies, *, at: tuple[str, ...] = ()) -> dict:
    """Everything the templates show (images as PNG bytes under ``images``), from the
    prediction and the ``studies`` made of it (:func:`interp.analysis.scaling.studies`)."""
    num = require_numbers(pred, "the report")
    lv = levels.aag_level(pred)
    images: dict[str, bytes] = {"breakdown": plots.breakdown_chart(lv["processes"])}
    sweeps, sweep_notes = [_input_sweep(pred, c) for c in studies.inputs], studies.notes
    for s in sweeps:
        images[f"time-vs-{s['name'].lower().replace('.', '-')}"] = s["png"]
        s["image"] = f"time-vs-{s['name'].lower().replace('.', '-')}"
    psweep = _nprocs_sweep(pred, studies.nprocs)
    if psweep:
        images["time-vs-p"] = psweep["png"]
    saag_png, saag_note = plots.saag_chart(pred)
    images["saag"] = saag_png
    timeline_note = None
    if pred.scheduler.trace is not None:
        images["timeline"], timeline_note = plots.timeline_chart(pred, num)
    ann = annotate_mod.annotate(pred)
    m = pred.machine
    symbols = sorted(s.name for s in pred.total.free_symbols)
    ctx = {
        "title": "interp report: " + ", ".join(Path(f).name for f in pred.aag.files),
        "files": [{"path": f, "lines": _line_count(f)} for f in pred.aag.files],
        "machine": {"name": m.name, "title": m.title, "file": m.file, "source": m.source,
                    "assumptions": len(m.assumptions()), "parameters": len(m.parameters())},
        "nprocs": pred.nprocs, "bound": pred.bound,
        "inputs": [{"name": k, "value": str(v)} for k, v in pred.given.items()],
        "fixed": sorted(pred.fixed),
        "seconds": seconds_text(pred.seconds), "headline": pred.headline,
        "formula": {"mathml": formula_mathml(pred.total), "text": str(rounded(pred.total, 6)),
                    "python": formula_python(pred.total), "latex": sp.latex(rounded(pred.total)),
                    "symbols": symbols},
        "summary": levels.summary_line(pred),
        "processes": [{"process": r["process"], **{c: seconds_text(r[c]) for c in
                       ("computation", "call", "transmission", "waiting", "idle", "busy")}}
                      for r in lv["processes"]],
        "total": {c: seconds_text(lv["total"][c]) for c in
                  ("computation", "call", "transmission", "waiting", "idle", "busy")},
        "top_aaus": _aau_table(pred, num),
        "sweeps": sweeps, "sweep_notes": sweep_notes, "psweep": psweep,
        "saag_note": saag_note, "timeline_note": timeline_note,
        "has_timeline": "timeline" in images,
        "edges": [{"relation": levels.KIND_SYMBOL.get(e.kind, "?"), "src": e.src,
                   "src_aau": e.src_aau, "dst": e.dst, "dst_aau": e.dst_aau, "size": e.size,
                   "tag": "" if e.tag is None else e.tag,
                   "count": (lambda c: count_text(c) if c is not None else str(e.count))(num.get(e.count))}
                  for e in list(pred.scheduler.edges.values())[:200]],
        "edges_more": max(0, len(pred.scheduler.edges) - 200),
        "annotated": _annotated(ann), "annotated_total": seconds_text(ann.total),
        "hottest": [{"where": f"{Path(p).name}:{ln.number}", "time": seconds_text(ln.seconds),
                     "share": f"{100 * ln.share:.1f}%", "text": ln.text.strip()}
                    for p, ln in ann.hottest()],
        "levels": [_level_section(pred, w) for w in at],
        "what_if": _what_if(pred, studies.what_if) if studies.what_if else None,
        "notes": list(pred.notes) + ann.notes,
        "problems": [p.message for p in pred.scheduler.problems],
        "images": images,
    }
    return ctx


def _line_count(path: str) -> int | None:
    try:
        return len(Path(path).read_text(errors="replace").splitlines())
    except OSError:
        return None


def _env() -> Environment:
    env = Environment(loader=FileSystemLoader(str(TEMPLATES)),
                      autoescape=select_autoescape(["html", "j2"]), trim_blocks=True,
                      lstrip_blocks=True)
    env.filters["md"] = lambda s: str(s).replace("|", "\\|")
    return env


def render_html(ctx: dict) -> str:
    imgs = {k: "data:image/png;base64," + base64.b64encode(v).decode("ascii")
            for k, v in ctx["images"].items()}
    return _env().get_template("report.html.j2").render(**ctx, img=imgs)


def render_markdown(ctx: dict, stem: str) -> tuple[str, dict[str, bytes]]:
    """The Markdown text and the images to save beside it (``STEM-NAME.png``)."""
    files = {f"{stem}-{k}.png": v for k, v in ctx["images"].items()}
    imgs = {k: f"{stem}-{k}.png" for k in ctx["images"]}
    env = _env()
    env.autoescape = False
    return env.get_template("report.md.j2").render(**ctx, img=imgs), files


def write_report(pred: Prediction, path: str | Path, studies: Studies, *,
                 at: tuple[str, ...] = ()) -> list[str]:
    """Build and write the report; returns the paths written."""
    fmt = check_output(path)
    ctx = build(pred, studies, at=at)
    p = Path(path)
    if fmt == "html":
        write_files({p: render_html(ctx)}, "report")
        return [str(p)]
    text, images = render_markdown(ctx, p.stem)
    out = {p.parent / name: data for name, data in images.items()}
    out[p] = text
    write_files(out, "report")
    return [str(x) for x in out]


__all__ = ["build", "check_output", "formula_mathml", "render_html",
           "render_markdown", "write_report"]
