"""Models for lost cycles analysis (Crovella and LeBlanc's ``lca``): a sum of terms, each with
its own fitted coefficient, such as ``p*sqrt(p) + p + 1`` or ``n^2*log(n)``.

A term is a product of *factors*, each a base (a variable, or ``log``/``log2`` of a term)
raised to an exact rational power, so ``p*sqrt(p)`` and ``p^1.5`` are the same term and
``sqrt`` distributes over a product. User text is parsed with ``grammars/lca_model.lark``
and never evaluated as code.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache

import numpy as np
from lark import Lark, Token, Tree
from lark.exceptions import LarkError, UnexpectedCharacters, UnexpectedToken

from interp.errors import InterpError, SourceLocation
from interp.cache import grammar_cache
from interp.resources import grammar_path

WHERE = "--model"
MAX_TEXT = 200  # a model is a handful of terms; this also bounds the nesting depth
MAX_EXPONENT = 8
LOGS = {"log": np.log, "log2": np.log2}
FUNCTIONS = ("sqrt", *LOGS)
EXAMPLE = "e.g. --model 'p*sqrt(p)', --model 'p + 1', --model 'n^2*log(n)' or --model 'n/p'"


@dataclass(frozen=True)
class Log:
    """``log(arg)`` (natural) or ``log2(arg)``."""

    name: str
    arg: Term

    def __str__(self) -> str:
        return f"{self.name}({self.arg})"

    def values(self, env: dict[str, np.ndarray]) -> np.ndarray:
        return LOGS[self.name](self.arg.values(env))



def _base_key(base) -> tuple:
    return (1, str(base)) if isinstance(base, Log) else (0, base)


@dataclass(frozen=True)
class Term:
    """A product of bases raised to non-zero exact powers (sorted; the empty product is 1)."""

    factors: tuple[tuple[object, Fraction], ...] = ()

    @staticmethod
    def of(powers: dict) -> Term:
        return Term(tuple(sorted(((b, e) for b, e in powers.items() if e != 0),
                                 key=lambda f: _base_key(f[0]))))

    def powers(self) -> dict:
        return dict(self.factors)

    def times(self, other: Term) -> Term:
        out = self.powers()
        for b, e in other.factors:
            out[b] = out.get(b, Fraction(0)) + e
        return Term.of(out)

    def power(self, k: Fraction) -> Term:
        return Term.of({b: e * k for b, e in self.factors})

    def variables(self) -> frozenset[str]:
        out: set[str] = set()
        for b, _e in self.factors:
            out |= b.arg.variables() if isinstance(b, Log) else {b}
        return frozenset(out)

    def values(self, env: dict[str, np.ndarray]) -> np.ndarray:
        """The term at every point of ``env`` (NaN or inf where it is undefined)."""
        n = len(next(iter(env.values()))) if env else 1
        out = np.ones(n)
        with np.errstate(all="ignore"):
            for b, e in self.factors:
                v = b.values(env) if isinstance(b, Log) else np.asarray(env[b], dtype=float)
                out = out * np.power(v, float(e))
        return out

    def __str__(self) -> str:
        num = [_factor_text(b, e) for b, e in self.factors if e > 0]
        den = [_factor_text(b, -e) for b, e in self.factors if e < 0]
        text = "*".join(num) or "1"
        if den:
            text += "/" + (den[0] if len(den) == 1 else "(" + "*".join(den) + ")")
        return text


def _factor_text(base, e: Fraction) -> str:
    """``p``, ``p^2``, ``sqrt(p)``, ``p*sqrt(p)`` (the paper's spelling), ``p^0.25``."""
    b = str(base)
    if e.denominator == 1:
        return b if e == 1 else f"{b}^{e}"
    if e.denominator == 2:
        whole = e - Fraction(1, 2)
        head = "" if whole == 0 else f"{b}*" if whole == 1 else f"{b}^{whole}*"
        return f"{head}sqrt({b})"
    return f"{b}^{float(e):.6g}"


@dataclass(frozen=True)
class Model:
    """A sum of terms, each with its own coefficient; no terms: the zero model (``0``)."""

    terms: tuple[Term, ...]

    def __str__(self) -> str:
        return " + ".join(str(t) for t in self.terms) or "0"

    def variables(self) -> frozenset[str]:
        return frozenset().union(*(t.variables() for t in self.terms))

    def design(self, env: dict[str, np.ndarray]) -> np.ndarray:
        """The design matrix: one column per term."""
        n = len(next(iter(env.values())))
        return np.column_stack([t.values(env) for t in self.terms]) if self.terms else np.zeros((n, 0))

    def without(self, term: Term) -> Model:
        return Model(tuple(t for t in self.terms if t != term))

    def plus(self, other: Model) -> Model:
        """The additive combination: every term of either (once)."""
        return Model(self.terms + tuple(t for t in other.terms if t not in self.terms))

    def times(self, other: Model) -> Model:
        """The multiplicative combination: every product of a term of each (once)."""
        out: list[Term] = []
        for a in self.terms:
            for b in other.terms:
                t = a.times(b)
                if t not in out:
                    out.append(t)
        return Model(tuple(out))


@lru_cache(maxsize=1)
def _parser() -> Lark:
    return Lark(grammar_path("lca_model.lark").read_text(encoding="utf-8"), parser="lalr",
                propagate_positions=True, cache=grammar_cache("lca_model.lark"))


def _error(text: str, message: str, column: int, hint: str = EXAMPLE) -> InterpError:
    return InterpError(message, SourceLocation(WHERE, 1, column), hint=hint, source_line=text)


def parse_model(text: str) -> Model:
    """Parse ``--model`` text; any mistake is an :class:`InterpError` naming the column."""
    if not text.strip():
        raise _error(text, "empty model", 1)
    if len(text) > MAX_TEXT:
        raise _error(text, f"a model is at most {MAX_TEXT} characters", MAX_TEXT + 1,
                     "a model is a short sum of terms, " + EXAMPLE)
    try:
        tree = _parser().parse(text)
    except UnexpectedCharacters as err:
        raise _error(text, f"unexpected character {text[err.pos_in_stream]!r}", err.column) from None
    except UnexpectedToken as err:
        if err.token.type == "$END":
            raise _error(text, "the model ends too early", len(text.rstrip()) + 1) from None
        raise _error(text, f"unexpected {str(err.token)!r}", err.column) from None
    except LarkError as err:  # any other parse failure is still the user's text
        raise _error(text, f"cannot read the model: {err}", 1) from None
    if _is_zero(tree):
        return Model(())
    terms: list[Term] = []
    for node in tree.children:
        t = _term(node, text)
        if t in terms:
            raise _error(text, f"the term {t} appears twice", node.meta.column,
                         "each term has one coefficient; write it once")
        terms.append(t)
    return Model(tuple(terms))


def _is_zero(tree: Tree) -> bool:
    """``0`` alone: the model that says the category is zero (the paper's SL)."""
    if len(tree.children) != 1:
        return False
    factors = tree.children[0].children
    if len(factors) != 1 or len(factors[0].children) != 1:
        return False
    atom = factors[0].children[0]
    return isinstance(atom, Tree) and atom.data == "number" and float(atom.children[0]) == 0


def _term(node: Tree, text: str) -> Term:
    out = Term()
    divide = False
    for child in node.children:
        if isinstance(child, Token):  # MULOP
            divide = child == "/"
            continue
        f = _factor(child, text)
        out = out.times(f.power(Fraction(-1)) if divide else f)
    return out


def _factor(node: Tree, text: str) -> Term:
    base = _atom(node.children[0], text)
    if len(node.children) == 1:
        return base
    exp_node = node.children[2]
    tokens = [t for t in exp_node.children if isinstance(t, Token)]
    number = tokens[-1]
    sign = -1 if any(t.type == "SIGN" for t in tokens) else 1
    if not 0 < float(number) <= MAX_EXPONENT:  # before Fraction, which would expand 1e999999
        raise _error(text, f"the exponent {number} is not a non-zero number between "
                     f"-{MAX_EXPONENT} and {MAX_EXPONENT}", number.column)
    return base.power(sign * Fraction(str(number)))


def _atom(node, text: str) -> Term:
    if node.data == "term":  # a parenthesized term
        return _term(node, text)
    if node.data == "name":
        tok = node.children[0]
        name = str(tok).lower()
        if name in FUNCTIONS:
            raise _error(text, f"{name} needs an argument in parentheses", tok.column)
        return Term.of({name: Fraction(1)})
    if node.data == "number":
        tok = node.children[0]
        if float(tok) != 1:
            raise _error(text, f"the number {tok} would only be absorbed by the term's "
                         "coefficient (0 can only be the whole model)", tok.column,
                         "write the term without it, e.g. 'p' for '2*p'")
        return Term()
    name_tok, arg_node = node.children
    name = str(name_tok).lower()
    arg = _term(arg_node, text)
    if name not in FUNCTIONS:
        raise _error(text, f"unknown function {name_tok}", name_tok.column,
                     "the functions are " + ", ".join(FUNCTIONS))
    if not arg.factors:
        raise _error(text, f"{name}(1) is a number, not a term", name_tok.column)
    if name == "sqrt":
        return arg.power(Fraction(1, 2))
    return Term.of({Log(name, arg): Fraction(1)})
