"""The Scale tables docs/scalability.md shows, as interp printed them (trapezoid, Jacobi, NPB MG;
seed 002's Scale(P, P') and seed 004's scale(E, (N, N'))), obey the product rule
Scale(P, P'') = Scale(P, P')·Scale(P', P'') to their rounding.

interp makes every entry as lat[P]/lat[P'] of one list of latencies, so the rule holds exactly
before printing (test_scalability_study.py); the printed entries have 4 significant digits
(``scale_text``), so the allowed gap is the rounding bound of the three printed values, half a
unit in the 4th digit of each, carried through the product. A table pasted from an older run
beside a newer one, or edited by hand, breaks it. Seed 004's integral table (3.8) is an average
of such ratios over E, not a ratio of one list: the rule need not hold there and is not checked."""

from __future__ import annotations

import math
import re
from pathlib import Path

from interp.analysis.scalability import product_rule

DOC = Path(__file__).resolve().parents[2] / "docs" / "scalability.md"
CORNERS = ("P, P'", "N, N'")
ROW = re.compile(r"^│\s*(\d+)\s*│(.*)│\s*$")


def half_unit(printed: str) -> float:
    """Half a unit in the 4th significant digit (``f"{v:.4g}"``)."""
    v = abs(float(printed))
    return 0.5 * 10.0 ** (math.floor(math.log10(v)) - 3)


def _title_lines(lines: list[str], j: int) -> list[str]:
    """The text above a table's top border, back to the code fence or the table before (a
    title wraps over lines when the path is long)."""
    out: list[str] = []
    for line in reversed(lines[:j + 1]):
        if line.startswith("┏"):
            continue
        if not line.strip() or line.startswith(("```", "└", "│")):
            break
        out.insert(0, line)
    return out


def printed_tables(text: str) -> dict[str, dict[tuple[int, int], str]]:
    """Every upper-triangular table in the doc's code blocks, by its title line."""
    tables: dict[str, dict[tuple[int, int], str]] = {}
    lines = text.splitlines()
    for i, line in enumerate(lines):
        cells = [c.strip() for c in line.strip("┃").split("┃")]
        if not line.startswith("┃") or cells[0] not in CORNERS:
            continue
        ps = [int(c) for c in cells[1:]]
        title = " ".join(_title_lines(lines, i - 1))
        table = tables.setdefault(f"{title} (line {i})", {})
        for row in lines[i + 2:]:
            m = ROW.match(row)
            if not m:
                break
            p = int(m.group(1))
            for q, v in zip(ps, (c.strip() for c in m.group(2).split("│"))):
                if v not in ("", "-"):
                    table[(p, q)] = v
    return tables


def test_every_printed_scale_table_obeys_the_product_rule():
    tables = printed_tables(DOC.read_text(encoding="utf-8"))
    titles = " ".join(tables)
    assert "of mg on cluster" in titles and "of jacobi_mpi" in titles and "of host" in titles
    checked = 0
    for title, printed in tables.items():
        if title.startswith("Scale(N, N') = ∫"):
            continue
        values = {k: float(v) for k, v in printed.items()}
        for p, q, r, a, bc in product_rule(values):
            if p == q or q == r:
                continue
            b, c = values[(p, q)], values[(q, r)]
            ea, eb, ec = (half_unit(printed[k]) for k in ((p, r), (p, q), (q, r)))
            assert abs(a - bc) <= ea + eb * c + ec * b + eb * ec + 1e-12, (title, p, q, r, a, bc)
            checked += 1
    assert checked >= 4 * (len(tables) - 1)  # 4 processor counts: C(4,3) = 4 triples a table


def test_the_parser_reads_a_table_and_the_rule_catches_an_edit():
    text = """Algorithmic scalability Scale(P, P') of x
┏━━━━━━━┳━━━━┳━━━━━━━━┳━━━━━━━━┓
┃ P, P' ┃  2 ┃      4 ┃      8 ┃
┡━━━━━━━╇━━━━╇━━━━━━━━╇━━━━━━━━┩
│     2 │  1 │ 0.6206 │ 0.5212 │
│     4 │    │      1 │ 0.8398 │
│     8 │    │        │      1 │
├───────┼────┼────────┼────────┤
"""
    ((title, table),) = printed_tables(text).items()
    assert title.startswith("Algorithmic") and table[(2, 8)] == "0.5212" and len(table) == 6
    # 0.6206 x 0.8398 = 0.52118: within 0.00005 + 0.00005 x 0.8398 + 0.00005 x 0.6206 of 0.5212
    ((_, _, _, a, bc),) = [t for t in product_rule({k: float(v) for k, v in table.items()})
                           if t[0] < t[1] < t[2]]
    assert abs(a - bc) < 1.2e-4
    assert abs(0.5312 - bc) > 1.2e-4  # a misprint in the last column's first digit is caught
