"""The paper's 2-D FFT case study, redone (Crovella and LeBlanc 1994, Section 4; issue 13).

A benchmark to run and read, not a test. For each machine spec, the two MPI programs
``programs/fft2d_dp`` (data parallel: column FFTs, MPI_ALLTOALL transpose, row FFTs) and
``programs/fft2d_tp`` (task parallel: two groups of P/2 in a pipeline) are analysed with
``interp lost-cycles`` over the factorial design p × n (p and n powers of two):

* the *edges* of the design (p = p_min, p = p_max, n = n_min, n = n_max; ≥ 3 points each, as
  the paper asks) go to ``DIR/MACHINE_fit.csv``: the models are fitted to these only;
* the *interior* points are held back, in ``DIR/MACHINE_holdout.csv``.

Then, with the CLI commands printed as they run:

1. ``interp lca`` per category and program: two variables (p and n over the edges), and one
   (n at p = p_max, the paper's Table 2; p at n = n_max);
2. the crossover of the two programs, ``interp lca … --crossover fft2d_dp fft2d_tp``, in n at
   p = p_max and as a boundary curve in (p, n);
3. the check at the held-back points: T_p composed from lca's category models
   (``interp lca … --at``) against T_p interpreted by ``interp predict``, and lca's category
   models against the interpreted categories;
4. SMPI for communication at a few small points: ``interp lost-cycles --from smpi`` (SimGrid's
   trace of the real program, computation switched off) beside ``--communication-only``;
5. Extra-P beside lca on the same T_p rows (``benchmarks/extrap_compare.py``, run with the
   Python of ``--extrap-python``, an environment that has Extra-P; skipped without one);
6. ``interp formula`` of each program (a closed form in N, where interp can keep one);
7. plots with ``interp lca --plot`` into ``--img``.

Everything it finds is written to ``DIR/results.md`` (tables in markdown) and printed. Usage::

    PYTHONPATH=. python benchmarks/fft_lost_cycles.py --out /tmp/fft \\
        --extrap-python /tmp/lca-extrap-venv/bin/python --img docs/img

``--reuse`` keeps data files already there (only the missing runs are made).
"""

from __future__ import annotations

import argparse
import json
import math
import os
import shlex
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

from click.testing import CliRunner

ROOT = Path(__file__).resolve().parents[1]
PROGRAMS = {"fft2d_dp": "programs/fft2d_dp/fft2d_dp.f", "fft2d_tp": "programs/fft2d_tp/fft2d_tp.f"}
NS = (32, 64, 128, 256, 512, 1024)
DESIGNS = {"cluster": ((2, 4, 8, 16, 32, 64), NS), "ipsc860": ((2, 4, 8, 16), NS)}
SMPI_POINTS = ((4, 32), (4, 64), (8, 64), (8, 128))
PARTS = ("li", "ip", "sl", "cl", "rc", "remaining")


@dataclass
class Log:
    """The commands run, their wall times, and the markdown written."""

    lines: list[str] = field(default_factory=list)
    walls: dict[str, float] = field(default_factory=dict)

    def md(self, text: str = "") -> None:
        print(text)
        self.lines.append(text)


def shell(args: list[str]) -> str:
    return "interp " + " ".join(shlex.quote(a) for a in args)


def interp(args: list[str], quiet: bool = False) -> str:
    """Run one interp command in this process (the CLI, as typed) and return its output."""
    from interp.cli import main

    if not quiet:
        print("$ " + shell(args), flush=True)
    res = CliRunner().invoke(main, args, catch_exceptions=False)
    if res.exit_code != 0:
        raise SystemExit(f"{shell(args)} failed ({res.exit_code}):\n{res.output}")
    return res.output


def is_edge(p: int, n: int, ps, ns) -> bool:
    return p in (ps[0], ps[-1]) or n in (ns[0], ns[-1])


def done_points(path: Path) -> set[tuple[str, int, str]]:
    from interp.analysis.lca_data import read

    if not path.exists():
        return set()
    return {(r.program, r.p, f"{r.variable('n'):g}") for r in read([str(path)])
            if r.by == "program"}


def sweep(machine: str, niter: int, out: Path, reuse: bool, log: Log) -> tuple[Path, Path]:
    """``interp lost-cycles`` at every point of the design: edges to *_fit.csv, interior
    points to *_holdout.csv. Returns the two paths."""
    ps, ns = DESIGNS[machine]
    fit, hold = out / f"{machine}_fit.csv", out / f"{machine}_holdout.csv"
    if not reuse:
        for f in (fit, hold):
            f.unlink(missing_ok=True)
    have = done_points(fit) | done_points(hold)
    start = time.perf_counter()
    for name, src in PROGRAMS.items():
        for p in ps:
            for n in ns:
                if (name, p, f"{n:g}") in have:
                    continue
                target = fit if is_edge(p, n, ps, ns) else hold
                args = ["lost-cycles", src, "-P", str(p), "--machine", machine, "--set", f"N={n}",
                        "--set", f"NITER={niter}", "--format", "csv", "--output", str(target)]
                t = time.perf_counter()
                interp(args)
                log.walls[f"{machine} {name} p={p} n={n}"] = time.perf_counter() - t
    log.walls[f"{machine} sweep"] = time.perf_counter() - start
    return fit, hold


# ---- reading lca's JSON -------------------------------------------------------------------------


def lca_json(args: list[str]) -> dict:
    return json.loads(interp([*args, "--format", "json"]))


def model_text(fit: dict | None) -> str:
    """A fitted model as `c·term + …` (the refit when a term was dropped)."""
    if fit is None:
        return "—"
    terms = [f"{c['value']:.4g}" + ("" if c["term"] == "1" else f"·{c['term']}")
             for c in fit["coefficients"]]
    return " + ".join(terms).replace("+ -", "− ") or "0"


def final(entry: dict) -> dict | None:
    return entry.get("refit") or entry.get("fit")


def factorial_rows(data: dict) -> dict[str, dict]:
    """Per category: the chosen combination's final fit, its R², and the evidence."""
    out = {}
    for f in data["factorials"]:
        chosen = next(c for c in f["combinations"] if c["best"])
        fit = final(chosen)
        out[f["category"]] = {
            "models": f["one_variable_models"], "kind": chosen["kind"], "fit": fit,
            "r2": fit["r2"] if fit else None, "heldout": chosen.get("heldout_mean_abs_rel_error"),
            "rule": (f.get("allocation_of_variation") or {}).get("paper_rule"),
            "main": (f.get("allocation_of_variation") or {}).get("main"),
            "inter": (f.get("allocation_of_variation") or {}).get("interaction")}
    return out


def series_rows(data: dict) -> dict[str, dict]:
    out = {}
    for s in data["series"]:
        best = next((m for m in s["models"] if m["best"]), None)
        out[s["category"]] = {"model": best["model"] if best else "—",
                              "fit": final(best) if best else None}
    return out


def pct(x: float | None) -> str:
    return "—" if x is None or not math.isfinite(x) else f"{100 * x:.2f}%"


def r2(x) -> str:
    return "n/a" if x is None else f"{x:.4f}"


# ---- the study ----------------------------------------------------------------------------------


def fits(machine: str, fit: Path, log: Log) -> dict[str, dict]:
    ps, ns = DESIGNS[machine]
    out = {}
    for name in PROGRAMS:
        two = factorial_rows(lca_json(["lca", str(fit), "--var", "p", "--var", "n",
                                       "--program", name]))
        in_n = series_rows(lca_json(["lca", str(fit), "--var", "n", "--fix", f"p={ps[-1]}",
                                     "--program", name]))
        in_p = series_rows(lca_json(["lca", str(fit), "--var", "p", "--fix", f"n={ns[-1]}",
                                     "--program", name]))
        out[name] = {"two": two, "n": in_n, "p": in_p}
    log.md(f"#### Models per category, {machine} (fitted to the {len(edge_points(machine))} "
           "edge points of each program)\n")
    log.md(f"Against n at p = {ps[-1]} (the paper's Table 2 holds p at its maximum), and "
           f"against p at n = {ns[-1]}; best adjusted R² among lca's default models, terms "
           "whose 90% interval contains zero dropped:\n")
    log.md("| category | " + " | ".join(f"{n}, n (p={ps[-1]})" for n in PROGRAMS) + " | "
           + " | ".join(f"{n}, p (n={ns[-1]})" for n in PROGRAMS) + " |")
    log.md("|---|" + "---|" * (2 * len(PROGRAMS)))
    for c in PARTS:
        cells = [model_text(out[n]["n"][c]["fit"]) for n in PROGRAMS] + [
            model_text(out[n]["p"][c]["fit"]) for n in PROGRAMS]
        log.md(f"| {c} | " + " | ".join(cells) + " |")
    log.md("")
    log.md("In p and n together (the one-variable models chosen on the edges, combined; "
           "held-out error: each edge left out in turn):\n")
    log.md("| program | category | models (p; n) | combined | fit | R² | held-out error | "
           "allocation of variation: main / interaction → paper's rule |")
    log.md("|---|---|---|---|---|---|---|---|")
    for name in PROGRAMS:
        for c in PARTS:
            row = out[name]["two"].get(c)
            if row is None:
                continue
            models = f"{row['models'].get('p', '—')}; {row['models'].get('n', '—')}"
            alloc = "—" if row["main"] is None else (
                f"{pct(row['main'])} / {pct(row['inter'])} → {row['rule']}")
            log.md(f"| {name} | {c} | {models} | {row['kind']} | {model_text(row['fit'])} | "
                   f"{r2(row['r2'])} | {pct(row['heldout'])} | {alloc} |")
    log.md("")
    return out


def edge_points(machine: str) -> list[tuple[int, int]]:
    ps, ns = DESIGNS[machine]
    return [(p, n) for p in ps for n in ns if is_edge(p, n, ps, ns)]


def interior(machine: str) -> list[tuple[int, int]]:
    ps, ns = DESIGNS[machine]
    return [(p, n) for p in ps for n in ns if not is_edge(p, n, ps, ns)]


def crossovers(machine: str, fit: Path, img: Path | None, log: Log) -> None:
    ps, ns = DESIGNS[machine]
    names = list(PROGRAMS)
    log.md(f"#### Crossover, {machine}\n")
    for label, tag, args in ((f"in n at p = {ps[-1]}", "n", ["--var", "n", "--fix", f"p={ps[-1]}"]),
                             ("in (p, n)", "pn", ["--var", "p", "--var", "n"])):
        extra = ["--plot", str(img / f"fft_{machine}_crossover_{tag}.png")] if img else []
        text = interp(["lca", str(fit), *args, "--crossover", *names, *extra])
        log.md(f"`{shell(['lca', str(fit), *args, '--crossover', *names])}` ({label}):\n")
        lines = text.strip().splitlines()
        first = next(i for i, ln in enumerate(lines) if ln.startswith("Crossover"))
        log.md("```")
        log.md("\n".join(lines[first:]))
        log.md("```\n")


def ratios(machine: str, fit: Path, hold: Path, log: Log) -> None:
    """T_p of fft2d_tp over T_p of fft2d_dp at every point, as interpreted: where each wins."""
    from interp.analysis.lca_data import read

    ps, ns = DESIGNS[machine]
    tp = {(r.program, r.p, int(r.variable("n"))): r.category("tp")
          for r in read([str(fit), str(hold)]) if r.by == "program"}
    log.md(f"T_p of fft2d_tp / T_p of fft2d_dp at every point, interpreted ({machine}; below 1, "
           "in bold: the task-parallel program is faster):\n")
    log.md("| p \\ n | " + " | ".join(str(n) for n in ns) + " |")
    log.md("|---|" + "---|" * len(ns))
    for p in ps:
        cells = [tp[("fft2d_tp", p, n)] / tp[("fft2d_dp", p, n)] for n in ns]
        log.md(f"| {p} | " + " | ".join(f"**{c:.3f}**" if c < 1 else f"{c:.3f}" for c in cells)
               + " |")
    log.md("")


def heldout(machine: str, fit: Path, hold: Path, niter: int, log: Log) -> dict[str, list]:
    """lca's models at the interior points against the interpreted T_p and categories."""
    from interp.analysis.lca_data import read

    ps, ns = DESIGNS[machine]
    points = interior(machine)
    runs = {(r.program, r.p, int(r.variable("n"))): r for r in read([str(hold)])
            if r.by == "program"}
    log.md(f"#### Held-back points, {machine}: lca's models against interp\n")
    log.md(f"The {len(points)} interior points of the design (p in {ps[1:-1]}, n in "
           f"{ns[1:-1]}); T_p from lca = (Σ category models)/p, `interp lca {fit.name} "
           "--var p --var n --at p=…,n=…`; interpreted T_p from `interp predict` "
           f"(NITER = {niter}). Relative errors (lca − interp)/interp.\n")
    errors = {}
    for name, src in PROGRAMS.items():
        ats = [a for p, n in points for a in ("--at", f"p={p},n={n}")]
        pred = lca_json(["lca", str(fit), "--var", "p", "--var", "n", "--program", name, *ats])
        rows = []
        for point in pred["predictions"]:
            p, n = int(point["at"]["p"]), int(point["at"]["n"])
            t = time.perf_counter()
            out = json.loads(interp(["predict", src, "-P", str(p), "--machine", machine,
                                     "--set", f"N={n}", "--set", f"NITER={niter}",
                                     "--format", "json"]))
            log.walls[f"{machine} predict {name} p={p} n={n}"] = time.perf_counter() - t
            tp = float(out["total_seconds"])
            run = runs[(name, p, n)]
            cats = {c: point["categories"][c] - run.category(c) for c in PARTS}
            rows.append((p, n, point["tp"], point.get("tp_direct_model"), tp, run.category("tp"),
                         cats, run.category("total")))
        errors[name] = rows
        log.md(f"{name}:\n")
        log.md("| p | n | T_p lca (categories) | T_p lca (fit to T_p) | T_p interp | error "
               "(categories) | error (T_p fit) | worst category: (lca − interp)/(p·T_p) |")
        log.md("|---|---|---|---|---|---|---|---|")
        for p, n, lca_tp, direct, tp, lc_tp, cats, total in rows:
            worst = max(cats, key=lambda c: abs(cats[c]))
            log.md(f"| {p} | {n} | {lca_tp:.6g} | {direct:.6g} | {tp:.6g} | "
                   f"{pct((lca_tp - tp) / tp)} | {pct((direct - tp) / tp)} | "
                   f"{worst} {pct(cats[worst] / total)} |")
        mean = sum(abs(r[2] - r[4]) / r[4] for r in rows) / len(rows)
        mean_direct = sum(abs(r[3] - r[4]) / r[4] for r in rows) / len(rows)
        # predict extends steady states in closed form, lost-cycles interprets every iteration
        apart = max(abs(r[5] - r[4]) / r[4] for r in rows)
        log.md(f"\nMean |error| over the {len(rows)} points: {pct(mean)} (categories), "
               f"{pct(mean_direct)} (one model fitted to T_p). `interp predict`'s T_p and the "
               f"held-back rows' T_p (every iteration interpreted) differ by at most "
               f"{apart:.1e} (relative).\n")
    return errors


def smpi(machine: str, niter: int, log: Log) -> None:
    """SMPI (communication only) beside interp's communication-only prediction."""
    log.md(f"#### SMPI for communication, {machine}\n")
    log.md("`interp lost-cycles --from smpi` (SimGrid's Paje trace of the program compiled with "
           "smpiff and run by smpirun, computation switched off) beside `interp lost-cycles "
           "--communication-only` (interp's prediction, computation switched off, SMPI's "
           "semantics). SMPI results, not measurements. Categories in % of p·T_p, "
           "SMPI / interp; LI and Remaining are 0 on both sides.\n")
    log.md("| program | p | n | T_p SMPI [us] | T_p interp [us] | error | IP | SL | CL | RC |")
    log.md("|---|---|---|---|---|---|---|---|---|---|")
    for name, src in PROGRAMS.items():
        for p, n in SMPI_POINTS:
            rows = {}
            for how in (["--from", "smpi"], ["--communication-only"]):
                args = ["lost-cycles", src, "-P", str(p), "--machine", machine, "--set", f"N={n}",
                        "--set", f"NITER={niter}", "--format", "json", *how]
                t = time.perf_counter()
                line = interp(args).splitlines()[0]
                log.walls[f"{machine} {how[-1]} {name} p={p} n={n}"] = time.perf_counter() - t
                rows[how[-1]] = json.loads(line)
            s, i = rows["smpi"], rows["--communication-only"]

            def share(r, c):
                return 100 * r[c] / r["total"]

            cells = " | ".join(f"{share(s, c):.1f} / {share(i, c):.1f}"
                               for c in ("ip", "sl", "cl", "rc"))
            log.md(f"| {name} | {p} | {n} | {1e6 * s['tp']:,.2f} | {1e6 * i['tp']:,.2f} | "
                   f"{pct((i['tp'] - s['tp']) / s['tp'])} | {cells} |")
    log.md("")


def extrap(machine: str, fit: Path, hold: Path, python: str | None, out: Path, log: Log) -> None:
    """benchmarks/extrap_compare.py on the same T_p rows, in the separate environment."""
    log.md(f"#### Extra-P beside lca, {machine}\n")
    if not python or not Path(python).exists():
        log.md("(skipped: no Python with Extra-P given, --extrap-python)\n")
        return
    ps, ns = DESIGNS[machine]
    script = str(ROOT / "benchmarks" / "extrap_compare.py")
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    # two variables: the edges fitted, every interior point held back
    slice_p = out / f"{machine}_n{ns[-1]}.csv"
    from interp.analysis.lca_data import read

    header = (fit.read_text().splitlines()[0] + "\n")
    body = [ln for f in (fit, hold) for ln in f.read_text().splitlines()[1:]]
    keep = [ln for ln, r in zip(body, read([str(fit), str(hold)])) if r.variable("n") == ns[-1]]
    slice_p.write_text(header + "".join(ln + "\n" for ln in keep))
    for name in PROGRAMS:
        jobs = [
            ([str(fit), str(hold), "--var", "p", "--var", "n", "--program", name,
              *[a for p, n in interior(machine) for a in ("--holdout", f"p={p},n={n}")]],
             "p and n: the edges fitted, the interior held back"),
            ([str(slice_p), "--var", "p", "--program", name, "--holdout", f"p={ps[-1]}"],
             f"p at n = {ns[-1]}: p < {ps[-1]} fitted, p = {ps[-1]} held back (extrapolation)"),
        ]
        for args, what in jobs:
            cmd = [python, script, *args]
            print("$ " + " ".join(shlex.quote(c) for c in cmd), flush=True)
            t = time.perf_counter()
            res = subprocess.run(cmd, cwd=ROOT, env=env, capture_output=True, text=True)
            log.walls[f"{machine} extrap {name} {what[:10]}"] = time.perf_counter() - t
            log.md(f"{name}, {what}: `python benchmarks/extrap_compare.py "
                   + " ".join(shlex.quote(a) for a in args) + "`\n")
            log.md(res.stdout.strip() if res.returncode == 0 else
                   f"(failed: {res.stderr.strip()[-500:]})")
            log.md("")


def formulas(machine: str, niter: int, out: Path, log: Log) -> None:
    ps, _ = DESIGNS[machine]
    log.md(f"#### interp formula, {machine}\n")
    for name, src in PROGRAMS.items():
        for p in (1, 2, ps[-1]):
            if name == "fft2d_tp" and p % 2:
                continue
            args = ["formula", src, "-P", str(p), "--machine", machine, "--set", f"NITER={niter}"]
            from interp.cli import main

            print("$ " + shell(args), flush=True)
            t = time.perf_counter()
            res = CliRunner().invoke(main, args)
            log.walls[f"{machine} formula {name} P={p}"] = time.perf_counter() - t
            text = res.output.strip()
            log.md(f"`{shell(args)}` ({time.perf_counter() - t:.1f} s):\n")
            if res.exit_code == 0 and len(text) > 600:  # a long closed form: to a file
                path = out / f"formula_{machine}_{name}_P{p}.txt"
                path.write_text(text + "\n")
                text = (f"(a closed form of {len(text)} characters, {text.count('Max(')} "
                        f"Max(...) and {text.count('Piecewise(')} Piecewise(...); in {path})")
            log.md("```\n" + text + "\n```\n")


def plots(machine: str, fit: Path, img: Path, out: Path, log: Log) -> None:
    ps, ns = DESIGNS[machine]
    for name in PROGRAMS:
        short = name.split("_")[1]
        for args, tag in ((["--var", "n", "--fix", f"p={ps[-1]}"], f"n_p{ps[-1]}"),
                          (["--var", "p", "--fix", f"n={ns[-1]}"], f"p_n{ns[-1]}")):
            path = img / f"fft_{machine}_{short}_{tag}.png"
            interp(["lca", str(fit), *args, "--program", name, "--plot", str(path)])
            log.md(f"![{name} against {tag}]({os.path.relpath(path, out)})")
    log.md("")


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--out", default="/tmp/fft_lost_cycles", help="folder for the data files")
    ap.add_argument("--machine", action="append", choices=sorted(DESIGNS),
                    help="machine spec(s) (default: both)")
    ap.add_argument("--niter", type=int, default=4, help="NITER, the number of transforms")
    ap.add_argument("--reuse", action="store_true", help="keep data files already there")
    ap.add_argument("--img", help="folder for the plots (e.g. docs/img)")
    ap.add_argument("--extrap-python", help="a Python with Extra-P (and interp's dependencies)")
    ap.add_argument("--no-smpi", action="store_true", help="skip the SMPI runs")
    args = ap.parse_args(argv)
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    img = Path(args.img) if args.img else None
    if img:
        img.mkdir(parents=True, exist_ok=True)
    log = Log()
    start = time.perf_counter()
    for machine in args.machine or ("cluster", "ipsc860"):
        fit, hold = sweep(machine, args.niter, out, args.reuse, log)
        log.md(f"### {machine}: {len(edge_points(machine))} edge points fitted, "
               f"{len(interior(machine))} interior points held back, per program "
               f"(sweep {log.walls[f'{machine} sweep']:.0f} s)\n")
        fits(machine, fit, log)
        crossovers(machine, fit, img, log)
        ratios(machine, fit, hold, log)
        heldout(machine, fit, hold, args.niter, log)
        if not args.no_smpi:
            smpi(machine, args.niter, log)
        extrap(machine, fit, hold, args.extrap_python, out, log)
        formulas(machine, args.niter, out, log)
        if img:
            plots(machine, fit, img, out, log)
    log.md("#### Wall times [s]\n")
    slow = sorted(log.walls.items(), key=lambda kv: -kv[1])[:12]
    log.md("| what | s |\n|---|---|")
    for k, v in slow:
        log.md(f"| {k} | {v:.1f} |")
    log.md(f"| total | {time.perf_counter() - start:.1f} |")
    (out / "results.md").write_text("\n".join(log.lines) + "\n")
    print(f"\nwrote {out / 'results.md'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
