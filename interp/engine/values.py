"""What a process knows about its variables while it is interpreted.

Values are SymPy expressions: numbers where the program computes them from known values
(``ME = MYNODE()``), symbols for external inputs that were not given (``N``), and
:data:`UNKNOWN` where the value depends on run-time data interp does not follow (an array
filled in a loop). Arrays are tracked per element with constant indices. COMMON variables live
in one store per process, shared by every unit.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import sympy as sp

from interp.application.expr import (
    NotComputable, SymbolicError, element_key, fortran_symbol, numeric_value, to_sympy,
)
from interp.application.symbols import SymbolTable
from interp.errors import InterpError, SourceLocation


class Unknown:
    """A value interp does not follow, and why: said when a decision needs it."""

    def __init__(self, why: str = "it depends on run-time data interp does not follow"):
        self.why = why

    def __repr__(self) -> str:
        return "UNKNOWN"


UNKNOWN = Unknown()


class FoldedUnknown(Unknown):
    """A value a folded loop's skipped iterations would have changed in a way its closed
    form does not give (foldvalues.py): ``loop`` is that loop's (file, line)."""

    def __init__(self, why: str, loop: tuple[str, int], name: str):
        super().__init__(why)
        self.loop = loop
        self.name = name  # the variable the loop changed (a value computed from it keeps it)


class Unfold(NotComputable):
    """A decision read a :class:`FoldedUnknown`: the interpretation is made again with its
    loop stepped to the end (``Inputs.unfolded``), which gives the value."""

    def __init__(self, message: str, value: FoldedUnknown):
        super().__init__(message)
        self.loop, self.name = value.loop, value.name


class Lazy:
    """A value worked out only when something reads it: ``X = F(A, B)`` with F a FUNCTION
    whose value depends on nothing but its arguments (EP's seeds: RANDLC's value is most often
    overwritten before anything reads it). ``work()`` gives the value, or an Unknown."""

    __slots__ = ("work", "value")

    def __init__(self, work) -> None:
        self.work = work
        self.value = None

    def force(self) -> object:
        if self.value is None:
            self.value = self.work()
            self.work = None
        return self.value


def is_unknown(v: object) -> bool:
    return isinstance(v, Unknown)
VARYING = "\0varying"  # binding key: the names a closed-form loop's body assigns


class NotClosedForm(Exception):
    """A sub-graph that has no closed form (control leaves it, it communicates, or it unrolls)."""


class KeepsState(NotClosedForm):
    """A reference to a FUNCTION with SAVE'd values: each call gives its own value, so the
    sub-graph is interpreted step by step (not a condition on data to weigh)."""


class NeedValue(InterpError):
    """A decision (a branch, a partner, a trip count) needs a value that is only a symbol."""

    def __init__(self, names: list[str], what: str, location: SourceLocation | None,
                 loop: SourceLocation | None = None):
        self.names = sorted(set(names))
        self.loop = loop  # the DO WHILE or GO TO loop whose test needs them: --iterations helps
        listed = ", ".join(self.names)
        sets = " ".join(f"--set {n}=VALUE" for n in self.names)
        where = f"{loop.file.rsplit('/', 1)[-1]}:{loop.line}" if loop else ""
        super().__init__(
            f"{what} depends on {listed}, which has no value",
            location,
            hint=(f"give the loop's iteration count with --iterations {where}=N, or its "
                  f"inputs with {sets}") if loop else f"give it with {sets}",
        )


@dataclass
class Inputs:
    """What the user gives the interpretation: external input values (``--set NAME=V`` or
    ``--set UNIT.NAME=V``) and the paper's user-defined interpretation functions — a time for
    a named routine (``--routine NAME=SECONDS``) and an iteration count for a loop whose count
    is not known at parse time (``--iterations WHERE=COUNT``, WHERE = ``UNIT:LINE`` or
    ``FILE:LINE`` of the loop's first line)."""

    values: dict[str, sp.Expr] = field(default_factory=dict)
    routines: dict[str, float] = field(default_factory=dict)
    iterations: dict[str, int] = field(default_factory=dict)
    # every value the user gave: what fills a variable interp does not follow, and array
    # elements (``A(1)``) or whole arrays (``A``), which are never symbols of the formula
    given: dict[str, sp.Expr] = field(default_factory=dict)
    numeric: bool = False  # data symbols (datadep) take their values at once
    data: dict = field(default_factory=dict)  # the data symbols met (name → DataSymbol)
    # the loops not followed in this run (stepbudget.leave_unfollowed): the bounds' and the
    # numeric re-runs' copies (dataclasses.replace) share the set; a new run starts empty
    unfollowed: set = field(default_factory=set)
    # the loops the steady state may not fold (a value their iterations change is needed
    # after them: foldvalues.py), (file, line) → the note that says so; shared as unfollowed
    unfolded: dict = field(default_factory=dict)

    def get(self, unit: str, name: str) -> sp.Expr | None:
        return self.values.get(f"{unit}.{name}", self.values.get(name))

    def given_for(self, unit: str, key: str) -> sp.Expr | None:
        """The user's value for ``key`` (a scalar, or an element ``A(1)`` given by itself or
        through its whole array ``A``), or None."""
        for k in (key, key.split("(")[0]) if "(" in key else (key,):
            value = self.given.get(f"{unit}.{k}", self.given.get(k))
            if value is not None:
                return value
        return None

    def iterations_for(self, unit: str, loc: SourceLocation) -> int | None:
        for key in (f"{unit}:{loc.line}", f"{loc.file}:{loc.line}",
                    f"{loc.file.rsplit('/', 1)[-1]}:{loc.line}"):
            if key in self.iterations:
                return self.iterations[key]
        return None


def input_symbol(name: str, ftype: str) -> sp.Symbol:
    """The symbol an external input stands for in formulas: a positive integer for INTEGER
    inputs (sizes and counts), a real otherwise (stated in every prediction's assumptions)."""
    if ftype == "INTEGER":
        return sp.Symbol(name, integer=True, positive=True)
    return fortran_symbol(name, ftype)


class Store(dict):
    """Values by key, ``NAME`` or ``NAME(i,j)``, indexed by NAME: clearing or sending a whole
    array finds its elements without scanning every key of the store (FT's COMMON store holds
    thousands of elements, and a by-reference CALL clears its arrays)."""

    def __init__(self) -> None:
        super().__init__()
        self._by_name: dict[str, dict[str, None]] = {}  # insertion-ordered sets of keys
        self.lazy = False  # a Lazy value was ever stored (Frame.elements_at)

    def __setitem__(self, key: str, value: object) -> None:
        if key not in self:
            self._by_name.setdefault(key.split("(", 1)[0], {})[key] = None
        if type(value) is Lazy:
            self.lazy = True
        dict.__setitem__(self, key, value)

    def __delitem__(self, key: str) -> None:
        super().__delitem__(key)
        self._by_name[key.split("(", 1)[0]].pop(key, None)

    def keys_of(self, name: str) -> list[str]:
        """Every key of variable ``name``: the scalar and each element."""
        return list(self._by_name.get(name, ()))

    def shared_get(self, key: str, default=None):
        """:meth:`get` of a key read through a :class:`View` (a dummy of a callee)."""
        return self.get(key, default)


_MISSING = object()


class Layout:
    """How an array is laid out in storage: its declared lower bounds and the extents of all
    but its last dimension (F77 5.4.3: column-major), enough to place an element."""

    __slots__ = ("lows", "extents", "size")

    def __init__(self, lows: tuple[int, ...], extents: tuple[int, ...], size: int | None):
        self.lows, self.extents = lows, extents
        self.size = size  # elements in all (None: assumed size, ``X(*)``)

    def position(self, subscripts: tuple[int, ...]) -> int:
        """The element's position in storage order, from the first element."""
        lows, extents = self.lows, self.extents
        pos = subscripts[-1] - lows[-1]
        for i in range(len(extents) - 1, -1, -1):
            pos = pos * extents[i] + subscripts[i] - lows[i]
        return pos

    def subscripts(self, pos: int) -> tuple[int, ...]:
        out = []
        for extent, low in zip(self.extents, self.lows):
            out.append(pos % extent + low)
            pos //= extent
        out.append(pos + self.lows[-1])
        return tuple(out)

    def same(self, other: "Layout") -> bool:
        return self.lows == other.lows and self.extents == other.extents


def _subscripts(suffix: str) -> tuple[int, ...] | None:
    """The integer subscripts of an element key's suffix ``(3,4)``; None for ``(*)``."""
    try:
        return tuple(int(s) for s in suffix[1:-1].split(","))
    except ValueError:
        return None


class View:
    """An array dummy's elements where they are: in the actual argument's storage in the
    caller (F77 15.9.3.1, sequence association), from the element passed on (``CALL
    F(A(1,J))``), laid out as the dummy declares them. It stands for the callee's store of
    the dummy's keys: a call costs the same whatever the array's size, and what the callee
    writes is in the caller's array as it writes it. ``layouts`` None: the dummy's subscripts
    are the actual's (the same declared shape, from its first element)."""

    __slots__ = ("store", "name", "dummy", "offset", "caller", "callee", "_to")

    def __init__(self, store, name: str, dummy: str, offset: int = 0,
                 layouts: tuple[Layout, Layout] | None = None):
        self.store, self.name, self.dummy, self.offset = store, name, dummy, offset
        self.caller, self.callee = layouts if layouts is not None else (None, None)
        self._to: dict[str, str] = {}  # the caller's key of a dummy's key, once worked out

    def key(self, key: str) -> str:
        """The caller's key of the dummy's ``key``."""
        suffix = key[len(self.dummy):]
        if self.caller is None or suffix in ("", "(*)"):
            return self.name + suffix
        found = self._to.get(key)
        if found is None:
            subs = _subscripts(suffix)
            if subs is None or len(subs) != len(self.callee.lows):
                found = self.name + "(?)"
            else:
                pos = self.offset + self.callee.position(subs)
                found = f"{self.name}({','.join(map(str, self.caller.subscripts(pos)))})"
            self._to[key] = found
        return found

    def _back(self, key: str) -> str | None:
        """The dummy's key of the caller's ``key``; None outside the dummy's elements."""
        suffix = key[len(self.name):]
        if self.caller is None or suffix in ("", "(*)"):
            return self.dummy + suffix if suffix or self.caller is None else None
        subs = _subscripts(suffix)
        if subs is None or len(subs) != len(self.caller.lows):
            return None
        pos = self.caller.position(subs) - self.offset
        size = self.callee.size
        if pos < 0 or (size is not None and pos >= size):
            return None
        return f"{self.dummy}({','.join(map(str, self.callee.subscripts(pos)))})"

    def locate(self, key: str) -> tuple[Store, str]:
        """The store that holds the dummy's ``key``, and its key there."""
        store, key = self.store, self.key(key)
        while type(store) is View:
            store, key = store.store, store.key(key)
        return store, key

    def get(self, key: str, default=None):
        store, key = self.locate(key)
        return store.shared_get(key, default)

    def __getitem__(self, key: str):
        value = self.get(key, _MISSING)
        if value is _MISSING:
            raise KeyError(key)
        return value

    def __contains__(self, key: str) -> bool:
        return self.get(key, _MISSING) is not _MISSING

    def __setitem__(self, key: str, value: object) -> None:
        store, key = self.locate(key)
        store[key] = value

    def __delitem__(self, key: str) -> None:
        store, key = self.locate(key)
        del store[key]

    def keys_of(self, name: str) -> list[str]:
        return [k for k in map(self._back, self.store.keys_of(self.name)) if k is not None]


@dataclass
class Frame:
    """The variables of one activation of a program unit."""

    table: SymbolTable
    unit: str
    local: Store = field(default_factory=Store)
    common: Store = field(default_factory=Store)  # the process's COMMON store
    inputs: Inputs = field(default_factory=Inputs)
    log: list | None = None  # values read by control decisions (for periodicity checks)
    views: dict[str, View] | None = None  # array dummies in their actual's storage
    # scalar dummies bound to the index of a loop being stepped (indextests.SteppedLoop):
    # a message tag read from one is logged relative to that index (indextests.mark_tag)
    aliases: dict[str, object] | None = None
    layouts: dict[str, Layout | None] | None = None  # of its arrays passed on (Process._layout)

    def _store(self, name: str) -> dict[str, object]:
        base = name.split("(", 1)[0]
        if self.views is not None:
            view = self.views.get(base)
            if view is not None:
                return view
        sym = self.table.symbols.get(base)
        return self.common if sym is not None and sym.common is not None else self.local

    def locate(self, key: str) -> tuple[Store, str]:
        """The store that holds ``key`` of this frame, and its key there (a dummy's elements
        are in the caller's array: View; a whole array's name is the actual's name there)."""
        store = self._store(key)
        return store.locate(key) if type(store) is View else (store, key)

    def share(self, view: View) -> None:
        """The dummy ``view.dummy`` is the caller's array: its keys are read and written there."""
        if self.views is None:
            self.views = {}
        self.views[view.dummy] = view

    def get(self, key: str) -> object | None:
        value = self._store(key).get(key)
        return value.force() if type(value) is Lazy else value

    def set(self, key: str, value: object) -> None:
        self._store(key)[key] = value

    def clear(self, name: str) -> None:
        """Drop every tracked value of ``name`` (a scalar or a whole array)."""
        store = self._store(name)
        for key in store.keys_of(name):
            del store[key]

    def forget(self, name: str, why: str | None = None) -> None:
        """``name`` (a scalar or a whole array) no longer has a known value."""
        store = self._store(name)
        marker = name if not self._is_array(name) else f"{name}(*)"
        if why is None and type(store) is Store:  # (a closed form forgets what it assigns
            keys = store._by_name.get(name)  # at every loop: most often forgotten already)
            if keys is not None and len(keys) == 1 and dict.get(store, marker) is UNKNOWN:
                return
        self.clear(name)
        store[marker] = Unknown(why) if why else UNKNOWN

    def receive(self, name: str, payload: dict, why: str | None = None,
                at: list[str] | None = None) -> None:
        """``name`` now holds what a message brought (suffix → value, "" for a scalar, or
        position ``@k`` → value into the elements ``at`` the receive buffer starts at);
        ``why`` its values are not followed when the payload is empty."""
        if not payload:
            self.forget(name, why)
            return
        if any(k.startswith("@") for k in payload):
            self._receive_at(name, payload, why, at)
            return
        self.clear(name)
        for suffix, value in payload.items():
            if self._is_array(name) and not suffix:
                suffix = "(1)"  # a scalar sent into an array lands in its first element
            elif not self._is_array(name) and suffix:
                if suffix != "(1)":
                    continue
                suffix = ""
            self.set(name + suffix, value)

    def _receive_at(self, name: str, payload: dict, why: str | None, at: list[str] | None) -> None:
        if not self._is_array(name):
            value = payload.get("@0")
            self.set(name, value if value is not None else Unknown(why) if why else UNKNOWN)
            return
        if at is None:  # where the elements land is not known
            self.forget(name, why)
            return
        for k, suffix in enumerate(at):
            value = payload.get(f"@{k}")
            self.set(name + suffix, value if value is not None else Unknown(why) if why else UNKNOWN)

    def _is_array(self, name: str) -> bool:
        sym = self.table.symbols.get(name)
        return sym is not None and sym.is_array

    def assign(self, name: str, indices: list[sp.Expr] | None, value: object) -> None:
        if indices is None:
            self.set(name, value)
            return
        key = element_key(name, indices)
        if key.endswith("(?)"):
            self.forget(name)
        else:
            self.set(key, value)

    def elements(self, name: str) -> dict[str, object]:
        """Every tracked element of array ``name`` (suffix → value), or the scalar (suffix "")."""
        store = self._store(name)
        if not self._is_array(name):
            value = store.get(name)  # (one not followed: the user's --set value, if any)
            return {"": self._scalar(name, _forced(value)) if value is not None
                    else self.value_of_scalar(name)}
        return {k[len(name):]: _forced(store[k]) for k in store.keys_of(name) if k != name}

    def elements_at(self, name: str, suffixes) -> list[object | None]:
        """``elements(name).get(suffix)`` for each of ``suffixes``, without building the
        dictionary of every element (CG sends a stretch of a long array at every iteration).
        Another kind of store (a dummy's View, a class's TaintStore: every read is watched),
        or one that holds Lazy values (which :meth:`elements` forces, every one), is read as
        :meth:`elements` reads it."""
        store = self._store(name)
        if type(store) is not Store or store.lazy:
            held = self.elements(name)
            return [held.get(suffix) for suffix in suffixes]
        get = dict.get
        return [get(store, name + suffix) for suffix in suffixes]

    def known_elements(self, name: str) -> bool:
        """Whether the array ``name`` has elements tracked and none is Unknown: the test of
        ``elements(name)``'s values, without building it. Read as :meth:`elements` reads it
        where that would force a Lazy value (its FUNCTION's work is counted by the step
        budget) or the store watches its reads."""
        store = self._store(name)
        if type(store) is not Store or store.lazy:
            values = self.elements(name).values()
            return bool(values) and not any(isinstance(v, Unknown) for v in values)
        found = False
        for k in store.keys_of(name):
            if k != name:
                if isinstance(dict.get(store, k), Unknown):
                    return False
                found = True
        return found

    def value_of_scalar(self, name: str) -> object:
        return self._scalar(name, self.get(name))

    def _scalar(self, name: str, value: object) -> object:
        """:meth:`value_of_scalar` of the scalar ``name`` whose stored value is ``value``."""
        if isinstance(value, Unknown):  # not followed: the user's value, if any
            given = self.inputs.given_for(self.unit, name)
            return value if given is None else given
        if value is not None:
            return value
        sym = self.table.symbols.get(name)
        given = self.inputs.get(self.unit, name)
        if given is not None:
            return given
        return input_symbol(name, sym.type if sym else "REAL")

    def resolver(self, library_values: dict[str, sp.Expr], function=None):
        """A resolver for :func:`interp.application.expr.to_sympy` over this frame;
        ``function(ref, args)`` gives the value of a user FUNCTION reference (or None)."""

        symbols = self.table.symbols
        # scalar variable → whether it is in COMMON, for the table (the tests below, once a name)
        scalars = self.table.__dict__.setdefault("_scalar_in_common", {})

        def resolve(key: str):
            in_common = scalars.get(key)
            if in_common is None:
                if key.endswith("()") and key[:-2] in library_values:
                    return library_values[key[:-2]]
                name = key.split("(", 1)[0]
                sym = symbols.get(name)
                if sym is not None and (sym.kind == "parameter" or sym.constant is not None):
                    return None
                # the store Frame._store finds for the key
                in_common = sym is not None and sym.common is not None
                if "(" in key:
                    store = self.views.get(name) if self.views is not None else None
                    if store is None:
                        store = self.common if in_common else self.local
                    return self._element(key, name, sym, store)
                scalars[key] = in_common
            value = _forced((self.common if in_common else self.local).get(key))
            if value is None or isinstance(value, Unknown):
                value = self._scalar(key, value)
                if isinstance(value, FoldedUnknown):
                    raise Unfold(f"the value of {key} is not known: {value.why}", value)
                if isinstance(value, Unknown):
                    raise SymbolicError(f"the value of {key} is not known: {value.why}")
            if self.log is not None:
                self.log.append((key, value))
            return value

        resolve.function = function
        return resolve

    def _element(self, key: str, name: str, sym, store) -> object:
        """The resolver's value of the array element ``key`` (of ``name``, in ``store``)."""
        if key.endswith("(?)"):
            raise SymbolicError(f"the value of {key} is not known before run time")
        value = _forced(store.get(key))
        if value is None:
            value = _forced(store.get(f"{name}(*)"))  # UNKNOWN when the whole array was forgotten
        if value is None and sym is not None and not sym.is_array:  # a function's value
            raise NotComputable(f"the value of {key} is not known before run time")
        if value is None or isinstance(value, Unknown):  # not followed: the user's value, if any
            given = self.inputs.given_for(self.unit, key)
            value = value if given is None else given
        if isinstance(value, Unknown):
            raise SymbolicError(f"the value of {key} is not known: {value.why}")
        if self.log is not None and value is not None:
            self.log.append((key, value))
        return value


def _forced(value: object) -> object:
    return value.force() if type(value) is Lazy else value


def fast_or_symbolic(e, table, resolve):
    """A Python number when the expression's values are all numbers, else its SymPy form."""
    fast = numeric_value(e, table, resolve)
    return fast if fast is not None else to_sympy(e, table, resolve)
