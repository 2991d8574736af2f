"""Extra-P beside lca on the same run times (issue 13). A comparison to print, not a test.

Extra-P (https://github.com/extra-p/extrap, PyPI ``extrap``) fits one Performance Model
Normal Form to the measured run time; lca (Crovella and LeBlanc) fits each category of lost
cycles with its own model and adds them: T_p = (T_o + T_c)/p. Both are fed the same rows of a
lost-cycles data file (written by ``interp lost-cycles``) minus the points named by
``--holdout``; the table gives the models found, the relative error at the held-back points and
what each needs. interp needs no run at all: its prediction comes from the source.

Extra-P is not a dependency of interp (it pins numpy < 2); install it beside interp, e.g. in
its own environment::

    python -m venv .venv-extrap
    .venv-extrap/bin/pip install extrap statsmodels lark networkx sympy jinja2 click rich \
        pyyaml jsonschema
    PYTHONPATH=. .venv-extrap/bin/python benchmarks/extrap_compare.py DATA.csv --var p \
        --program fft2d_dp --holdout p=64

Extra-P is driven through its JSON Lines input (``extrap.fileio``) and its ``ModelGenerator``
with the default modelers; negative exponents are allowed (``allow_negative_exponents``,
Extra-P's option for strong scaling), since T_p falls with p.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import math
import sys
import tempfile
from pathlib import Path

INSTALL = ("Extra-P is not installed. Install it beside interp (it pins numpy < 2, so a separate "
           "virtual environment is best):\n"
           "    python -m venv .venv-extrap\n"
           "    .venv-extrap/bin/pip install extrap statsmodels lark networkx sympy jinja2 click "
           "rich pyyaml jsonschema\n"
           "    PYTHONPATH=. .venv-extrap/bin/python benchmarks/extrap_compare.py ...")


def _point(text: str) -> dict[str, float]:
    out = {}
    for item in filter(None, (s.strip() for s in text.split(","))):
        name, _, value = item.partition("=")
        out[name.strip().lower()] = float(value)
    return out


def _matches(run, point: dict[str, float]) -> bool:
    return all(name in run.variables() and run.variable(name) == v for name, v in point.items())


def _where(run, variables) -> str:
    return ", ".join(f"{v}={run.variable(v):g}" for v in variables)


def extrap_model(train, variables) -> tuple[object, object, int]:
    """Extra-P's model of T_p from the training rows: (model, experiment, points)."""
    from extrap.fileio.file_reader.jsonlines_file_reader import read_jsonlines_file
    from extrap.modelers.abstract_modeler import MultiParameterModeler
    from extrap.modelers.model_generator import ModelGenerator

    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "tp.jsonl"
        path.write_text("".join(json.dumps({"params": {v: r.variable(v) for v in variables},
                                            "metric": "tp", "value": r.category("tp")}) + "\n"
                                for r in train))
        experiment = read_jsonlines_file(str(path))
    generator = ModelGenerator(experiment)
    modeler = generator.modeler
    single = modeler.single_parameter_modeler if isinstance(modeler, MultiParameterModeler) \
        else modeler
    single.allow_negative_exponents = True  # strong scaling: T_p falls with p
    generator.model_all()
    (model,) = generator.models.values()
    return model, experiment, len({tuple(r.variable(v) for v in variables) for r in train})


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("data", nargs="+", help="lost-cycles data files (CSV or JSON Lines)")
    ap.add_argument("--var", action="append", required=True, help="p, or an input (lower-case)")
    ap.add_argument("--program")
    ap.add_argument("--source")
    ap.add_argument("--machine")
    ap.add_argument("--holdout", action="append", required=True, metavar="NAME=VALUE[,…]",
                    help="a point held back from both fits and predicted (repeatable)")
    args = ap.parse_args(argv)
    if importlib.util.find_spec("extrap") is None:
        print(INSTALL, file=sys.stderr)
        return 2

    from interp.analysis import lca as L
    from interp.analysis.lca_data import read
    from interp.errors import InterpError

    variables = tuple(v.lower() for v in args.var)
    try:
        rows = L.select(read(args.data), L.Selection(args.source, args.program, args.machine))
        points = [_point(h) for h in args.holdout]
        held = [r for r in rows if any(_matches(r, p) for p in points)]
        train = [r for r in rows if r not in held]
        if not held:
            raise InterpError("no rows at the --holdout points")
        name = rows[0].program
        prog = L.program_models(name, train, variables, (*L.PARTS, "tp"), {})
    except InterpError as err:
        print(err.render(), file=sys.stderr)
        return 2
    model, experiment, xp_points = extrap_model(train, variables)
    xp_text = model.hypothesis.function.to_string(*experiment.parameters)
    ordered = sorted(held, key=lambda r: tuple(r.variable(v) for v in variables))
    columns = [_where(r, variables) for r in ordered]

    def errors(predict) -> list[float]:
        return [abs(predict(r) - r.category("tp")) / r.category("tp") for r in ordered]

    def env(r):
        return {v: [r.variable(v)] for v in variables}

    import numpy as np

    def at(r):
        return {v: np.array(x, dtype=float) for v, x in env(r).items()}

    lca_err = errors(lambda r: float(prog.composed(at(r))[0]))
    direct_err = errors(lambda r: float(prog.models["tp"](at(r))[0]))
    def xp_at(r) -> float:
        # Extra-P evaluates one parameter's values, or an array of one row per parameter
        coords = [[r.variable(v)] for v in variables] if len(variables) > 1 \
            else [r.variable(variables[0])]
        return float(np.ravel(model.hypothesis.function.evaluate(np.array(coords, dtype=float)))[0])

    xp_err = errors(xp_at)
    k = sum(len(f.coefficients) for c, f in prog.models.items() if c != "tp")
    src = rows[0].source
    print(f"### {name} ({src}, {rows[0].machine}): T_p against {', '.join(variables)}; "
          f"{len({_where(r, variables) for r in train})} points fitted, held back: "
          f"{'; '.join(columns)}\n")
    head = "| method | model of T_p | needs | " + " | ".join(f"error at {c}" for c in columns) \
        + " | mean |"
    print(head)
    print("|" + "---|" * (4 + len(columns)))

    def line(method, text, needs, errs):
        print(f"| {method} | {text} | {needs} | " + " | ".join(f"{e:.2%}" for e in errs)
              + f" | {sum(errs) / len(errs):.2%} |")

    line("lca, per category: T_p = (T_o + T_c)/p", "sum of the six models below, over p",
         f"the five lost-cycle categories and T_c measured at {len(train)} runs; {k} coefficients",
         lca_err)
    line("lca, T_p itself", prog.models["tp"].describe(),
         f"T_p measured at {len(train)} runs", direct_err)
    line("Extra-P (default modeler, negative exponents)", xp_text.replace("|", "\\|"),
         f"T_p measured at {xp_points} points (≥ 5 per parameter)", xp_err)
    interp_note = ("the source and the machine spec; no run (these rows are its predictions)"
                   if src == "predicted" else "the source and the machine spec; no run")
    interp_err = None
    if src != "predicted":
        predicted = [r for r in read(args.data) if r.source == "predicted" and r.program == name
                     and r.by == "program"]
        found = [next((q for q in predicted if all(q.variable(v) == r.variable(v)
                                                   for v in r.variables())), None)
                 for r in ordered]
        if all(found):
            interp_err = [abs(q.category("tp") - r.category("tp")) / r.category("tp")
                          for q, r in zip(found, ordered)]
    if interp_err is not None:
        line("interp (interpreted from the source)", "exact: the program interpreted at each point",
             interp_note, interp_err)
    else:
        print(f"| interp (interpreted from the source) | exact: the program interpreted at each "
              f"point | {interp_note} | " + " | ".join("—" for _ in columns) + " | — |")
    print("\nlca's models per category (the paper's defaults, best adjusted R², terms whose 90% "
          "interval contained zero dropped):\n")
    print("| category | model |\n|---|---|")
    for c in (*L.PARTS, "tp"):
        print(f"| {c} | {prog.models[c].describe()} |")
    if math.isfinite(model.hypothesis.SMAPE):
        print(f"\nExtra-P on its training points: SMAPE {model.hypothesis.SMAPE:.2f}%, "
              f"adjusted R² {model.hypothesis.AR2:.4f}.")
    return 0


if __name__ == "__main__":
    sys.exit(main())
