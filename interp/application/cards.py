"""The card reader: physical source lines → logical statements ("cards").

Fixed form (F77): columns 1–5 label, column 6 continuation, 7–72 statement, text past 72
ignored; ``C``/``c``/``*`` in column 1 and ``!`` start comments; tab-form lines (a tab in
columns 1–6) put the statement right after the tab, a digit after the tab marks a continuation.
Free form (``.f90``): ``&`` continues a line, ``!`` comments.

Statement text is upper-cased outside character constants (Fortran is case-insensitive) and every
character keeps its physical (line, column), so any later error points at the user's text.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from interp.errors import InterpError, SourceLocation

MAX_CONTINUATIONS = 19  # F77 standard, section 3.3
STATEMENT_END_COLUMN = 72
FIXED_FORM_SUFFIXES = {".f", ".for", ".ftn", ".f77", ".fpp", ".h", ".inc"}
FREE_FORM_SUFFIXES = {".f90", ".f95", ".f03"}


@dataclass(frozen=True)
class Card:
    """One logical statement with its label and the source position of every character."""

    file: str
    label: int | None
    text: str
    columns: tuple[tuple[int, int], ...]  # (line, column) of text[i]
    line: int
    end_line: int
    raw_lines: tuple[str, ...]  # the physical lines, for error messages
    cut: tuple[int, ...] = ()  # fixed form: its lines with text past column 72 (ignored)

    def location(self, offset: int = 0) -> SourceLocation:
        """The physical place of character ``offset`` of the statement text (an offset at or
        past the end is the column just after the last character)."""
        if not self.columns:
            return SourceLocation(self.file, self.line, 7, self.end_line)
        if offset >= len(self.columns):
            line, col = self.columns[-1]
            return SourceLocation(self.file, line, col + 1, self.end_line)
        line, col = self.columns[max(offset, 0)]
        return SourceLocation(self.file, line, col, self.end_line)

    def source_line(self, line: int) -> str:
        return self.raw_lines[line - self.line] if self.line <= line <= self.end_line else ""

    def error(self, message: str, offset: int = 0, *, hint: str | None = None, cls=InterpError):
        loc = self.location(offset)
        return cls(message, loc, hint=hint, source_line=self.source_line(loc.line))


def _upcase_code(text: str, in_string: str | None) -> tuple[str, str | None]:
    """Upper-case ``text`` outside quotes; also returns the open quote carried to the next line."""
    out = []
    for ch in text:
        if in_string:
            out.append(ch)
            if ch == in_string:
                in_string = None
        elif ch in "'\"":
            in_string = ch
            out.append(ch)
        else:
            out.append(ch.upper())
    return "".join(out), in_string


def _strip_bang_comment(text: str, in_string: str | None) -> str:
    """Drop a trailing ``! comment`` that is not inside a character constant."""
    quote = in_string
    for i, ch in enumerate(text):
        if quote:
            if ch == quote:
                quote = None
        elif ch in "'\"":
            quote = ch
        elif ch == "!":
            return text[:i]
    return text


class _Builder:
    """Accumulates the pieces of one logical statement."""

    def __init__(self, file: str) -> None:
        self.file = file
        self.cards: list[Card] = []
        self._reset()

    def _reset(self) -> None:
        self.label: int | None = None
        self.chars: list[str] = []
        self.cols: list[tuple[int, int]] = []
        self.lines: list[str] = []
        self.first = 0
        self.continuations = 0
        self.quote: str | None = None
        self.cut: list[int] = []

    @property
    def open(self) -> bool:
        return bool(self.lines)

    def start(self, label: int | None, lineno: int, raw: str) -> None:
        self.flush()
        self.label, self.first, self.lines = label, lineno, [raw]

    def add(self, text: str, lineno: int, first_col: int, past: str = "") -> None:
        if past.strip():  # (card decks' sequence numbers too: said only on a syntax error)
            self.cut.append(lineno)
        if self.quote is None and "'" not in text and '"' not in text:  # the common case
            upper = text.split("!", 1)[0].upper()
        else:
            upper, self.quote = _upcase_code(_strip_bang_comment(text, self.quote), self.quote)
        self.chars.extend(upper)
        self.cols.extend((lineno, col) for col in range(first_col, first_col + len(upper)))

    def flush(self) -> None:
        if not self.open:
            return
        text = "".join(self.chars)
        lead = len(text) - len(text.lstrip())
        body = text.strip()
        cols = tuple(self.cols[lead : lead + len(body)])
        if body or self.label is not None:
            last = self.first + len(self.lines) - 1
            self.cards.append(
                Card(self.file, self.label, body, cols, self.first, last, tuple(self.lines),
                     tuple(self.cut))
            )
        self._reset()


def _is_number(text: str) -> bool:
    """ASCII digits only: ``str.isdigit`` also accepts characters such as '²' that ``int`` rejects."""
    return text.isascii() and text.isdigit()


def _label(field: str, file: str, lineno: int, raw: str) -> int | None:
    field = field.strip()
    if not field:
        return None
    if not _is_number(field):
        raise InterpError(
            f"statement label {field!r} is not a number",
            SourceLocation(file, lineno, 1),
            hint="columns 1-5 of a fixed-form line hold a numeric label or blanks",
            source_line=raw,
        )
    return int(field)


def _count_continuation(b: _Builder, file: str, lineno: int, column: int, raw: str) -> None:
    b.continuations += 1
    if b.continuations > MAX_CONTINUATIONS:
        raise InterpError(
            f"more than {MAX_CONTINUATIONS} continuation lines",
            SourceLocation(file, lineno, column),
            hint="Fortran 77 allows at most 19 continuation lines per statement",
            source_line=raw,
        )


def read_fixed_form(text: str, file: str) -> list[Card]:
    """Split fixed-form source into logical statements."""
    b = _Builder(file)
    for lineno, raw in enumerate(text.splitlines(), start=1):
        raw = raw.rstrip("\r\n")
        if not raw.strip() or raw[0] in "Cc*":
            continue
        if raw.lstrip().startswith("!") and raw.find("!") != 5:  # '!' in column 6 continues
            continue
        tab = raw.find("\t")
        if 0 <= tab < 6:  # tab form: label before the tab, statement after it
            label_field, rest = raw[:tab], raw[tab + 1 :]
            if _is_number(rest[:1]) and rest[:1] != "0" and b.open:
                _count_continuation(b, file, lineno, tab + 2, raw)
                b.lines.append(raw)
                b.add(rest[1:STATEMENT_END_COLUMN - 6], lineno, tab + 3,
                      rest[STATEMENT_END_COLUMN - 6:])
                continue
            b.start(_label(label_field, file, lineno, raw), lineno, raw)
            b.add(rest[: STATEMENT_END_COLUMN - 6], lineno, tab + 2,
                  rest[STATEMENT_END_COLUMN - 6:])
            continue
        label, mark = _label(raw[:5], file, lineno, raw), raw[5:6]
        if mark not in ("", " ", "0"):
            if not b.open:
                raise InterpError(
                    "continuation line with no statement to continue",
                    SourceLocation(file, lineno, 6),
                    hint="a character in column 6 continues the previous statement",
                    source_line=raw,
                )
            if label is not None:
                raise InterpError(
                    "a continuation line cannot carry a label",
                    SourceLocation(file, lineno, 1),
                    source_line=raw,
                )
            _count_continuation(b, file, lineno, 6, raw)
            b.lines.append(raw)
            b.add(raw[6:STATEMENT_END_COLUMN], lineno, 7, raw[STATEMENT_END_COLUMN:])
            continue
        b.start(label, lineno, raw)
        b.add(raw[6:STATEMENT_END_COLUMN], lineno, 7, raw[STATEMENT_END_COLUMN:])
    b.flush()
    return b.cards


def read_free_form(text: str, file: str) -> list[Card]:
    """Split free-form (Fortran 90 style) source into logical statements."""
    b = _Builder(file)
    continuing = False
    for lineno, raw in enumerate(text.splitlines(), start=1):
        raw = raw.rstrip("\r\n")
        stripped = raw.strip()
        if not stripped or stripped.startswith("!"):
            continue
        code = _strip_bang_comment(raw, b.quote if continuing else None).rstrip()
        indent = len(code) - len(code.lstrip())
        body = code.lstrip()
        if continuing:
            b.lines.append(raw)
            if body.startswith("&"):
                body, indent = body[1:], indent + 1
        else:
            label = None
            head = body.split(None, 1)
            if head and _is_number(head[0]):
                label = int(head[0])
                rest = body[len(head[0]) :]
                indent += len(head[0]) + (len(rest) - len(rest.lstrip()))
                body = rest.lstrip()
            b.start(label, lineno, raw)
        continuing = body.endswith("&")
        if continuing:
            body = body[:-1]
        b.add(body, lineno, indent + 1)
    b.flush()
    return b.cards


def is_free_form(path: str | Path) -> bool:
    return Path(path).suffix.lower() in FREE_FORM_SUFFIXES


def read_included(path: Path, free: bool) -> list[Card]:
    """An INCLUDEd file, whatever its name: it takes the including file's form (``free``)."""
    try:
        text = path.read_text(encoding="utf-8", errors="replace")
    except OSError as err:
        raise InterpError(f"cannot read {path}: {err.strerror}") from None
    return (read_free_form if free else read_fixed_form)(text, str(path))


def read_source(path: str | Path, display_name: str | None = None) -> list[Card]:
    """Read a source file into cards, choosing fixed or free form by its suffix."""
    path = Path(path)
    name = display_name or str(path)
    if not path.exists():
        raise InterpError(f"no such file: {name}", hint="check the path and try again")
    if path.is_dir():
        raise InterpError(f"{name} is a directory, not a Fortran source file")
    suffix = path.suffix.lower()
    if suffix not in FIXED_FORM_SUFFIXES | FREE_FORM_SUFFIXES:
        raise InterpError(
            f"{name}: unrecognised file extension {path.suffix!r}",
            hint="give a Fortran source file: .f/.for/.f77 (fixed form) or .f90 (free form)",
        )
    try:
        text = path.read_text(encoding="utf-8", errors="replace")
    except OSError as err:
        raise InterpError(f"cannot read {name}: {err.strerror}") from None
    if not text.strip():
        raise InterpError(f"{name} is empty", hint="give a file holding a Fortran program unit")
    reader = read_free_form if suffix in FREE_FORM_SUFFIXES else read_fixed_form
    return reader(text, name)
