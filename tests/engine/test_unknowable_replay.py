"""A closed-form loop whose values are bound to be unknown is not replayed (engine/unknowable.py).

RES computes ``R(K) = V(K) - 2·T(K)`` in a closed-form loop; R is critical (the probe IF
reads R(1)), so the loop's data flow used to be replayed, element by element. When V holds no
known value (it was filled by a loop nothing replays: V steers nothing), every R(K) the replay
computes is unknown: R is forgotten at once instead, and the IF reading R(1) is data-dependent,
``p_unkn_f_<line>``, as it was after the replay. When V is known (assigned element by element, outside any loop), the replay
is made and decides the IF.

The IF: THEN stores three constants, ELSE one (Tables 1 and 2 of the iPSC/860 spec: STORE =
2 clocks = 50 ns, COND = TAKEN = 25 ns): THEN = 3·STORE + COND + TAKEN = 200 ns, ELSE = STORE
+ 2·COND + TAKEN = 125 ns, so the formula's slope in the branch probability is 75 ns.
"""

from __future__ import annotations

from pytest import approx

from interp.engine.process import Process

from .helpers import COND, NOSTEP_ITER, STORE, TAKEN, formula_at, probe_if, run

FILL = """\
      DO 10 I = 1, 9
         V(I) = DBLE(I) * 0.5D0
   10 CONTINUE
"""
KNOWN = "".join(f"      V({i}) = {{v}}\n" for i in range(1, 10))  # stepped: each value known
SOURCE = """\
      PROGRAM UNKN
      INTEGER I
      DOUBLE PRECISION V(9), R(8), X, Y, Z
{v}      CALL RES(V, R)
""" + probe_if("R(1) .GT. 0.0D0") + """\
      END
      SUBROUTINE RES(V, R)
      DOUBLE PRECISION V(9), R(8), T(8)
      INTEGER K
      DO 30 K = 1, 8
         T(K) = V(K) + V(K + 1)
         R(K) = V(K) - 2.0D0 * T(K)
   30 CONTINUE
      END
"""
THEN = 3 * STORE + COND + TAKEN
ELSE = STORE + 2 * COND + TAKEN


def _predict(tmp_path, monkeypatch, v: str, source: str = SOURCE):
    """The prediction, and the names the interpretation assigned a value, with how often."""
    text = source.format(v=v) if v else source
    folder = tmp_path / f"v{len(list(tmp_path.iterdir()))}"  # (AAGs are cached by path)
    folder.mkdir()
    path = folder / "unkn.f"
    path.write_text(text)
    assigned: dict[str, int] = {}
    original = Process._assign

    def counting(self, s, frame, resolve):
        assigned[s.target.name] = assigned.get(s.target.name, 0) + 1
        return original(self, s, frame, resolve)

    monkeypatch.setattr(Process, "_assign", counting)
    lines = text.splitlines()
    line = lines.index("      IF (R(1) .GT. 0.0D0) THEN") + 1 if source is SOURCE else None
    return run(str(path), 1), assigned, f"p_unkn_f_{line}"


def test_the_hand_arithmetic():
    assert THEN - ELSE == approx(75e-9)


def test_a_field_bound_to_be_unknown_is_not_replayed(tmp_path, monkeypatch):
    pred, assigned, name = _predict(tmp_path, monkeypatch, FILL)
    assert "R" not in assigned and "T" not in assigned  # the replay's 16 assignments: none
    assert list(pred.data) == [name]  # the IF reading R(1) weighs its arms
    slope = formula_at(pred.total, **{name: 1}) - formula_at(pred.total, **{name: 0})
    assert slope == approx(THEN - ELSE)


def test_a_field_with_known_values_is_replayed(tmp_path, monkeypatch):
    """V = 1 throughout: R(1) = 1 − 2·(1 + 1) = −3, the ELSE arm; V = −1: R(1) = −1 − 2·(−2)
    = 3, the THEN arm. The replay decides the IF: the two differ by THEN − ELSE."""
    pred, assigned, _ = _predict(tmp_path, monkeypatch, KNOWN.format(v="1.0D0"))
    assert assigned["R"] == 8 and assigned["T"] == 8
    assert not pred.data
    then, _, _ = _predict(tmp_path, monkeypatch, KNOWN.format(v="-1.0D0"))
    assert not then.data
    assert float(then.seconds) - float(pred.seconds) == approx(THEN - ELSE)


# A replay made for a steering value (N, the bound of DO 50) passes over the assignments to a
# field that holds nothing known (R, from V, whose 2000 values are over the replay's budget of
# 1024 statements: forgotten): N is followed, R is not computed element by element. N = C·M leaves the loop with N = 2·C; DO 50 then runs 2·C times, each iteration
# Per-Iter Ovhd (No Step) + a store (Tables 1 and 2: 11 + 2 clocks at mid range).
STEERING = """\
      PROGRAM INERT
      INTEGER I, J, M, N
      DOUBLE PRECISION V(2000), R(8), X, Y, Z
      DO 10 I = 1, 2000
         V(I) = DBLE(I) * 0.5D0
   10 CONTINUE
      DO 20 M = 1, 2
         N = {c} * M
         DO 30 I = 1, 4
            R(I + 4 * (M - 1)) = V(I) - 2.0D0 * V(I + 1)
   30    CONTINUE
   20 CONTINUE
      DO 50 J = 1, N
         X = 1.0D0
   50 CONTINUE
""" + probe_if("R(1) .GT. 0.0D0") + """\
      END
"""


def test_a_replay_for_a_steering_value_passes_over_the_field(tmp_path, monkeypatch):
    times = {}
    for c in (3, 4):
        pred, assigned, _ = _predict(tmp_path, monkeypatch, "", STEERING.replace("{c}", str(c)))
        assert assigned.get("N") == 2 and "R" not in assigned  # 8 assignments to R passed over
        assert [s.line for s in pred.data.values()] == [16]  # the IF on R(1) is data
        times[c] = formula_at(pred.total, **{n: 0.5 for n in pred.data})
    assert times[4] - times[3] == approx((2 * 4 - 2 * 3) * (NOSTEP_ITER + STORE))


# R and S are the same array A (S from its fifth element): the replay writes known values into
# A through S, which T then reads through R. A holds nothing when the replay starts, but R is
# not bound to hold nothing through it: T is replayed, T(1) = 2·1 = 2, and the IF is decided.
ALIASED = """\
      PROGRAM ALIAS
      DOUBLE PRECISION A(8), T(4), X, Y, Z
      CALL P(A, A(5), T)
""" + probe_if("T(1) .GT. 1.0D0") + """\
      END
      SUBROUTINE P(R, S, T)
      DOUBLE PRECISION R(8), S(4), T(4)
      INTEGER I
      DO 10 I = 1, 4
         S(I) = 1.0D0
         T(I) = R(I + 4) * 2.0D0
   10 CONTINUE
      END
"""


def test_an_array_written_through_another_name_is_replayed(tmp_path, monkeypatch):
    pred, assigned, _ = _predict(tmp_path, monkeypatch, "", ALIASED)
    assert assigned["T"] == 4
    assert not pred.data  # decided: T(1) = 2 > 1
