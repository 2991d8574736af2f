"""Times: Python floats while they are numbers, linear forms once inputs are symbols.

Most of an interpretation is numeric; keeping those times as floats makes it fast. A time
that depends on a symbolic input (``N``) is a :class:`Lin`: a float constant plus float
coefficients over SymPy monomials (``N``, ``floor(N/16 + 3/8)``, ``NITER*N``), so that adding
clocks is dictionary arithmetic, not SymPy's. A Lin reads like the SymPy expression it stands
for (``.free_symbols``, ``.subs`` …) and becomes one wherever SymPy meets it. The ordering of two
times (who waits for whom) is decided here, symbolically when it can be decided for every
admissible input.
"""

from __future__ import annotations

from array import array

import sympy as sp

from interp.application.expr import as_sympy

_CANCEL = 1e-12  # a sum this much smaller than its terms is the round-off of equal ones cancelling


def _sum(a: float, b: float) -> float:
    v = a + b
    return 0.0 if abs(v) <= _CANCEL * max(abs(a), abs(b)) else v


def _expanded(x: sp.Expr) -> "Lin":
    c, terms = 0.0, {}
    for term in sp.Add.make_args(sp.expand(x)):
        k, m = term.as_coeff_Mul()
        if m == 1:
            c += float(k)
        else:
            terms[m] = terms.get(m, 0.0) + float(k)
    return Lin(c, {m: k for m, k in terms.items() if k != 0.0})


# SymPy expression → its Lin (a Lin is immutable, so one serves every caller): the same
# counts (NITER, NITER - 4) are converted hundreds of times a run, each an expand
_OF: dict = {}


class Lin:
    """``c + Σ k·m``: a float constant and float coefficients ``k`` over SymPy monomials ``m``.
    Immutable: every operation returns a new one."""

    __slots__ = ("c", "terms", "_expr")

    def __init__(self, c: float = 0.0, terms: dict | None = None):
        self.c = c
        self.terms = terms or {}
        self._expr = None

    @staticmethod
    def of(x) -> "Lin":
        if isinstance(x, Lin):
            return x
        if isinstance(x, (int, float)):
            return Lin(float(x))
        x = as_sympy(x)
        if x.is_number:
            return Lin(float(x))
        got = _OF.get(x)
        if got is None:
            if len(_OF) > 100_000:
                _OF.clear()
            got = _OF[x] = _expanded(x)
        return got

    # ---- reading it as SymPy ----
    @property
    def expr(self) -> sp.Expr:
        if self._expr is None:
            self._expr = sp.Add(sp.Float(self.c), *[sp.Float(k) * m for m, k in self.terms.items()]) \
                if self.terms else sp.Float(self.c)
        return self._expr

    def _sympy_(self) -> sp.Expr:
        return self.expr

    def __getattr__(self, name):  # .free_symbols, .subs, .has, .evalf …: the expression's
        if name.startswith("__"):
            raise AttributeError(name)
        return getattr(self.expr, name)

    def __float__(self) -> float:
        if self.terms:
            raise TypeError(f"the time {self.expr} depends on {sorted(map(str, self.expr.free_symbols))}")
        return self.c

    def __repr__(self) -> str:
        return f"Lin({self.expr})"

    __str__ = __repr__

    def __eq__(self, other) -> bool:
        if isinstance(other, Lin):
            return self.c == other.c and self.terms == other.terms
        if isinstance(other, (int, float)):
            return not self.terms and self.c == other
        return self.expr == other

    def __hash__(self) -> int:
        return hash((self.c, frozenset(self.terms.items())))

    # ---- arithmetic ----
    def __add__(self, other):
        if type(other) is float:  # a clock advanced by a number: _sum, written out
            c = self.c
            if other > 0.0 and c >= 0.0:  # nothing cancels: the sum is above both
                return Lin(c + other, self.terms)
            v = c + other
            if abs(v) <= _CANCEL * max(abs(c), abs(other)):
                v = 0.0
            return Lin(v, self.terms)
        if isinstance(other, (int, float)):
            return Lin(_sum(self.c, other), self.terms)
        o = Lin.of(other)
        if not o.terms:  # (_plus would copy the terms unchanged)
            return Lin(_sum(self.c, o.c), self.terms)
        return self._plus(o, 1.0)

    __radd__ = __add__

    def _plus(self, o: "Lin", sign: float) -> "Lin":
        """self + sign·o (sign ±1), term by term: a term that cancels is dropped."""
        terms = dict(self.terms)
        for m, k in o.terms.items():
            v = _sum(terms.get(m, 0.0), sign * k)
            if v == 0.0:
                terms.pop(m, None)
            else:
                terms[m] = v
        return Lin(_sum(self.c, sign * o.c), terms)

    def __neg__(self) -> "Lin":
        return Lin(-self.c, {m: -k for m, k in self.terms.items()})

    def __sub__(self, other):
        if isinstance(other, (int, float)):
            return Lin(_sum(self.c, -other), self.terms)
        if isinstance(other, Lin) and other.terms is self.terms:
            # a clock less an earlier reading of it, numbers added in between (they share
            # their terms): every term cancels, as _sum(k, -k) in the sum below makes it
            return Lin(_sum(self.c, -other.c))
        return self._plus(Lin.of(other), -1.0)  # (without building −other)

    def __rsub__(self, other):
        return (-self) + other

    def __mul__(self, other):
        if isinstance(other, (int, float)):
            if other == 0:
                return Lin(0.0)
            return Lin(self.c * other, {m: k * other for m, k in self.terms.items()})
        o = Lin.of(other)
        if not o.terms:
            return self * o.c
        if not self.terms:
            return o * self.c
        out = Lin(0.0)
        for c1, m1 in [(self.c, None), *[(k, m) for m, k in self.terms.items()]]:
            for c2, m2 in [(o.c, None), *[(k, m) for m, k in o.terms.items()]]:
                if m1 is None and m2 is None:
                    out = out + c1 * c2
                else:
                    mono = m2 if m1 is None else m1 if m2 is None else sp.expand(m1 * m2)
                    out = out + Lin.of(mono) * (c1 * c2)
        return out

    __rmul__ = __mul__

    def __truediv__(self, other):
        if isinstance(other, (int, float)) or (isinstance(other, sp.Basic) and other.is_number):
            return self * (1.0 / float(other))
        return Lin.of(self.expr / as_sympy(other))

    # comparisons read the expression: a number when the time is one
    def __lt__(self, other):
        return self.expr < as_sympy(other)

    def __le__(self, other):
        return self.expr <= as_sympy(other)

    def __gt__(self, other):
        return self.expr > as_sympy(other)

    def __ge__(self, other):
        return self.expr >= as_sympy(other)


Time = float | Lin


def as_time(x) -> Time:
    """A float when ``x`` is a number, else its linear form."""
    if isinstance(x, float):
        return x
    if isinstance(x, int):
        return float(x)
    if isinstance(x, Lin):
        return x if x.terms else x.c
    if isinstance(x, sp.Basic) and x.is_number:
        return float(x)
    return Lin.of(x)


def as_count(x):
    """An int when ``x`` is an integer number (trip counts, jumps), else as it is."""
    if isinstance(x, sp.Basic) and x.is_Integer:
        return int(x)
    return x


def scaled(t, m) -> Time:
    """``m·t`` for a time ``t`` and a count ``m`` (a number or a SymPy expression)."""
    if not is_symbolic(t) and not (isinstance(m, sp.Basic) and not m.is_number):
        return float(t) * float(m)
    return as_time(Lin.of(t) * m)


def is_symbolic(x) -> bool:
    if type(x) is float:  # (most times: asked at every message)
        return False
    if isinstance(x, Lin):
        return bool(x.terms)
    return isinstance(x, sp.Basic) and not x.is_number


_NAMES: dict = {}  # monomial → the names of its symbols (a run meets a handful of monomials)


def symbol_names(x) -> set[str]:
    """The names of the symbols a time depends on, read off a Lin's monomials (building its
    SymPy expression would cost more than the question: asked of every unpriced message)."""
    if isinstance(x, Lin):
        out = set()
        for m in x.terms:
            names = _NAMES.get(m)
            if names is None:
                if len(_NAMES) > 100_000:  # (as _OF: a long session's monomials)
                    _NAMES.clear()
                names = _NAMES[m] = frozenset(str(s) for s in m.free_symbols)
            out |= names
        return out
    return {str(s) for s in as_sympy(x).free_symbols} if isinstance(x, sp.Basic) else set()


def _difference(a, b) -> Lin:
    """a − b with the round-off residue of float arithmetic (``1e-22*N``) dropped."""
    d = Lin.of(a) - Lin.of(b)
    keep = {m: k for m, k in d.terms.items() if abs(k) >= NEGLIGIBLE}
    return d if len(keep) == len(d.terms) else Lin(d.c, keep)


def is_earlier(a: Time, b: Time) -> bool:
    """a < b for every admissible input (False when undecided)."""
    if not is_symbolic(a) and not is_symbolic(b):
        out = float(a) < float(b)
        if _RECORD is not None:
            _record(float(a) - float(b), not out)
        return out
    d = _difference(a, b)
    out = d.c < 0 if not d.terms else _is_negative(d)
    if _RECORD is not None:
        _record(d, False if out else True if not d.terms or _decided_sign(d) == 1 else None)
    return out


def earliest(times: list[Time]) -> int:
    """The index of the first earliest of ``times``: each compared with the earliest before
    it by ``is_earlier``, the comparisons recorded alike (numbers: without its dispatch,
    an any-source receive compares every message in flight to its process)."""
    best = 0
    if all(type(t) is float for t in times):
        low = times[0]
        for i in range(1, len(times)):
            out = times[i] < low
            if _RECORD is not None:
                _record(times[i] - low, not out)
            if out:
                best, low = i, times[i]
        return best
    for i in range(1, len(times)):
        if is_earlier(times[i], times[best]):
            best = i
    return best


MAX_FORMULA_OPS = 600  # beyond this a clock is not kept symbolic (the inputs get values)


class FormulaTooLarge(Exception):
    """The waiting structure depends on the inputs in too many ways to keep in closed form."""

    def __init__(self, symbols):
        super().__init__("formula too large")
        self.symbols = sorted(str(s) for s in symbols)


def _floor_bounds(d: sp.Expr) -> tuple[sp.Expr, sp.Expr] | None:
    """Lower and upper bounds of ``d`` with every ``c·floor(e)`` replaced by its range
    (``e − 1 < floor(e) ≤ e``, ``e ≤ ceiling(e) < e + 1``); None if ``d`` has other kinks."""
    lo, hi = [], []
    terms = list(sp.Add.make_args(d))
    # Pair c·floor(x + δ) with −c·floor(x): their sum lies in c·{⌊δ⌋, ⌊δ⌋ + 1} exactly, a far
    # tighter range than each bounded alone (node clocks differ by such pairs).
    paired = set()
    for i, t1 in enumerate(terms):
        c1, f1 = t1.as_coeff_Mul()
        if not isinstance(f1, sp.floor) or i in paired:
            continue
        for j in range(i + 1, len(terms)):
            c2, f2 = terms[j].as_coeff_Mul()
            if j in paired or not isinstance(f2, sp.floor) or abs(c1 + c2) > 1e-12 * abs(c1):
                continue
            delta = sp.expand(f1.args[0] - f2.args[0])
            if delta.is_number:
                base = sp.floor(delta)
                ends = (c1 * base, c1 * (base + 1))
                lo.append(min(ends))
                hi.append(max(ends))
                paired.update((i, j))
                break
    for k, term in enumerate(terms):
        if k in paired:
            continue
        c, rest = term.as_coeff_Mul()
        if isinstance(rest, (sp.floor, sp.ceiling)):
            e = rest.args[0]
            low, high = (e - 1, e) if isinstance(rest, sp.floor) else (e, e + 1)
            lo.append(c * (low if c > 0 else high))
            hi.append(c * (high if c > 0 else low))
        elif term.has(sp.floor, sp.ceiling, sp.Max, sp.Min, sp.Piecewise):
            return None
        else:
            lo.append(term)
            hi.append(term)
    return sp.expand(sp.Add(*lo)), sp.expand(sp.Add(*hi))


NEGLIGIBLE = 1e-18  # seconds: float round-off left after cancelling equal terms
# The comparisons of times made while a steady state is watched (steady.py): each as its
# margin a − b and whether the decision was "a − b ≥ 0" (None: undecided). When the processes'
# clocks shift by different amounts per iteration, the margins drift, and a fold is only valid
# if no decision would flip before the loop ends.
_RECORD: list | None = None
RECORD_LIMIT = 1_000_000  # comparisons kept between two cuts; beyond, the window is spoilt


class Comparisons:
    """A window of comparisons as ``record_comparisons`` appends them, ``(margin,
    nonnegative)`` pairs or None (the window spoilt), held in columns: a numeric margin in an
    array of doubles and the decision in a byte (~9 bytes, not a tuple and a float: a cut's
    window holds several comparisons a rank); a symbolic margin aside, by its index."""

    __slots__ = ("margins", "signs", "symbolic")
    _SIGNS = {False: 0, True: 1, None: 2}
    _DECODE = (False, True, None)
    _SPOILT = 3

    def __init__(self) -> None:
        self.margins = array("d")
        self.signs = bytearray()
        self.symbolic: dict[int, object] = {}

    def append(self, item: tuple | None) -> None:
        if item is None:
            self.margins.append(0.0)
            self.signs.append(self._SPOILT)
            return
        margin, nonnegative = item
        if type(margin) is not float:
            self.symbolic[len(self.signs)] = margin
            margin = 0.0
        self.margins.append(margin)
        self.signs.append(self._SIGNS[nonnegative])

    def __len__(self) -> int:
        return len(self.signs)

    def __getitem__(self, i: int) -> tuple | None:
        i = range(len(self.signs))[i]
        sign = self.signs[i]
        if sign == self._SPOILT:
            return None
        return (self.symbolic.get(i, self.margins[i]), self._DECODE[sign])

    def __iter__(self):
        return (self[i] for i in range(len(self.signs)))

    @classmethod
    def joined(cls, windows: list) -> "Comparisons":
        """The windows one after the other (a None among them: not recorded, spoilt)."""
        out = cls()
        for w in windows:
            if w is None:
                out.append(None)
                continue
            base = len(out.signs)
            out.margins.extend(w.margins)
            out.signs.extend(w.signs)
            out.symbolic.update((base + i, m) for i, m in w.symbolic.items())
        if len(out) > RECORD_LIMIT:
            out.append(None)
        return out

    @property
    def spoilt(self) -> bool:
        """Were there too many comparisons (or none recorded) to rely on this window?"""
        return self._SPOILT in self.signs


def record_comparisons(log: list | None) -> None:
    """Append every comparison of times to ``log`` from now on (None: stop)."""
    global _RECORD
    _RECORD = log


def note_numbers(margins: list[float], nonnegative: list[bool]) -> None:
    """Comparisons of numbers made by a loop that decides ``max`` itself
    (``collectives._rounds_numeric``), noted at once as ``later`` notes each."""
    log = _RECORD
    if log is None:
        return
    if len(log) + len(margins) <= RECORD_LIMIT:
        log.margins.extend(margins)
        log.signs.extend(nonnegative)  # (False, True: Comparisons' codes 0 and 1)
        return
    for m, s in zip(margins, nonnegative):
        _record(m, s)


def _record(margin, nonnegative: bool | None) -> None:
    if len(_RECORD) < RECORD_LIMIT:
        _RECORD.append((margin, nonnegative))
    elif _RECORD[-1] is not None:
        _RECORD.append(None)  # too many: no fold may rely on this window




def later(a: Time, b: Time, bounded: bool = True) -> Time:
    """max(a, b), decided when the sign of a − b is known for all admissible inputs.
    ``bounded``: FormulaTooLarge when an undecided Max would pass MAX_FORMULA_OPS; not for a
    part of a time (a category), which no later clock is built on."""
    return _extreme(a, b, True, bounded)


def earlier(a: Time, b: Time) -> Time:
    """min(a, b), decided as ``later`` decides max(a, b); undecided, a Min of both, never
    too large (it is only ever a part of a time)."""
    return _extreme(a, b, False, False)


def _extreme(a: Time, b: Time, high: bool, bounded: bool) -> Time:
    if not is_symbolic(a) and not is_symbolic(b):
        first = float(a) >= float(b)
        if _RECORD is not None:
            _record(float(a) - float(b), first)
        return a if first == high else b
    d = _difference(a, b)
    sign = (1 if d.c >= 0 else -1) if not d.terms else _decided_sign(d)
    if _RECORD is not None:
        _record(d, None if sign is None else sign >= 0)
    if sign is not None:
        return a if (sign >= 0) == high else b
    ea, eb = as_sympy(Lin.of(a).expr), as_sympy(Lin.of(b).expr)
    if bounded and sp.count_ops(ea) + sp.count_ops(eb) > MAX_FORMULA_OPS:
        raise FormulaTooLarge(ea.free_symbols | eb.free_symbols)
    # evaluate=False: SymPy's own Max simplification (local zeros) is slow on these clocks
    return Lin.of((sp.Max if high else sp.Min)(ea, eb, evaluate=False))


def _without_residue(e: sp.Expr) -> sp.Expr:
    """``e`` without the terms whose coefficient is the round-off of equal floats cancelling
    (``7.2e-8·N/4 − 9.6e-8·N/4 + 2.4e-8·N/4`` leaves ``1e-24·N``, not a dependence on N)."""
    kept = [t for t in sp.Add.make_args(e)
            if t.is_number or abs(float(t.as_coeff_Mul()[0])) >= NEGLIGIBLE]
    return sp.Add(*kept)


_SIGNS: dict = {}  # difference (as a hashable Lin) → +1 / −1 / None: clocks repeat by shifts


def _decided_sign(d: Lin) -> int | None:
    """+1 when d ≥ 0 and −1 when d ≤ 0 for every admissible input; None when undecided."""
    key = d
    if key in _SIGNS:
        return _SIGNS[key]
    sign = None
    e = d.expr
    bounds = _floor_bounds(e)  # cheap and usually decisive; SymPy's assumptions are slow
    if bounds is not None:
        lo, hi = map(_without_residue, bounds)
        if lo.is_number and lo >= 0:
            sign = 1
        elif hi.is_number and hi <= 0:
            sign = -1
    if sign is None:
        if e.is_nonnegative:
            sign = 1
        elif e.is_nonpositive:
            sign = -1
    if len(_SIGNS) > 100_000:
        _SIGNS.clear()
    _SIGNS[key] = sign
    return sign


def _is_negative(d: Lin) -> bool:
    """d < 0 for every admissible input: by the floors' ranges, else by SymPy."""
    bounds = _floor_bounds(d.expr)
    if bounds is not None:
        hi = _without_residue(bounds[1])
        if hi.is_number and hi < 0:
            return True
    return bool(d.expr.is_negative)


def difference(a: Time, b: Time) -> Time:
    """a − b, without the round-off residue of equal terms cancelling."""
    if not is_symbolic(a) and not is_symbolic(b):
        return float(a) - float(b)
    return as_time(_difference(a, b))


def decided_sign(x: Time) -> int | None:
    """+1 when x ≥ 0 and −1 when x < 0 (x ≤ 0 when symbolic) for every admissible input;
    None when undecided."""
    if not is_symbolic(x):
        return 1 if float(x) >= 0 else -1
    return _decided_sign(Lin.of(x))


def latest(values: list[sp.Expr]) -> sp.Expr:
    out = values[0]
    for v in values[1:]:
        out = later(out, v)
    return out


_PROBES = ((7, 0.37), (1000, 2.5), (123457, 0.011), (31, 17.0))


def same(a: Time, b: Time) -> bool:
    """a == b for every admissible input. Exact when the difference is a number; otherwise
    tested at fixed probe points (integers for integer symbols), which separates the
    piecewise-polynomial clocks the engine builds without a slow symbolic simplify."""
    if not is_symbolic(a) and not is_symbolic(b):
        return abs(float(a) - float(b)) <= 1e-13 + 1e-12 * abs(float(a))
    diff = _difference(a, b)
    if not diff.terms:
        return abs(diff.c) <= 1e-14
    a, b = as_sympy(Lin.of(a).expr), as_sympy(Lin.of(b).expr)
    d = a - b
    if d == 0:
        return True
    if d.is_number:
        return abs(complex(d)) <= 1e-14  # seconds: far below any cost in a spec
    symbols = sorted(d.free_symbols, key=lambda s: s.name)
    for k, (i, r) in enumerate(_PROBES):
        point = {s: sp.Integer(i + 13 * j) if s.is_integer else sp.Float(r + j)
                 for j, s in enumerate(symbols)}
        try:
            value = complex(d.subs(point).evalf())
            scale = abs(complex(a.subs(point).evalf())) + 1
        except (TypeError, ValueError):
            return False
        if abs(value) > 1e-12 * scale:
            return False
    return True
