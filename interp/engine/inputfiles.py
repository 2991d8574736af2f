"""What OPEN, READ, INQUIRE and CLOSE do to a process's values: the program's input files.

A file the program OPENs is the one named with ``--input-file NAME=PATH`` (``AAG.input_files``)
or else NAME itself, relative to the current folder, as the real program would find it. When
it is absent, an OPEN with STATUS='OLD' fails: its IOSTAT= variable gets a nonzero value (its
ERR= branch is taken), so the program's own fallback path runs, and the prediction says so.
When it is there, list-directed ``READ (u, *) items`` reads its values in order, so they
become known values; a READ with a FORMAT reads one record whose values are not followed.
Reads from units interp does not read (standard input, internal files) leave the items as
inputs and are taken to succeed (IOSTAT = 0).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

import sympy as sp

from interp.application import ast
from interp.application.expr import SymbolicError, as_sympy
from interp.engine.values import Frame, Unknown, fast_or_symbolic

OPEN_FAILED = 2  # the IOSTAT of a failed OPEN (gfortran's "no such file")
END_OF_FILE = -1  # the IOSTAT of a READ past the end of the file
READ_ERROR = 1  # the IOSTAT of a READ of a value that is not of its item's type


@dataclass
class InputFile:
    """An open file's records (lines) and the next record to read."""

    name: str
    records: list[str]
    next: int = 0

    def values(self, count: int) -> list[str | None] | None:
        """Up to ``count`` list-directed values from the next record(s), ``None`` for a null
        value. Each READ starts a record and reads at least one (``READ (u, *)`` with no items
        skips one); the rest of the last record read is skipped. None at the end of the file."""
        if self.next >= len(self.records):
            return None
        out: list[str | None] = []
        while self.next < len(self.records):
            values, stop = _split_record(self.records[self.next])
            self.next += 1
            out.extend(values)
            if stop or len(out) >= count:
                break
        return out[:count]


_TOKEN = re.compile(r"""\s*('(?:[^']|'')*'|"(?:[^"]|"")*"|[^\s,/]+|/|,)""")


MAX_REPEAT = 1_000_000  # values one list-directed record spells out, at most


def _split_record(record: str) -> tuple[list[str | None], bool]:
    """A record's values (``r*c`` repeated, ``r*`` and ``,,`` null) and whether a ``/``
    ended the read."""
    out: list[str | None] = []
    after_value = False
    for m in _TOKEN.finditer(record):
        tok = m.group(1)
        if tok == "/":
            return out, True
        if tok == ",":
            if not after_value:
                out.append(None)
            after_value = False
            continue
        repeat, star, value = tok.partition("*")
        if star and repeat.isascii() and repeat.isdigit() and not tok.startswith(("'", '"')):
            # a READ list takes what it needs and drops the rest of the record, so a count
            # past any list interp reads (``99999999999*0``) need not be spelled out
            out.extend([value or None] * min(int(repeat), MAX_REPEAT))
        else:
            out.append(tok)
        after_value = True
    return out, False


def convert(text: str, ftype: str) -> sp.Expr | None:
    """A list-directed value as a value of ``ftype``; None when interp does not track it
    (characters) or cannot read it."""
    word = text.upper().replace("D", "E")
    try:
        if ftype == "INTEGER":
            return sp.Integer(int(word))
        if ftype in ("REAL", "DOUBLE"):
            value = float(word)
            return sp.Integer(int(value)) if value.is_integer() and abs(value) < 2**53 else sp.Float(value)
        if ftype == "LOGICAL":
            letter = word.lstrip(".")[:1]
            return {"T": sp.true, "F": sp.false}.get(letter)
    except ValueError:
        return None
    return None


def _number(e: ast.Expr | None, frame: Frame, resolve) -> int | None:
    if e is None or isinstance(e, ast.Str):
        return None
    try:
        v = fast_or_symbolic(e, frame.table, resolve)
    except (SymbolicError, ZeroDivisionError, TypeError):
        return None
    v = as_sympy(v)
    return int(v) if v.is_Integer else None


def _text(e: ast.Expr | None) -> str | None:
    return e.value.strip() if isinstance(e, ast.Str) else None


def _set(frame: Frame, target: ast.Expr | None, value, resolve) -> None:
    if isinstance(target, ast.Var):
        frame.set(target.name, value)
    elif isinstance(target, ast.Ref):
        try:
            indices = [as_sympy(fast_or_symbolic(i, frame.table, resolve)) for i in target.args]
        except (SymbolicError, ZeroDivisionError, TypeError):
            indices = [sp.Symbol("?")]
        frame.assign(target.name, indices, value)


class Files:
    """One process's open units."""

    def __init__(self, input_files: dict[str, str], note) -> None:
        self.input_files = input_files
        self.note = note
        self.units: dict[int, InputFile] = {}

    def _find(self, name: str) -> Path | None:
        path = Path(self.input_files.get(name, name))
        return path if path.is_file() else None

    def file_op(self, s: ast.FileOp, frame: Frame, resolve) -> None:
        unit = _number(s.specs.get("UNIT"), frame, resolve)
        where = f"{Path(s.loc.file).name}:{s.loc.line}"
        if s.kind == "OPEN":
            self._open(s, unit, frame, resolve, where)
        elif s.kind == "CLOSE":
            self.units.pop(unit, None)
            _set(frame, s.specs.get("IOSTAT"), sp.Integer(0), resolve)
        elif s.kind == "REWIND" and unit in self.units:
            self.units[unit].next = 0
        elif s.kind == "INQUIRE":
            self._inquire(s, unit, frame, resolve)
        else:
            _set(frame, s.specs.get("IOSTAT"), sp.Integer(0), resolve)

    def _open(self, s: ast.FileOp, unit: int | None, frame: Frame, resolve, where: str) -> None:
        name = _text(s.specs.get("FILE"))
        status = (_text(s.specs.get("STATUS")) or "UNKNOWN").upper()
        iostat = s.specs.get("IOSTAT")
        if name is None:  # a computed file name: interp does not follow characters
            _set(frame, iostat, Unknown(f"the file opened at {where} has a name interp does "
                                        "not follow"), resolve)
            return
        path = self._find(name)
        if path is None and status == "OLD":
            if iostat is None:  # no IOSTAT= (nor ERR=): the real program stops here
                self.note(f"{name}: absent; the program, which does not test the OPEN, would "
                          f"stop there with an error; interp goes on as if it were empty ({where})")
            else:
                self.note(f"{name}: absent, the program's fallback path is taken ({where})")
                _set(frame, iostat, sp.Integer(OPEN_FAILED), resolve)
                return
        records = []
        if path is not None:
            records = path.read_text(errors="replace").splitlines()
            self.note(f"{name}: read from {path} ({where})")
        if unit is not None:
            self.units[unit] = InputFile(name, records)
        _set(frame, iostat, sp.Integer(0), resolve)

    def _inquire(self, s: ast.FileOp, unit: int | None, frame: Frame, resolve) -> None:
        name = _text(s.specs.get("FILE"))
        for key, target in s.specs.items():
            if key == "EXIST" and name is not None:
                _set(frame, target, sp.true if self._find(name) else sp.false, resolve)
            elif key == "OPENED" and unit is not None:
                _set(frame, target, sp.true if unit in self.units else sp.false, resolve)
            elif key == "IOSTAT":
                _set(frame, target, sp.Integer(0), resolve)
            elif key not in ("UNIT", "FILE", "ERR") and isinstance(target, (ast.Var, ast.Ref)):
                frame.forget(target.name)

    def read(self, s: ast.Read, frame: Frame, resolve) -> bool:
        """Read ``s``'s items from its unit; False when interp does not read that unit."""
        unit = _number(s.specs.get("UNIT"), frame, resolve)
        fmt = s.specs.get("FMT")
        file = self.units.get(unit) if unit is not None else None
        iostat = s.specs.get("IOSTAT")
        if file is None:
            _set(frame, iostat, sp.Integer(0), resolve)
            return False
        if not (isinstance(fmt, ast.Str) and fmt.value == "*"):  # a FORMAT: one record read,
            at_end = file.values(0) is None                      # its values not interpreted
            why = f"it is read at line {s.loc.line} with a FORMAT interp does not interpret"
            for item in s.items:
                for target, _bindings in _targets([item], frame, resolve):
                    frame.forget(target.name, why)
            _set(frame, iostat, sp.Integer(END_OF_FILE if at_end else 0), resolve)
            return True
        targets = list(_targets(s.items, frame, resolve))
        values = file.values(len(targets))
        if values is None:
            _set(frame, iostat, sp.Integer(END_OF_FILE), resolve)
            return True
        for (target, bindings), text in zip(targets, values):
            for var, v in bindings:
                frame.set(var, sp.Integer(v))
            if text is None:
                continue
            sym = frame.table.lookup(target.name, target.loc)
            value = convert(text, sym.type)
            if value is not None:
                _set(frame, target, value, resolve)
            elif sym.type == "CHARACTER":  # characters are not followed
                frame.forget(target.name)
            else:  # not a number (or logical): a read error, as the run would have
                _set(frame, iostat, sp.Integer(READ_ERROR), resolve)
                return True
        short = len(values) < len(targets)
        _set(frame, iostat, sp.Integer(END_OF_FILE if short else 0), resolve)
        return True


def _targets(items: list[ast.Expr], frame: Frame, resolve, bindings=()):
    """Each item to read, with the implied-DO index values it is read under."""
    for item in items:
        if isinstance(item, ast.ImpliedDo):
            lo, hi = _number(item.start, frame, resolve), _number(item.stop, frame, resolve)
            step = _number(item.step, frame, resolve) if item.step is not None else 1
            if lo is None or hi is None or not step:
                continue
            for i in range(lo, hi + (1 if step > 0 else -1), step):
                frame.set(item.var, sp.Integer(i))
                yield from _targets(item.items, frame, resolve, (*bindings, (item.var, i)))
        elif isinstance(item, (ast.Var, ast.Ref)):
            yield item, bindings
