"""The --model grammar: terms as the paper writes them, mistakes as InterpErrors, and no text
that crashes it."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from interp.analysis.lca_model import parse_model
from interp.errors import InterpError


@pytest.mark.parametrize("text, shown", [
    ("p*sqrt(p)", "p*sqrt(p)"),
    ("p^1.5", "p*sqrt(p)"),  # the same term
    ("p + 1", "p + 1"),
    ("n*log(n)", "n*log(n)"),
    ("N^2 * LOG(N)", "n^2*log(n)"),
    ("n/p", "n/p"),
    ("1/p + 1", "1/p + 1"),
    ("(n/p)^2", "n^2/p^2"),
    ("sqrt(n*p)/p", "sqrt(n)/sqrt(p)"),
    ("p**-1", "1/p"),
    ("log2(p)^2", "log2(p)^2"),
    ("0", "0"),
])
def test_models_as_the_paper_writes_them(text, shown):
    m = parse_model(text)
    assert str(m) == shown
    assert parse_model(str(m)) == m


def test_term_values():
    # p*sqrt(p) at p = 4, 9: 8, 27; n^2*log(n) at n = e: e²; n/p at (6, 3): 2.
    env = {"p": np.array([4.0, 9.0]), "n": np.array([np.e, 6.0])}
    (t,) = parse_model("p*sqrt(p)").terms
    assert t.values(env) == pytest.approx([8.0, 27.0])
    (t,) = parse_model("n^2*log(n)").terms
    assert t.values(env)[0] == pytest.approx(np.e ** 2)
    (t,) = parse_model("n/p").terms
    assert t.values({"n": np.array([6.0]), "p": np.array([3.0])}) == pytest.approx([2.0])


@pytest.mark.parametrize("text, message, column", [
    ("2*p", "the number 2 would only be absorbed", 1),
    ("p + p", "the term p appears twice", 5),
    ("foo(p)", "unknown function foo", 1),
    ("p +", "the model ends too early", 4),
    ("p $ 1", "unexpected character '$'", 3),
    ("0 + p", "the number 0 would only be absorbed", 1),
    ("p^99", "the exponent 99 is not", 3),
    ("", "empty model", 1),
])
def test_mistakes_name_the_column(text, message, column):
    with pytest.raises(InterpError) as err:
        parse_model(text)
    assert message in err.value.message
    assert err.value.location.column == column


def _parses_or_explains(text: str) -> None:
    try:
        m = parse_model(text)
    except InterpError as err:
        err.render()  # the message renders too
        return
    assert parse_model(str(m)) == m  # what is shown reads back as the same model


@settings(max_examples=400, deadline=None)
@given(st.text(max_size=80))
def test_any_text_parses_or_raises_interp_error(text):
    _parses_or_explains(text)


@settings(max_examples=600, deadline=None)
@given(st.text(alphabet="pnPN()*+-/^. 0123456789e sqrtlog2", max_size=60))
def test_model_like_text_parses_or_raises_interp_error(text):
    _parses_or_explains(text)
