"""Lost cycles analysis, the fitting tool (Crovella and LeBlanc, Section 3.2: ``lca``).

Each category of lost cycles (LI, IP, SL, CL, RC), pure computation and the run time is fitted
as a function of one environment variable with the paper's default models (and any the user
names), by least squares (statsmodels OLS): R², and a 90% confidence interval for every
coefficient. A term whose interval contains zero "cannot be statistically differentiated from
zero, and the associated term should be eliminated": the model is refitted without it, the
weakest first, until every interval excludes zero; both fits are reported.

Two variables are modelled from a factorial design over the edges of their space (at least 3
points per edge): each edge's one-variable models are combined additively and
multiplicatively, and the combination that predicts the points it was not fitted to better is
chosen. The run time anywhere is ``T_p = (T_o + T_c) / p`` (the sum of the category models
over p), and two implementations' crossover is where their models are equal (``brentq``).
"""

from __future__ import annotations

import math
import warnings
from dataclasses import dataclass, field

import numpy as np

from interp.analysis.lca_data import OVERHEADS, Run
from interp.analysis.lca_model import Model, Term, parse_model
from interp.errors import InterpError

CONFIDENCE = 0.90  # the paper's 90% intervals
MIN_EDGE_POINTS = 3  # "3 or more points on each edge" (Section 3.2)
PARTS = (*OVERHEADS, "remaining")  # T_o's categories and T_c: T_p = (T_o + T_c)/p
EXTEND = 4.0  # crossovers are searched over the data range widened by this factor each way
PAPER, ADDED, USER = "paper", "added", "user"

# The paper's default models (Section 3.2, Figure 2 and Table 1), then the ones added here.
# Against p: LI p√p, p and null (Figure 2); IP linear in p (Section 3.2; Amdahl's law); SL 0;
# CL p; RC "p, p > θ" (linear past a threshold: a·p + b, θ = -b/a); PC (remaining) 1.
P_DEFAULTS = {
    "li": [("p*sqrt(p)", PAPER), ("p", PAPER), ("1", PAPER), ("p + 1", ADDED)],
    "ip": [("p", PAPER), ("p + 1", ADDED), ("1", ADDED)],
    "sl": [("0", PAPER), ("1", ADDED), ("p", ADDED)],
    "cl": [("p", PAPER), ("p + 1", ADDED), ("1", ADDED)],
    "rc": [("p", PAPER), ("p + 1", PAPER), ("1", ADDED)],
    "remaining": [("1", PAPER), ("p", ADDED), ("p + 1", ADDED)],
    "tp": [("1/p + 1", ADDED), ("1/p", ADDED), ("1", ADDED)],
    "to": [("p*sqrt(p)", ADDED), ("p", ADDED), ("p + 1", ADDED), ("1", ADDED)],
    "total": [("1", ADDED), ("p", ADDED), ("p + 1", ADDED)],
}
# Against a data size x (Table 1's n; Section 3.2: CL "a linear function of data size"): PC
# n²·log n, LI n·log n, IP 1, SL 0, CL n (linear) and n², RC n². Every category also gets the
# ladder 1, x, x·log x, x², x²·log x (added) so that another program's shape can be found.
X_PAPER = {
    "remaining": ["{x}^2*log({x})"], "li": ["{x}*log({x})"], "ip": ["1"], "sl": ["0"],
    "cl": ["{x}", "{x}^2"], "rc": ["{x}^2"],
}
X_LADDER = ["1", "{x}", "{x}*log({x})", "{x}^2", "{x}^2*log({x})"]


@dataclass(frozen=True)
class Candidate:
    model: Model
    origin: str  # paper | added | user


def default_models(category: str, var: str) -> list[Candidate]:
    """The default models of ``category`` against ``var`` (``p``: processors; else data size)."""
    if var == "p":
        pairs = P_DEFAULTS[category]
    else:
        paper = X_PAPER.get(category, [])
        pairs = [(t, PAPER) for t in paper] + [(t, ADDED) for t in X_LADDER if t not in paper]
    out: list[Candidate] = []
    for text, origin in pairs:
        model = parse_model(text.format(x=var))
        if all(c.model != model for c in out):
            out.append(Candidate(model, origin))
    return out


# --- one least-squares fit ---------------------------------------------------------------------


class TooFewPoints(InterpError):
    """A model with more coefficients than the points can support; ``needed`` more points."""

    def __init__(self, message: str, needed: int, hint: str | None = None):
        super().__init__(message, hint=hint)
        self.needed = needed


@dataclass(frozen=True)
class Coefficient:
    term: Term
    value: float
    low: float  # the 90% confidence interval
    high: float

    @property
    def half_width(self) -> float:
        return (self.high - self.low) / 2

    @property
    def contains_zero(self) -> bool:
        return self.low <= 0 <= self.high

    def strength(self) -> float:
        """|value| in half-widths (the t statistic over its 90% quantile): below 1 ⇔ the
        interval contains zero; the weakest term is eliminated first."""
        return abs(self.value) / self.half_width if self.half_width > 0 else math.inf


@dataclass(frozen=True)
class Fit:
    model: Model
    coefficients: tuple[Coefficient, ...]
    points: int
    ssr: float  # residual sum of squares
    tss: float  # total (centered) sum of squares

    @property
    def r2(self) -> float | None:
        """The fraction of the variation the model explains (None: the data do not vary)."""
        return 1 - self.ssr / self.tss if self.tss > 0 else None

    @property
    def r2_adj(self) -> float:
        """R² with the residual variance per degree of freedom (ranks models of different
        sizes); data that do not vary: 1 for an exact fit, else -inf."""
        k = len(self.coefficients)
        if self.tss <= 0:
            return 1.0 if self.ssr <= 0 else -math.inf
        return 1 - (self.ssr / (self.points - k)) / (self.tss / (self.points - 1))

    def __call__(self, env: dict[str, np.ndarray]) -> np.ndarray:
        n = len(next(iter(env.values())))
        out = np.zeros(n)
        for c in self.coefficients:
            out = out + c.value * c.term.values(env)
        return out

    def describe(self) -> str:
        """``0.000298·p*sqrt(p) + 12.9``, ``2058.8/p``."""
        def one(c: Coefficient) -> str:
            t = str(c.term)
            if not c.term.factors:
                return f"{c.value:.6g}"
            return f"{c.value:.6g}{t[1:]}" if t.startswith("1/") else f"{c.value:.6g}·{t}"
        return " + ".join(one(c) for c in self.coefficients) or "0"


def ols(model: Model, env: dict[str, np.ndarray], y: np.ndarray, where=None) -> Fit:
    """Least squares of ``y`` on the model's terms (statsmodels OLS), with 90% intervals.

    Needs one point more than the model has coefficients (a degree of freedom for the
    intervals) and as many distinct points as coefficients; ``where(i)`` names point i."""
    import statsmodels.api as sm

    n, k = len(y), len(model.terms)
    tss = float(np.sum((y - y.mean()) ** 2)) if n else 0.0
    if n < k + 1:
        raise TooFewPoints(
            f"model {model} has {k} coefficient{'s' * (k != 1)}: it needs at least {k + 1} "
            f"points (one more than its coefficients, for the 90% intervals), the data have "
            f"{n}: needs {k + 1 - n} more", k + 1 - n,
            hint="measure more points, or choose a model with fewer terms")
    if k == 0:
        return Fit(model, (), n, float(np.sum(y ** 2)), tss)
    a = model.design(env)
    _check_defined(model, a, where)
    scale = np.linalg.norm(a, axis=0)  # unit columns: n²·log n next to 1 stays well conditioned
    for t, s in zip(model.terms, scale):
        if s == 0:
            raise InterpError(f"the term {t} of model {model} is zero at every point",
                              hint="drop the term")
    a = a / scale
    rank = np.linalg.matrix_rank(a)
    if rank < k:
        distinct = len({tuple(row) for row in np.round(a, 12)})
        more = f"needs {k - distinct} more distinct points" if distinct < k else \
            "its terms are proportional to each other on these points"
        raise TooFewPoints(f"model {model} has {k} coefficients and the {n} points have only "
                           f"{distinct} distinct value{'s' * (distinct != 1)}: {more}",
                           max(k - distinct, 1), hint="measure at more values of the variable")
    with warnings.catch_warnings(), np.errstate(all="ignore"):
        warnings.simplefilter("ignore")  # an exact fit's zero standard errors
        res = sm.OLS(y, a).fit()
        ci = np.asarray(res.conf_int(alpha=1 - CONFIDENCE))
    params = np.asarray(res.params)
    coefs = tuple(Coefficient(t, float(v / s), float(lo / s), float(hi / s))
                  for t, v, (lo, hi), s in zip(model.terms, params, ci, scale))
    return Fit(model, coefs, n, float(res.ssr), tss)


def _check_defined(model: Model, a: np.ndarray, where) -> None:
    bad = ~np.isfinite(a)
    if bad.any():
        i, j = map(int, np.argwhere(bad)[0])
        at = f" at {where(i)}" if where else ""
        raise InterpError(f"the term {model.terms[j]} of model {model} is undefined{at}",
                          hint="log and sqrt need positive values, and a quotient a non-zero "
                               "divisor")


@dataclass(frozen=True)
class ModelFit:
    """One candidate: its full fit and, when a term's interval contained zero, the refit
    without such terms (``dropped``). ``needs``: points missing when it could not be fitted."""

    candidate: Candidate
    full: Fit | None
    refit: Fit | None = None
    dropped: tuple[Term, ...] = ()
    needs: int = 0
    reason: str = ""

    @property
    def final(self) -> Fit | None:
        return self.refit or self.full


def fit_model(candidate: Candidate, env, y, where=None) -> ModelFit:
    """Fit, then eliminate the weakest term whose interval contains zero, one at a time."""
    try:
        full = ols(candidate.model, env, y, where)
    except TooFewPoints as err:
        return ModelFit(candidate, None, needs=err.needed, reason=err.message)
    current, dropped = full, []
    while weak := [c for c in current.coefficients if c.contains_zero]:
        worst = min(weak, key=Coefficient.strength)
        dropped.append(worst.term)
        current = ols(current.model.without(worst.term), env, y, where)
    return ModelFit(candidate, full, current if dropped else None, tuple(dropped))


def best(fits: list[ModelFit]) -> ModelFit | None:
    """The fitted model with the highest adjusted R² (fewer terms on a tie)."""
    done = [(i, f) for i, f in enumerate(fits) if f.final is not None]
    if not done:
        return None
    return min(done, key=lambda p: (-p[1].final.r2_adj, len(p[1].final.coefficients), p[0]))[1]


# --- the data: selection, slices, series -------------------------------------------------------


@dataclass(frozen=True)
class Selection:
    source: str | None = None
    program: str | None = None
    machine: str | None = None
    by: str = "program"
    key: str | None = None
    fix: tuple[tuple[str, float], ...] = ()


def select(runs: list[Run], sel: Selection, several_programs: bool = False) -> list[Run]:
    """The rows the fit uses; a mix of sources, machines or programs must be narrowed."""
    out = [r for r in runs if r.by == sel.by
           and (sel.source is None or r.source == sel.source)
           and (sel.program is None or r.program == sel.program)
           and (sel.machine is None or r.machine == sel.machine)
           and (sel.key is None or r.key == sel.key)]
    for name, value in sel.fix:
        out = [r for r in out if name in r.variables() and r.variable(name) == value]
    if not out:
        asked = ", ".join(f"{k}={v}" for k, v in (("by", sel.by), ("source", sel.source),
                          ("program", sel.program), ("machine", sel.machine), ("key", sel.key))
                          if v is not None)
        asked += "".join(f", {n}={v:g}" for n, v in sel.fix)
        raise InterpError(f"no rows with {asked}", hint="the data have " + _inventory(runs))
    for column, option in (("source", "--source"), ("machine", "--machine"),
                           *(() if several_programs else (("program", "--program"),))):
        values = sorted({getattr(r, column) for r in out})
        if len(values) > 1:
            raise InterpError(f"the rows mix {column}s {', '.join(values)}",
                              hint=f"choose one with {option} {values[0]}")
    return out


def _example_fix(fixed: tuple) -> str:
    """``n=32``: the first value that tells slices apart, as --fix takes it."""
    return next((f"{k}={v:g}" for k, v in fixed if isinstance(v, float)), "NAME=VALUE")


def rows_by(runs: list[Run]) -> str:
    return runs[0].by if runs else "program"


def _inventory(runs: list[Run]) -> str:
    parts = []
    for column in ("by", "source", "program", "machine"):
        parts.append(f"{column} " + "|".join(sorted({getattr(r, column) for r in runs})))
    return "; ".join(parts)


def env_of(runs: list[Run], variables) -> dict[str, np.ndarray]:
    return {v: np.array([r.variable(v) for r in runs]) for v in variables}


def values_of(runs: list[Run], category: str) -> np.ndarray:
    return np.array([r.category(category) for r in runs])


def slices(runs: list[Run], variables) -> dict[tuple, list[Run]]:
    """Runs grouped by everything that is not fitted: the breakdown key and the values of the
    other variables (the paper holds them constant)."""
    others = sorted(frozenset().union(*(r.variables() for r in runs)) - set(variables))
    out: dict[tuple, list[Run]] = {}
    for r in runs:
        fixed = tuple((o, r.variable(o) if o in r.variables() else None) for o in others)
        if r.by != "program":
            fixed = (("key", r.key),) + fixed
        out.setdefault(fixed, []).append(r)
    return out


@dataclass
class Series:
    """One category against one variable, in one slice, with each candidate's fit."""

    category: str
    var: str
    fixed: tuple
    runs: list[Run]
    x: np.ndarray
    y: np.ndarray
    fits: list[ModelFit]

    @property
    def best(self) -> ModelFit | None:
        return best(self.fits)


def candidates(category: str, variables, user: list[Model]) -> list[Candidate]:
    """The user's models when given, else the defaults."""
    if not user:
        (var,) = variables
        return default_models(category, var)
    return [Candidate(m, USER) for m in user]


def check_variables(user: list[Model], variables) -> None:
    for m in user:
        extra = sorted(m.variables() - set(variables))
        if extra:
            raise InterpError(f"model {m} uses {', '.join(extra)}, but the fit is against "
                              f"{', '.join(variables)}",
                              hint=f"add --var {extra[0]}, or write the model in "
                                   f"{', '.join(variables)} only")


def fit_series(category: str, var: str, fixed: tuple, runs: list[Run], cands) -> Series:
    env = env_of(runs, [var])
    y = values_of(runs, category)
    where = _namer(runs, [var])
    return Series(category, var, fixed, runs, env[var], y,
                  [fit_model(c, env, y, where) for c in cands])


def _namer(runs: list[Run], variables):
    def name(i: int) -> str:
        r = runs[i]
        return ", ".join(f"{v}={r.variable(v):g}" for v in variables) + f" ({r.file}:{r.line})"
    return name


# --- two variables: the factorial design over the edges ----------------------------------------


@dataclass
class Edge:
    """A side of the (a, b) rectangle: ``fixed`` at its minimum or maximum, ``varying`` free."""

    fixed: str
    value: float
    varying: str
    runs: list[Run]

    @property
    def label(self) -> str:
        return f"{self.fixed}={self.value:g}"

    def distinct(self) -> list[float]:
        return sorted({r.variable(self.varying) for r in self.runs})


def edges(runs: list[Run], a: str, b: str) -> tuple[list[Edge], list[Run]]:
    """The four edges (each with at least 3 distinct points, or an error saying how many more
    each needs) and the interior points."""
    out = []
    for fixed, varying in ((b, a), (a, b)):
        values = sorted({r.variable(fixed) for r in runs})
        if len(values) < 2:
            raise InterpError(f"{fixed} takes the single value {values[0]:g}: a two-variable "
                              f"model needs {fixed} varied", hint=f"drop --var {fixed}, or "
                              f"measure the edges {fixed}=min and {fixed}=max")
        for v in (values[0], values[-1]):
            out.append(Edge(fixed, v, varying, [r for r in runs if r.variable(fixed) == v]))
    short = [e for e in out if len(e.distinct()) < MIN_EDGE_POINTS]
    if short:
        lines = "; ".join(f"edge {e.label} has {len(e.distinct())} ({e.varying} = "
                          f"{', '.join(f'{x:g}' for x in e.distinct())}): needs "
                          f"{MIN_EDGE_POINTS - len(e.distinct())} more" for e in short)
        raise TooFewPoints(f"a factorial design needs at least {MIN_EDGE_POINTS} points on each "
                           f"edge of the ({a}, {b}) space (Crovella and LeBlanc, Section 3.2): "
                           + lines, max(MIN_EDGE_POINTS - len(e.distinct()) for e in short),
                           hint=f"measure {a} at its minimum and maximum for 3 or more values "
                                f"of {b}, and {b} at its minimum and maximum for 3 or more of {a}")
    on_edge = {id(r) for e in out for r in e.runs}
    return out, [r for r in runs if id(r) not in on_edge]


@dataclass
class Combination:
    kind: str  # additive | multiplicative
    fit: ModelFit
    heldout: float | None  # mean |relative error| at points the fit did not use
    heldout_points: int


@dataclass
class Factorial:
    """One category modelled in two variables from the edges of their space."""

    category: str
    variables: tuple[str, str]
    edges: list[tuple[Edge, Series]]
    chosen_models: dict[str, ModelFit]  # per variable: the one-variable model combined
    combinations: list[Combination]
    heldout_what: str  # "interior points" | "each edge left out in turn" | ""
    main_share: float | None  # allocation of variation: main effects, interactions
    interaction_share: float | None
    runs: list[Run] = field(default_factory=list)

    @property
    def chosen(self) -> Combination | None:
        """The combination with the smaller held-out error (else the higher R²)."""
        done = [c for c in self.combinations if c.fit.final is not None]
        if not done:
            return None
        if all(c.heldout is not None for c in done):
            return min(done, key=lambda c: c.heldout)
        return max(done, key=lambda c: c.fit.final.r2_adj)

    @property
    def paper_rule(self) -> str | None:
        """The paper's rule: multiply when interactions account for the majority of variation."""
        if self.interaction_share is None:
            return None
        return "multiplicative" if self.interaction_share > 0.5 else "additive"


def fit_factorial(category: str, a: str, b: str, runs: list[Run], user: list[Model]) -> Factorial:
    edge_list, interior = edges(runs, a, b)
    fitted = []
    chosen: dict[str, ModelFit] = {}
    for var in (a, b):
        own = [m for m in user if m.variables() <= {var}]
        cands = [Candidate(m, USER) for m in own] or default_models(category, var)
        mine = [e for e in edge_list if e.varying == var]
        series = [fit_series(category, var, ((e.fixed, e.value),), e.runs, cands) for e in mine]
        fitted += list(zip(mine, series))
        chosen[var] = _best_on_edges(series)
    env, y = env_of(runs, (a, b)), values_of(runs, category)
    where = _namer(runs, (a, b))
    both = [m for m in user if m.variables() - {a} and m.variables() - {b}]
    g, h = chosen[a].candidate.model, chosen[b].candidate.model
    combos = [("additive", g.plus(h)), ("multiplicative", g.times(h))]
    combos += [(f"user {m}", m) for m in both]
    what = "interior points" if interior else "each edge left out in turn"
    out = []
    for kind, model in combos:
        mf = fit_model(Candidate(model, USER if kind.startswith("user") else ADDED), env, y, where)
        err, count = (_heldout(model, env, y, runs, edge_list, interior) if mf.final else (None, 0))
        out.append(Combination(kind, mf, err, count))
    main, inter = _allocation(g, h, env, y)
    return Factorial(category, (a, b), fitted, chosen, out, what, main, inter, runs)


def _best_on_edges(series: list[Series]) -> ModelFit:
    """The candidate with the highest mean adjusted R² over the edges along one variable."""
    n = len(series[0].fits)
    score = []
    for i in range(n):
        fits = [s.fits[i].final for s in series]
        if any(f is None for f in fits):
            score.append(-math.inf)
            continue
        score.append(sum(f.r2_adj for f in fits) / len(fits))
    i = max(range(n), key=lambda j: (score[j], -j))
    if score[i] == -math.inf:
        raise InterpError(f"no model of {series[0].category} against {series[0].var} could be "
                          f"fitted on the edges: {series[0].fits[0].reason}")
    return series[-1].fits[i]


def _heldout(model: Model, env, y, runs, edge_list, interior) -> tuple[float | None, int]:
    """Mean |relative error| where the model was not fitted: at the interior points (fitted on
    the edges), or at each edge's points when fitted on the other edges' points. Each fold
    fits as the table does (terms whose interval contains zero dropped): the error is that of
    the procedure whose result is shown, not of the model with every term kept."""
    ids = {id(r): i for i, r in enumerate(runs)}
    if interior:
        folds = [([i for i, r in enumerate(runs) if r not in interior],
                  [ids[id(r)] for r in interior])]
    else:
        folds = []
        for e in edge_list:
            out = {id(r) for r in e.runs}
            folds.append(([i for i, r in enumerate(runs) if id(r) not in out],
                          [ids[id(r)] for r in e.runs]))
    errors = []
    for train, test in folds:
        sub = {k: v[train] for k, v in env.items()}
        try:
            fit = fit_model(Candidate(model, ADDED), sub, y[train]).final
        except InterpError:
            continue  # a term undefined or zero on this fold's points
        if fit is None:
            continue  # this fold has too few points for the model
        pred = fit({k: v[test] for k, v in env.items()})
        for p, t in zip(pred, y[test]):
            if t != 0:
                errors.append(abs(p - t) / abs(t))
    return (float(np.mean(errors)), len(errors)) if errors else (None, 0)


def _allocation(g: Model, h: Model, env, y) -> tuple[float | None, float | None]:
    """Allocation of variation by least squares (the paper's Section 4.1, after Jain): the
    fraction the main (additive) terms explain, and what the interaction terms add after them."""
    additive, full = g.plus(h), g.plus(h).plus(g.times(h))
    try:
        add_fit, full_fit = ols(additive, env, y), ols(full, env, y)
    except InterpError:
        return None, None
    if add_fit.tss <= 0:
        return None, None
    return 1 - add_fit.ssr / add_fit.tss, (add_fit.ssr - full_fit.ssr) / add_fit.tss


# --- predictions and crossovers ----------------------------------------------------------------


@dataclass
class Program:
    """One implementation's models: per category, a function of the variables."""

    name: str
    variables: tuple[str, ...]
    fixed: dict[str, float]  # the other variables' values (e.g. p when fitting against n)
    models: dict[str, Fit]
    runs: list[Run]

    def value(self, category: str, env: dict[str, np.ndarray]) -> np.ndarray:
        if category == "tp (composed)":
            return self.composed(env)
        return self.models[category](env)

    def composed(self, env: dict[str, np.ndarray]) -> np.ndarray:
        """T_p = (T_o + T_c)/p: the sum of the category models over p (the paper's identity)."""
        p = env["p"] if "p" in env else np.full(len(next(iter(env.values()))), self.fixed["p"])
        return sum(self.models[c](env) for c in PARTS) / p


def program_models(name: str, runs: list[Run], variables, categories, user: dict) -> Program:
    """Fit every category needed, with the best model (or the user's) for each."""
    models = {}
    groups = slices(runs, variables)
    if len(groups) > 1:
        shown = "; ".join(", ".join(f"{k}={v:g}" if isinstance(v, float) else f"{k}={v}"
                                    for k, v in g) for g in list(groups)[:4])
        raise InterpError(f"the rows of {name} hold {len(groups)} slices of the other "
                          f"variables ({shown}): a prediction needs one",
                          hint="choose one with --fix " + _example_fix(next(iter(groups)))
                               + (" and --key KEY" if rows_by(runs) != "program" else ""))
    (fixed, rows), = groups.items()
    for cat in categories:
        mine = user.get(cat, [])
        if len(variables) == 1:
            s = fit_series(cat, variables[0], fixed, rows, candidates(cat, variables, mine))
            chosen = s.best
            if chosen is None:
                raise InterpError(f"{name}: no model of {cat} could be fitted: "
                                  f"{s.fits[0].reason}")
            models[cat] = chosen.final
        else:
            f = fit_factorial(cat, variables[0], variables[1], rows, mine)
            if f.chosen is None:
                raise InterpError(f"{name}: no combined model of {cat} could be fitted")
            models[cat] = f.chosen.fit.final
    return Program(name, tuple(variables), {k: v for k, v in fixed if isinstance(v, float)},
                   models, rows)


@dataclass
class PointPrediction:
    point: dict[str, float]
    values: dict[str, float]  # per category: its model's value
    tp: float  # (T_o + T_c)/p
    tp_direct: float | None  # the model fitted to the measured T_p itself


def predict_at(prog: Program, point: dict[str, float]) -> PointPrediction:
    missing = [v for v in prog.variables if v not in point]
    if missing:
        raise InterpError(f"--at needs a value for {', '.join(missing)}",
                          hint="e.g. --at " + ",".join(f"{v}=128" for v in prog.variables))
    extra = [v for v in point if v not in prog.variables]
    if extra:
        raise InterpError(f"--at gives {', '.join(extra)}, which the models are not fitted "
                          f"against ({', '.join(prog.variables)})",
                          hint="fix the other variables with --fix instead")
    env = {k: np.array([v]) for k, v in point.items()}
    with np.errstate(all="ignore"):
        values = {c: float(prog.models[c](env)[0]) for c in PARTS}
        tp = float(prog.composed(env)[0])
        direct = float(prog.models["tp"](env)[0]) if "tp" in prog.models else None
    if not math.isfinite(tp):
        raise InterpError(f"the models are undefined at {_point_text(point)}",
                          hint="log and sqrt need positive values")
    return PointPrediction(dict(point), values, tp, direct)


def _point_text(point: dict[str, float]) -> str:
    return ", ".join(f"{k}={v:g}" for k, v in point.items())


@dataclass
class Side:
    low: float
    high: float
    winner: str  # the faster (smaller) program on (low, high)


@dataclass
class Crossover:
    """Where program A's model equals B's: points in one variable, a curve in two."""

    what: str  # the category, or "tp (composed)"
    variables: tuple[str, ...]
    programs: tuple[Program, Program]
    searched: tuple[float, float]
    measured: tuple[float, float]
    roots: list[float]  # one variable
    sides: list[Side]
    curve: list[tuple[float, list[float], str]] = field(default_factory=list)  # (a, roots, winner below)


def crossover(a: Program, b: Program, what: str) -> Crossover:
    """Solve model_A(x) = model_B(x) over the measured range widened EXTEND times each way
    (sign changes on a fine grid, each refined by ``scipy.optimize.brentq``). With two
    variables, the last is solved for at each measured value of the first: the boundary."""
    var = a.variables[-1]
    lo, hi = _range(a, b, var)
    search = (max(lo / EXTEND, 1.0) if var == "p" else lo / EXTEND, hi * EXTEND) if lo > 0 \
        else (lo, hi + (hi - lo) * (EXTEND - 1))
    if len(a.variables) == 1:
        roots, sides = _solve(lambda x: _diff(a, b, what, {var: x}), search, a.name, b.name)
        return Crossover(what, a.variables, (a, b), search, (lo, hi), roots, sides)
    first = a.variables[0]
    grid = sorted({r.variable(first) for p in (a, b) for r in p.runs})  # the measured values
    curve = []
    for v in grid:
        roots, sides = _solve(lambda x, v=v: _diff(a, b, what, {first: np.full(len(x), v), var: x}),
                              search, a.name, b.name)
        curve.append((float(v), roots, sides[0].winner if sides else ""))
    return Crossover(what, a.variables, (a, b), search, (lo, hi), [], [], curve)


def _range(a: Program, b: Program, var: str) -> tuple[float, float]:
    """The range of ``var`` both programs were measured over (their union)."""
    xs = [r.variable(var) for p in (a, b) for r in p.runs]
    return min(xs), max(xs)


def _diff(a: Program, b: Program, what: str, env) -> np.ndarray:
    env = {k: np.asarray(v, dtype=float) for k, v in env.items()}
    with np.errstate(all="ignore"):
        return a.value(what, env) - b.value(what, env)


def _solve(diff, search, name_a: str, name_b: str) -> tuple[list[float], list[Side]]:
    from scipy.optimize import brentq

    lo, hi = search
    xs = np.geomspace(lo, hi, 4001) if lo > 0 else np.linspace(lo, hi, 4001)
    d = diff(xs)
    roots: list[float] = []
    for i in range(len(xs) - 1):
        d0, d1 = d[i], d[i + 1]
        if not (math.isfinite(d0) and math.isfinite(d1)):
            continue
        if d0 == 0 and (not roots or roots[-1] != xs[i]):
            roots.append(float(xs[i]))
        elif d0 * d1 < 0:
            roots.append(float(brentq(lambda x: float(diff(np.array([x]))[0]), xs[i], xs[i + 1],
                                      xtol=1e-12 * max(1.0, abs(xs[i])))))
    if np.all(d[np.isfinite(d)] == 0):
        return [], []
    edges_ = [lo, *roots, hi]
    sides = []
    for x0, x1 in zip(edges_, edges_[1:]):
        mid = math.sqrt(x0 * x1) if x0 > 0 else (x0 + x1) / 2
        dm = float(diff(np.array([mid]))[0])
        sides.append(Side(x0, x1, name_a if dm < 0 else name_b if dm > 0 else "tie"))
    return roots, sides


# --- the command: what ``interp lca`` asks ----------------------------------------------------


@dataclass(frozen=True)
class Request:
    variables: tuple[str, ...]
    categories: tuple[str, ...] = ()  # none given: the six parts (or, crossing, composed T_p)
    models: tuple[str, ...] = ()  # --model texts, for every category asked
    selection: Selection = Selection()
    at: tuple[tuple[tuple[str, float], ...], ...] = ()
    crossover: tuple[str, str] | None = None


@dataclass
class Result:
    request: Request
    rows: list[Run] = field(default_factory=list)  # the rows selected
    series: list[Series] = field(default_factory=list)  # one variable
    factorials: list[Factorial] = field(default_factory=list)  # two variables
    program: Program | None = None  # the models --at uses
    predictions: list[PointPrediction] = field(default_factory=list)
    crossing: Crossover | None = None

    @property
    def categories(self) -> tuple[str, ...]:
        return self.request.categories or PARTS


def analyse(runs: list[Run], req: Request) -> Result:
    """Everything ``interp lca`` prints, computed before anything is shown."""
    variables = req.variables
    if not 1 <= len(variables) <= 2 or len(set(variables)) != len(variables):
        raise InterpError("give one or two different --var (e.g. --var p, or --var p --var n)")
    user = [parse_model(t) for t in req.models]
    check_variables(user, variables)
    if req.crossover:
        return _crossing(runs, req, user)
    rows = select(runs, req.selection)
    for r in rows:
        for v in variables:
            r.variable(v)  # every row has the variables (an error names the line)
    out = Result(req, rows)
    for cat in out.categories:
        for fixed, group in slices(rows, variables).items():
            if len(variables) == 1:
                s = fit_series(cat, variables[0], fixed, group, candidates(cat, variables, user))
                _no_silent_shortfall(s.fits, user)
                out.series.append(s)
            else:
                out.factorials.append(fit_factorial(cat, *variables, group, user))
        _something_fitted(out, cat)
    if req.at:
        name = rows[0].program
        out.program = program_models(name, rows, variables, (*PARTS, "tp"),
                                     {c: user for c in req.categories})
        out.predictions = [predict_at(out.program, dict(p)) for p in req.at]
    return out


def _no_silent_shortfall(fits: list[ModelFit], user: list[Model]) -> None:
    """A model the user named that the points cannot support is an error (defaults that cannot
    be fitted are shown as such, with how many more points they need)."""
    if user:
        for f in fits:
            if f.full is None:
                raise TooFewPoints(f.reason, f.needs)


def _something_fitted(out: Result, cat: str) -> None:
    mine = [s for s in out.series if s.category == cat]
    if mine and all(s.best is None for s in mine):
        first = mine[0].fits[0]
        raise TooFewPoints(f"{cat}: no model can be fitted: {first.reason}", first.needs)


def _crossing(runs: list[Run], req: Request, user: list[Model]) -> Result:
    a_name, b_name = req.crossover
    if a_name == b_name:
        raise InterpError("--crossover needs two different programs")
    if req.selection.program is not None:
        raise InterpError("--crossover names the programs; leave out --program")
    if len(req.categories) > 1:
        raise InterpError("--crossover compares one category (--cat) or, without --cat, the "
                          "predicted run time T_p = (T_o + T_c)/p")
    what = req.categories[0] if req.categories else "tp (composed)"
    needed = (what,) if req.categories else PARTS
    rows = select(runs, req.selection, several_programs=True)
    progs = []
    for name in (a_name, b_name):
        mine = [r for r in rows if r.program == name]
        if not mine:
            raise InterpError(f"no rows of program {name}",
                              hint="the data have programs " + ", ".join(
                                  sorted({r.program for r in rows})))
        progs.append(program_models(name, mine, req.variables, needed,
                                    {c: user for c in req.categories}))
    if progs[0].fixed != progs[1].fixed:
        raise InterpError(f"{a_name} and {b_name} were measured at different values of the "
                          f"other variables ({progs[0].fixed} and {progs[1].fixed})",
                          hint="choose the same with --fix NAME=VALUE")
    out = Result(req, rows)
    out.crossing = crossover(progs[0], progs[1], what)
    return out
