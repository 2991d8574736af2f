"""Level-1 parse, first half: cards → statements → program units.

Each logical statement is parsed on its own with the LALR grammar in
``grammars/fortran77.lark``; a Lark ``Transformer`` turns the tree into the dataclasses of
:mod:`interp.application.ast`. Errors carry the physical line and column of the offending text.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from functools import lru_cache
from pathlib import Path

from lark import Lark, Token, Transformer
from lark.exceptions import UnexpectedCharacters, UnexpectedEOF, UnexpectedInput

from interp.application import ast
from interp.application.cards import Card, is_free_form, read_included, read_source
from interp.errors import InterpError, SourceLocation, UnsupportedError
from interp import cache
from interp.cache import grammar_cache
from interp.resources import grammar_path

# What a user reads when a construct is valid Fortran that interp does not model, and what
# to write instead.
UNSUPPORTED_KEYWORDS = {
    "ENTRY": ("an ENTRY statement (an alternate entry point)",
              "make each entry point a SUBROUTINE or FUNCTION of its own"),
    "EQUIVALENCE": ("EQUIVALENCE (storage association)",
                    "give the storage one name, or copy between the variables"),
    "BLOCKDATA": ("a BLOCK DATA program unit",
                  "give the COMMON variables their values in the main program"),
    "PAUSE": ("PAUSE", "delete it (it waits for an operator)"),
    "NAMELIST": ("NAMELIST", "read and write the variables by name in a list"),
    "POINTER": ("Cray POINTER", "use an array or a dummy argument instead"),
}


@lru_cache(maxsize=1)
def _parser() -> tuple[Lark, "_ToAst"]:
    """The LALR parser with the AST builder run inside it (no parse tree is built)."""
    to_ast = _ToAst()
    lark = Lark(
        grammar_path("fortran77.lark").read_text(),
        parser="lalr",
        lexer="contextual",
        maybe_placeholders=False,
        cache=grammar_cache("fortran77.lark"),  # the LALR tables, pickled: a 3x faster start
        transformer=to_ast,
        start=["start", "assignment_stmt", "logical_if_assign"],
    )
    return lark, to_ast


def _tokens(children, kind: str | None = None) -> list[Token]:
    return [c for c in children if isinstance(c, Token) and (kind is None or c.type == kind)]


_SIGN_TEST = {  # the signs of e an arithmetic IF's label covers → the test of e against 0
    frozenset({"LT"}): "LT", frozenset({"EQ"}): "EQ", frozenset({"GT"}): "GT",
    frozenset({"LT", "EQ"}): "LE", frozenset({"EQ", "GT"}): "GE", frozenset({"LT", "GT"}): "NE",
}


def _nodes(children) -> list:
    return [c for c in children if not isinstance(c, Token)]


class _ToAst(Transformer):
    """Grammar rules of one statement → AST nodes (locations mapped through the card).

    Runs inside the LALR parser, which calls it as each rule is reduced; :meth:`begin` points it
    at the card being parsed. A node starts where its first child does: a token's offset, or
    the location of a node already built. A statement starts at the beginning of its card,
    except the statement a logical IF holds, which starts after the condition.
    """

    def begin(self, card: Card, entry: str = "start") -> None:
        self.card = card
        self.entry = entry
        self._paren: dict[int, SourceLocation] = {}  # id(node) → its opening parenthesis

    @property
    def _start(self) -> SourceLocation:
        return self.card.location(0)

    @property
    def _action_offset(self) -> int:
        if self.entry == "assignment_stmt":  # an assignment to a variable named IF...
            return 0
        return _after_condition(self.card.text) if _leading_word(self.card.text) == "IF" else 0

    @property
    def _action_start(self) -> SourceLocation:
        return self.card.location(self._action_offset)

    def _at(self, ch) -> SourceLocation:
        for c in ch:
            if isinstance(c, Token):
                return self.card.location(c.start_pos or 0)
            if isinstance(c, list) and c:
                return self._at(c)
            loc = self._paren.get(id(c)) or getattr(c, "loc", None)
            if isinstance(loc, SourceLocation):
                return loc
        return self._start

    @staticmethod
    def _offset(ch) -> int:
        return next((c.start_pos or 0 for c in ch if isinstance(c, Token)), 0)

    def _tloc(self, tok: Token) -> SourceLocation:
        return self.card.location(tok.start_pos or 0)

    # ---- expressions ----
    def int_lit(self, ch):
        return ast.Num(int(ch[0]), "INTEGER", self._at(ch))

    def real_lit(self, ch):
        text = str(ch[0])
        kind = "DOUBLE" if ("D" in text or "Q" in text) else "REAL"
        return ast.Num(float(text.replace("D", "E").replace("Q", "E")), kind, self._at(ch))

    def complex_lit(self, ch):
        """``(re, im)``: DOUBLE COMPLEX when either part is written with a D exponent."""
        text = str(ch[0])
        parts = [p.replace(" ", "") for p in text.strip("()").split(",")]
        kind = "DCOMPLEX" if any("D" in p or "Q" in p for p in parts) else "COMPLEX"
        re_, im = (float(p.replace("D", "E").replace("Q", "E")) for p in parts)
        return ast.Num(complex(re_, im), kind, self._at(ch))

    def boz_lit(self, ch):
        text = str(ch[0])
        base = {"B": 2, "O": 8, "Z": 16, "X": 16}[text[0]]
        return ast.Num(int(text[2:-1], base), "INTEGER", self._at(ch))

    def string_lit(self, ch):
        raw = str(ch[0])
        return ast.Str(raw[1:-1].replace(raw[0] * 2, raw[0]), self._at(ch))

    def true_lit(self, ch):
        return ast.Logical(True, self._at(ch))

    def false_lit(self, ch):
        return ast.Logical(False, self._at(ch))

    def var(self, ch):
        return ast.Var(str(ch[0]), self._at(ch))

    def ref(self, ch):
        args = ch[1] if len(ch) > 1 else []
        return ast.Ref(str(ch[0]), args, self._at(ch))

    def ref_substring(self, ch):
        """``S(I)(lo:hi)``, a substring of an array element: the element's indices, then the
        substring's range as one more argument (as a scalar's ``S(lo:hi)``)."""
        name, args, part = ch
        return ast.Ref(str(name), [*args, part], self._at(ch))

    def arg_list(self, ch):
        return list(ch)

    def substring(self, ch):
        colon = next(i for i, c in enumerate(ch) if isinstance(c, Token) and c.type == "COLON")
        lo = ch[0] if colon > 0 else None
        hi = ch[colon + 1] if colon + 1 < len(ch) else None
        return ast.Range(lo, hi, self._at(ch))

    def alt_return(self, ch):
        raise self.card.error(
            "alternate RETURN arguments (*label) are not supported", self._offset(ch),
            cls=UnsupportedError,
            hint="rewrite the call to return a status code and test it with IF",
        )

    def paren(self, ch):
        """``(expr)`` is the expression itself; a node it begins starts at the parenthesis."""
        lpar, node = ch
        self._paren[id(node)] = self.card.location(lpar.start_pos or 0)
        return node

    def binop(self, ch):
        left, op, right = ch
        return ast.BinOp(_op_name(op), left, right, self._at(ch))

    def pow_signed(self, ch):
        base, _pow, sign, expo = ch
        return ast.BinOp("**", base, ast.UnOp(str(sign), expo, expo.loc), self._at(ch))

    def unop(self, ch):
        op, operand = ch
        return ast.UnOp(_op_name(op), operand, self._at(ch))

    def implied_do(self, ch):
        _lpar, items, name, start, stop, *step = ch
        return ast.ImpliedDo(items, str(name), start, stop, step[0] if step else None, self._at(ch))

    def io_list(self, ch):
        out = []
        for c in ch:
            out.extend(c if isinstance(c, list) else [c])
        return out

    # ---- program units ----
    def program_stmt(self, ch):
        return ast.UnitHeader(self._start, "PROGRAM", str(ch[0]), [], None)

    def subroutine_stmt(self, ch):
        dummies = ch[1] if len(ch) > 1 else []
        return ast.UnitHeader(self._start, "SUBROUTINE", str(ch[0]), dummies, None)

    def function_stmt(self, ch):
        rtype = ch[0] if isinstance(ch[0], ast.TypeSpec) else None
        rest = ch[1:] if rtype else ch
        name = rest[0]
        dummies = rest[1] if len(rest) > 1 else []
        return ast.UnitHeader(self._start, "FUNCTION", str(name), dummies, rtype)

    def dummy_list(self, ch):
        return [str(c) for c in ch]

    def end_stmt(self, ch):
        return ast.End(self._start)

    # ---- specifications ----
    def _typespec(self, base: str, ch) -> ast.TypeSpec:
        ints = [int(t) for t in _tokens(ch, "INT")]
        return ast.TypeSpec(base, ints[0] if ints else None)

    def integer_type(self, ch):
        return self._typespec("INTEGER", ch)

    def real_type(self, ch):
        spec = self._typespec("REAL", ch)
        return ast.TypeSpec("DOUBLE", 8) if spec.size == 8 else spec

    def double_type(self, ch):
        return ast.TypeSpec("DOUBLE", 8)

    def logical_type(self, ch):
        return self._typespec("LOGICAL", ch)

    def complex_type(self, ch):
        spec = self._typespec("COMPLEX", ch)
        return ast.TypeSpec("DCOMPLEX", 16) if spec.size == 16 else spec

    def double_complex_type(self, ch):
        return ast.TypeSpec("DCOMPLEX", 16)

    def character_type(self, ch):
        lens = [c for c in ch if isinstance(c, int)]
        return ast.TypeSpec("CHARACTER", lens[0] if lens else 1)

    def char_len(self, ch):
        ints = _tokens(ch, "INT")
        if ints:
            return int(ints[0])
        nodes = _nodes(ch)
        if nodes and isinstance(nodes[0], ast.Num):
            return int(nodes[0].value)
        return 0  # (*) or an expression: length taken from the actual argument

    def entity(self, ch):
        name = str(ch[0])
        dims = next((c for c in ch if isinstance(c, list)), None)
        lens = [c for c in ch[1:] if isinstance(c, int) and not isinstance(c, bool)]
        return ast.Entity(name, dims, lens[0] if lens else None, self._at(ch))

    def dim_list(self, ch):
        return list(ch)

    def dim_upper(self, ch):
        return (None, ch[0])

    def dim_range(self, ch):
        return (ch[0], ch[1])

    def dim_assumed(self, ch):
        return (None, None)

    def dim_range_assumed(self, ch):
        return (ch[0], None)

    def type_decl(self, ch):
        spec = ch[0]
        return ast.TypeDecl(self._start, spec, [c for c in ch[1:] if isinstance(c, ast.Entity)])

    def array_decl(self, ch):
        return ast.Entity(str(ch[0]), ch[1], None, self._at(ch))

    def dimension_stmt(self, ch):
        return ast.Dimension(self._start, list(ch))

    def param_def(self, ch):
        return (str(ch[0]), ch[1], self._at(ch))

    def parameter_stmt(self, ch):
        return ast.ParameterStmt(self._start, list(ch))

    def block_name(self, ch):
        names = _tokens(ch, "NAME")
        return str(names[0]) if names else ""

    def common_stmt(self, ch):
        blocks: list[tuple[str, list[ast.Entity]]] = []
        for c in ch:  # block names (str) and the entities that follow each
            if isinstance(c, str):
                blocks.append((c, []))
            else:
                if not blocks:
                    blocks.append(("", []))  # blank common
                blocks[-1][1].append(c)
        return ast.Common(self._start, blocks)

    def data_targets(self, ch):
        return list(ch)

    @staticmethod
    def _data_refs(targets) -> list:
        """The names a DATA target list gives values: an implied DO's items, flattened."""
        out = []
        for t in targets:
            out.extend(_ToAst._data_refs(t.items) if isinstance(t, ast.ImpliedDo) else [t])
        return out

    def signed_number(self, ch):
        sign = -1 if any(isinstance(c, Token) and c == "-" for c in ch) else 1
        tok = ch[-1]
        if tok.type == "INT":
            return ast.Num(sign * int(tok), "INTEGER", self._at(ch))
        kind = "DOUBLE" if "D" in tok else "REAL"
        return ast.Num(sign * float(tok.replace("D", "E")), kind, self._at(ch))

    def data_value(self, ch):
        ints = [c for c in ch if isinstance(c, Token) and c.type == "INT"]
        value = ch[-1]
        if isinstance(value, Token):
            value = {
                "STRING": lambda t: ast.Str(t[1:-1], self._tloc(t)),
                "TRUE": lambda t: ast.Logical(True, self._tloc(t)),
                "FALSE": lambda t: ast.Logical(False, self._tloc(t)),
                "NAME": lambda t: ast.Var(str(t), self._tloc(t)),
            }[value.type](value)
        return [value] * (int(ints[0]) if ints and len(ch) > 2 else 1)

    def data_values(self, ch):
        return [v for group in ch for v in group]

    def data_set(self, ch):
        return (ch[0], ch[1])

    def data_stmt(self, ch):
        targets = [t for s in ch for t in self._data_refs(s[0])]
        values = [v for s in ch for v in s[1]]
        return ast.Data(self._start, targets, values, [(s[0], s[1]) for s in ch])

    def name_list(self, ch):
        return [str(c) for c in ch]

    def external_stmt(self, ch):
        return ast.NameListStmt(self._start, "EXTERNAL", ch[0])

    def intrinsic_stmt(self, ch):
        return ast.NameListStmt(self._start, "INTRINSIC", ch[0])

    def save_stmt(self, ch):
        return ast.NameListStmt(self._start, "SAVE", [str(c) for c in ch])

    def implicit_none(self, ch):
        return ast.Implicit(self._start, True, [])

    def letter_range(self, ch):
        names = _tokens(ch, "NAME")
        lo, hi = str(names[0]), str(names[-1])
        if len(lo) != 1 or len(hi) != 1:
            raise self.card.error("IMPLICIT letter ranges take single letters, e.g. (A-H, O-Z)",
                                  self._offset(ch))
        return (lo, hi)

    def implicit_spec(self, ch):
        return (ch[0], list(ch[1:]))

    def implicit_stmt(self, ch):
        return ast.Implicit(self._start, False, list(ch))

    def include_stmt(self, ch):
        return ast.Include(self._start, str(ch[0])[1:-1])

    # ---- control ----
    def do_stmt(self, ch):
        label = int(ch[0]) if isinstance(ch[0], Token) and ch[0].type == "INT" else None
        rest = ch[1:] if label is not None else ch
        name, start, stop, *step = rest
        return ast.DoStmt(self._start, label, str(name), start, stop, step[0] if step else None)

    def do_while_stmt(self, ch):
        label = int(ch[0]) if isinstance(ch[0], Token) and ch[0].type == "INT" else None
        return ast.DoWhileStmt(self._start, label, ch[-1])

    def enddo_stmt(self, ch):
        return ast.EndDo(self._start)

    def if_then_stmt(self, ch):
        return ast.IfThen(self._start, ch[0])

    def else_if_stmt(self, ch):
        return ast.ElseIf(self._start, _nodes(ch)[0])

    def else_stmt(self, ch):
        return ast.Else(self._start)

    def endif_stmt(self, ch):
        return ast.EndIf(self._start)

    def logical_if_stmt(self, ch):
        cond, stmt = ch
        if isinstance(stmt, (ast.LogicalIf,)):
            raise self.card.error("a logical IF cannot hold another IF")
        return ast.LogicalIf(self._start, cond, stmt)

    def arith_if_stmt(self, ch):
        """``IF (e) L1, L2, L3``: GO TO L1, L2 or L3 as e is negative, zero or positive."""
        e = _nodes(ch)[0]
        labels = [int(t) for t in _tokens(ch, "INT")]
        signs = {}  # label → the signs of e that go there, in order of first appearance
        for sign, label in zip(("LT", "EQ", "GT"), labels):
            signs.setdefault(label, set()).add(sign)
        zero = ast.Num(0, "INTEGER", e.loc)
        arms = [(ast.BinOp(_SIGN_TEST[frozenset(s)], e, zero, e.loc),
                 [ast.Goto(self._start, label)], self._start)
                for label, s in list(signs.items())[:-1]]
        last = [ast.Goto(self._start, list(signs)[-1])]
        if not arms:
            return last[0]
        return ast.IfBlock(self._start, arms, last, self.card.end_line)

    def continue_stmt(self, ch):
        return ast.Continue(self._action_start)

    def goto_stmt(self, ch):
        return ast.Goto(self._action_start, int(_tokens(ch, "INT")[0]))

    def computed_goto_stmt(self, ch):
        """``GO TO (L1, ..., Ln), K``: to Lk when K = k, on to the next statement otherwise."""
        k = _nodes(ch)[0]
        labels = [int(t) for t in _tokens(ch, "INT")]
        arms = [(ast.BinOp("EQ", k, ast.Num(i, "INTEGER", k.loc), k.loc),
                 [ast.Goto(self._action_start, label)], self._action_start)
                for i, label in enumerate(labels, start=1)]
        return ast.IfBlock(self._action_start, arms, None, self.card.end_line)

    def assigned_goto_stmt(self, ch):
        name = next(t for t in ch if isinstance(t, Token) and t.type == "NAME")
        labels = [int(t) for t in _tokens(ch, "INT")] or None
        return ast.AssignedGoto(self._action_start, ast.Var(str(name), self._tloc(name)), labels)

    def assign_label_stmt(self, ch):
        label, name = _tokens(ch, "INT")[0], _tokens(ch, "NAME")[0]
        return ast.AssignLabel(self._action_start, ast.Var(str(name), self._tloc(name)),
                               ast.Num(int(label), "INTEGER", self._tloc(label)))

    def call_stmt(self, ch):
        args = ch[1] if len(ch) > 1 else []
        return ast.CallStmt(self._action_start, str(ch[0]), args)

    def return_stmt(self, ch):
        if ch:
            raise self.card.error("alternate RETURN is not supported", self._action_offset,
                                  cls=UnsupportedError,
                                  hint="return a status code in an argument and test it with IF")
        return ast.Return(self._action_start)

    def stop_stmt(self, ch):
        return ast.Stop(self._action_start)

    # ---- input/output ----
    def io_spec(self, ch):
        value = ch[-1]
        if isinstance(value, Token):  # '*'
            value = ast.Str("*", self._tloc(value))
        return (str(ch[0]) if len(ch) == 2 else None, value)

    def io_control(self, ch):
        specs: dict[str, ast.Expr] = {}
        for i, (key, value) in enumerate(ch):
            specs[key or ("UNIT", "FMT")[min(i, 1)]] = value
        return specs

    def read_stmt(self, ch):
        if isinstance(ch[0], dict):
            specs = ch[0]
        else:  # READ f, items: the default unit; f is '*', a label, a string or a name
            fmt = ast.Str(str(ch[0]), self._tloc(ch[0]))
            specs = {"UNIT": ast.Str("*", self._start), "FMT": fmt}
        items = next((c for c in ch[1:] if isinstance(c, list) and _is_items(c)), [])
        return ast.Read(self._action_start, items, specs)

    def write_stmt(self, ch):
        items = ch[1] if len(ch) > 1 else []
        return ast.Write(self._action_start, items)

    def print_stmt(self, ch):
        items = ch[1] if len(ch) > 1 else []
        return ast.Write(self._action_start, items)

    def file_stmt(self, ch):
        return ast.FileOp(self._action_start, _word(ch[0]), ch[1])

    def file_stmt_unit(self, ch):
        return ast.FileOp(self._action_start, _word(ch[0]), {"UNIT": ch[1]})

    def format_stmt(self, ch):
        return ast.Format(self._start)

    def assignment(self, ch):
        target, value = ch
        return ast.Assign(self._action_start, target, value)

    def assignment_stmt(self, ch):
        return ch[0]

    def logical_if_assign(self, ch):
        return self.logical_if_stmt(ch)


def _after_condition(text: str) -> int:
    """Offset of the statement of a logical IF: past the parenthesised condition."""
    start = text.find("(")
    end = _skip_group(text, start) if start >= 0 else -1
    if end < 0:
        return 0
    return end + len(text[end:]) - len(text[end:].lstrip())


def _word(tok: Token) -> str:
    return "".join(str(tok).split())


def _is_items(c: list) -> bool:
    return all(not isinstance(x, (Token, list)) for x in c)


_OP_NAMES = {"==": "EQ", "/=": "NE", "<": "LT", "<=": "LE", ">": "GT", ">=": "GE"}


def _op_name(tok: Token) -> str:
    text = "".join(str(tok).split()).strip(".")  # ". EQ ." is .EQ.
    return _OP_NAMES.get(str(tok), text)


def _syntax_error(card: Card, err: UnexpectedInput) -> InterpError:
    tok = getattr(err, "token", None)
    if isinstance(err, UnexpectedEOF) or (tok is not None and tok.type == "$END"):
        offset = len(card.text)  # just past the last character
        found = "end of the statement"
    else:
        offset = err.pos_in_stream or 0
        if isinstance(err, UnexpectedCharacters) or tok is None:
            found = repr(card.text[offset: offset + 1])
        else:
            found = repr(str(tok))
    expected = sorted(getattr(err, "expected", None) or getattr(err, "allowed", None) or [])
    hint = None
    if expected:
        names = ", ".join(_pretty_terminal(t) for t in expected[:8])
        hint = f"expected one of: {names}"
    if card.cut:
        lines = ", ".join(str(n) for n in card.cut)
        cut = (f"fixed form ignores text past column 72 (line {lines}): continue the statement "
               "on a next line with a character in column 6")
        hint = f"{cut}; {hint}" if hint else cut
    return card.error(f"syntax error: unexpected {found}", offset, hint=hint)


_PRETTY = {
    "LPAR": "'('", "RPAR": "')'", "COMMA": "','", "EQUAL": "'='", "COLON": "':'",
    "NAME": "a name", "INT": "an integer", "REAL_LIT": "a real number", "STRING": "a string",
    "ADD_OP": "'+' or '-'", "MUL_OP": "'/'", "STAR": "'*'", "POW": "'**'",
    "REL_OP": "a comparison (.EQ. ...)", "$END": "end of statement", "CONCAT": "'//'",
    "AND_OP": ".AND.", "OR_OP": ".OR.", "NOT_OP": ".NOT.", "EQV_OP": ".EQV. or .NEQV.",
    "TRUE": ".TRUE.", "FALSE": ".FALSE.",
}


def _pretty_terminal(name: str) -> str:
    return _PRETTY.get(name, name.removesuffix("_T").replace("_", " "))


def _leading_word(text: str) -> str:
    word = ""
    for ch in text:
        if ch.isalpha():
            word += ch
        elif ch != " ":
            break
    return word


def _outside_quotes(text: str, start: int = 0):
    """(offset, character, parenthesis depth once it is read) of every character of
    ``text[start:]`` outside character constants."""
    depth, quote = 0, None
    for j in range(start, len(text)):
        ch = text[j]
        if quote:
            quote = None if ch == quote else quote
            continue
        if ch in "'\"":
            quote = ch
            continue
        if ch == "(":
            depth += 1
        elif ch == ")":
            depth -= 1
        yield j, ch, depth


def _skip_group(text: str, i: int) -> int:
    """The offset just past the parenthesised group opening at ``text[i]`` (-1 if unclosed)."""
    return next((j + 1 for j, ch, depth in _outside_quotes(text, i) if ch == ")" and depth == 0),
                -1)


def _top_level_comma(text: str) -> bool:
    return any(ch == "," and depth == 0 for _, ch, depth in _outside_quotes(text))


def is_assignment(text: str) -> bool:
    """Whether a statement is an assignment as an F77 compiler decides it, keywords aside:
    ``NAME``, at most two parenthesised groups (an element, a substring), ``=`` (not ``==``),
    and no comma at the top level after it (that is a DO: ``DO 10 I = 1, N``)."""
    m = _NAME_AT_START.match(text)
    if m is None:
        return False
    i = m.end()
    for _ in range(2):
        i = len(text) - len(text[i:].lstrip())
        if i < len(text) and text[i] == "(":
            i = _skip_group(text, i)
            if i < 0:
                return False
    rest = text[i:].lstrip()
    return rest.startswith("=") and not rest.startswith("==") and not _top_level_comma(rest[1:])


_NAME_AT_START = re.compile(r"[A-Z][A-Z0-9_$]*")


def _entry(text: str) -> str:
    """Which grammar entry point parses this statement (see ``assignment_stmt``)."""
    if is_assignment(text):
        return "assignment_stmt"
    if _leading_word(text) == "IF" and text.lstrip()[2:].lstrip().startswith("("):
        after = _after_condition(text)
        if after and is_assignment(text[after:]):
            return "logical_if_assign"
    return "start"


def parse_statement(card: Card) -> ast.Stmt:
    """Parse one card into an AST statement; errors point into the card."""
    entry = _entry(card.text)
    head = _leading_word(card.text)
    for key, (what, instead) in UNSUPPORTED_KEYWORDS.items():
        if entry == "start" and head.startswith(key):
            raise card.error(f"{what} is not supported", 0, cls=UnsupportedError,
                             hint=f"{instead} (README, \"Refused Fortran\")")
    lark, to_ast = _parser()
    to_ast.begin(card, entry)
    try:
        stmt = lark.parse(card.text, start=entry)
    except UnexpectedInput as err:
        raise _syntax_error(card, err) from None
    if not isinstance(stmt, ast.Stmt):  # pragma: no cover - grammar guarantees a statement
        raise card.error("could not parse this statement")
    stmt.label = card.label
    return stmt


# ---- files → program units ------------------------------------------------------------------

# mpif.h is provided by interp itself (constant values from the catalog), so programs that
# INCLUDE it parse without an MPI installation.
BUILTIN_INCLUDES = {"MPIF.H"}


def find_include(name: str, base: Path,
                 include_dirs: tuple[Path, ...]) -> tuple[Path | None, list[Path]]:
    """Where an INCLUDE file is: the including file's folder first, then each ``-I`` folder in
    order (as f77 compilers search). Returns the file (or None) and the folders searched."""
    folders = [base, *include_dirs]
    for folder in folders:
        target = folder / name
        if target.is_file():
            return target, folders
    return None, folders


def _expand_includes(parsed: Iterable[tuple[Card, ast.Stmt]], base: Path,
                     include_dirs: tuple[Path, ...], free: bool,
                     depth: int = 0) -> list[tuple[Card, ast.Stmt]]:
    out: list[tuple[Card, ast.Stmt]] = []
    for card, stmt in parsed:
        if isinstance(stmt, ast.Include) and stmt.path.upper() not in BUILTIN_INCLUDES:
            target, searched = find_include(stmt.path, base, include_dirs)
            if target is None:
                where = ", ".join(str(f) for f in searched)
                raise card.error(
                    f"INCLUDE file {stmt.path!r} not found (looked in {where})",
                    hint="put the file beside the source, or name its folder with -I DIR",
                )
            if depth > 8:
                raise card.error("INCLUDE nested too deeply (is it including itself?)")
            out.extend(_expand_includes(_parse_included(target, free), target.parent,
                                        include_dirs, free, depth + 1))
            continue
        out.extend((card, s) for s in _io_branches(stmt))
    return out


def _parse_cards(cards: list[Card]) -> list[tuple[Card, ast.Stmt]]:
    return [(card, parse_statement(card)) for card in cards]


# the code that turns a file's text into statements: an edit to any of it is a new cache key
PARSER_MODULES = ("application/parser.py", "application/cards.py", "application/ast.py",
                  "errors.py")
STATEMENTS_KEPT = 512  # parsed files in the user cache (a few KB to a few hundred KB each)


def _parsed_source(path: Path) -> list[tuple[Card, ast.Stmt]]:
    """A source file's cards and their statements (INCLUDEs not yet expanded). From the user
    cache when the same bytes under the same name went through this parser before: no grammar
    to load and no parse (a third of a small predict's interpretation); an error is never
    cached, so a bad file is reported every time."""
    try:
        text = path.read_bytes()
    except OSError:  # read_source says what is wrong
        return _parse_source(path)
    digest = cache.key(text, str(path), grammar_path("fortran77.lark").read_bytes(),
                       cache.code_version(PARSER_MODULES))
    return cache.cached("statements", digest, lambda: _parse_source(path), keep=STATEMENTS_KEPT)


def _parse_source(path: Path) -> list[tuple[Card, ast.Stmt]]:
    cards = read_source(path)
    if not cards:
        raise InterpError(f"{path} holds no statements, only comments",
                          SourceLocation(str(path), 1, 1),
                          hint="give a file holding a Fortran program unit")
    return _parse_cards(cards)


def _parse_included(path: Path, free: bool) -> list[tuple[Card, ast.Stmt]]:
    """An INCLUDEd file's statements. A header of declarations only (the usual case, included
    by every file of a program) is parsed once and its statements shared, since nothing
    changes a declaration after parsing; any other is parsed afresh for each INCLUDE."""
    try:
        stamp = path.stat().st_mtime_ns
    except OSError:
        stamp = 0
    shared = _parsed_header(path, stamp, free)
    return list(shared) if shared is not None else _parse_cards(read_included(path, free))


@lru_cache(maxsize=256)
def _parsed_header(path: Path, stamp: int, free: bool) -> tuple[tuple[Card, ast.Stmt], ...] | None:
    parsed = _parse_cards(read_included(path, free))
    if all(isinstance(stmt, _DECL_TYPES) for _card, stmt in parsed):
        return tuple(parsed)
    return None


def _io_branches(stmt: ast.Stmt) -> list[ast.Stmt]:
    """An I/O statement with ERR=/END= labels as the statement with IOSTAT= and the GO TOs
    they stand for (see ``ast.IO_STATUS``), so the jumps are structured like any other."""
    specs = getattr(stmt, "specs", None)
    if not specs or not ({"ERR", "END"} & specs.keys()):
        return [stmt]
    loc = stmt.loc
    status = specs.setdefault("IOSTAT", ast.Var(ast.IO_STATUS, loc))
    out = [stmt]
    for key, op in (("END", "LT"), ("ERR", "GT")):
        label = specs.pop(key, None)
        if label is None:
            continue
        if not (isinstance(label, ast.Num) and label.kind == "INTEGER"):
            raise InterpError(f"{key}= takes a statement label", label.loc,
                              hint=f"e.g. {key}=100")
        cond = ast.BinOp(op, status, ast.Num(0, "INTEGER", loc), loc)
        out.append(ast.LogicalIf(loc, cond, ast.Goto(loc, int(label.value))))
    return out


_DECL_TYPES = (
    ast.TypeDecl, ast.Dimension, ast.ParameterStmt, ast.Common, ast.Data, ast.NameListStmt,
    ast.Implicit, ast.Include,
)


def _nest_io_jumps(unit: list[tuple[Card, ast.Stmt]]) -> list[tuple[Card, ast.Stmt]]:
    """The two GO TOs of a statement with both END= and ERR=, the one to the farther label
    first, so their forward jumps nest instead of crossing."""
    where = {s.label: i for i, (_c, s) in enumerate(unit) if s.label is not None}
    for i in range(1, len(unit) - 1):
        io, a, b = unit[i - 1][1], unit[i][1], unit[i + 1][1]
        if (isinstance(io, (ast.Read, ast.FileOp)) and _is_jump(a) and _is_jump(b)
                and a.loc is io.loc and b.loc is io.loc
                and where.get(b.stmt.target, -1) > where.get(a.stmt.target, -1)):
            unit[i], unit[i + 1] = unit[i + 1], unit[i]
    return unit


def _is_jump(s: ast.Stmt) -> bool:
    return isinstance(s, ast.LogicalIf) and isinstance(s.stmt, ast.Goto)


def parse_file(path: str | Path, include_dirs: Iterable[str | Path] = ()) -> list[ast.ProgramUnit]:
    """Parse a source file into its program units (statements still flat in ``body``);
    INCLUDE files are searched beside it, then in ``include_dirs``."""
    from interp.application.structure import build_unit

    path = Path(path)
    stmts = _expand_includes(_parsed_source(path), path.parent,
                             tuple(Path(d) for d in include_dirs), is_free_form(path))
    units: list[ast.ProgramUnit] = []
    current: list[tuple[Card, ast.Stmt]] = []
    for card, stmt in stmts:
        current.append((card, stmt))
        if isinstance(stmt, ast.End):
            units.append(build_unit(_nest_io_jumps(current)))
            current = []
    if current:
        last = current[-1][0]
        raise InterpError(
            "missing END statement at the end of the file",
            SourceLocation(last.file, last.end_line, 1),
            hint="every PROGRAM, SUBROUTINE and FUNCTION ends with END",
        )
    return units
