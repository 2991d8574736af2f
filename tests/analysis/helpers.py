"""Lost-cycles data files for the lca tests, written the way interp lost-cycles writes them."""

from __future__ import annotations

import csv
import json
from pathlib import Path

from interp.analysis.lca_data import COLUMNS

PARTS = ("li", "ip", "sl", "cl", "rc", "remaining")


def row(p: int, program: str = "prog", source: str = "predicted", inputs: str = "",
        **parts: float) -> dict:
    """One by=program row; categories not given are 0, tp and total follow from the parts."""
    values = {c: float(parts.get(c, 0.0)) for c in PARTS}
    total = sum(values.values())
    return {"source": source, "program": program, "machine": "ipsc860", "p": p, "vars": inputs,
            "by": "program", "key": "", **values, "tp": total / p, "total": total}


def write_csv(path: Path, rows: list[dict], columns=COLUMNS) -> Path:
    with open(path, "w", newline="") as f:
        w = csv.DictWriter(f, columns, extrasaction="ignore")
        w.writeheader()
        w.writerows(rows)
    return path


def write_jsonl(path: Path, rows: list[dict]) -> Path:
    path.write_text("".join(json.dumps(r) + "\n" for r in rows))
    return path
