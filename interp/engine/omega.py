"""Ω, the interpretation function (core paper §3.4): what each AAU type does to a process.

Every AAU type has two forms, side by side below, reached through one dispatch on the type:

* **step by step** (``step_*``, a generator): interpret one execution of the AAU on the
  process, advancing its clock τ; communication is handed to the scheduler
  (:mod:`interp.engine.requests`).
* **closed form** (``closed_*``): δ of the AAU as an expression, for deterministic sub-graphs
  (IterD, CondtD, calls of routines that do not communicate), never unrolled:

      δ_IterD = t_fixed + NumIters · (t_per_iter + δ_body)        (§3.4.2, :func:`closed_loop`)

  with Σ over the index when δ_body depends on it (:mod:`interp.engine.summation`). An AAU that
  has no closed form raises :class:`NotClosedForm`.

IterSync loops run iteration by iteration (:func:`step_loop`), announcing each iteration's head
to the scheduler, which detects the steady state and extends it in closed form
(:mod:`interp.engine.steady`). IterND loops are unrolled, and the output says so.
"""

from __future__ import annotations

from typing import Callable, Generator

import sympy as sp

from interp.application import aau as A
from interp.application import ast
from interp.application.ast import expr_text
from interp.application.catalog import library_calls
from interp.application.aag import io_outputs
from interp.application.expr import (
    NotComputable, SymbolicError, as_sympy, assigned_value, element_key, names_in, trip_count,
    walk,
)
from interp.engine.dataflow import assigned, follow, steering_assigned
from interp.engine.datadep import (
    branch_symbols, diffuse, enclosing_loops, leaving_arms, loop_symbol, trip_symbol,
)
from interp.engine import indextests, induction, loopmemo, stepbudget, straight
from interp.engine.foldvalues import LoopValues
from interp.engine.costs import branch_overhead, compute_seconds, hit_ratio, loop_overheads
from interp.engine.process import AAUStat, Process, TraceSpan
from interp.engine.requests import LoopHead, ask, communicate, completion
from interp.engine.summation import sum_over
from interp.engine.timeval import as_count, as_time, is_earlier
from interp.engine.needed import function_changes
from interp.engine.values import (
    UNKNOWN, VARYING, Frame, KeepsState, NeedValue, NotClosedForm, Unfold, fast_or_symbolic,
    is_unknown,
)
from interp.errors import InterpError


SYMBOLIC_ITERATION_LIMIT = 12  # IterSync iterations tried before a symbolic count must be given


# ---- the dispatch ----------------------------------------------------------------------------


def run_chain(p: Process) -> Generator:
    """The process's whole chain: its main program, AAU by AAU (Algorithm 2's active chain)."""
    p.functions = function_value
    yield from step_list(p, p.program.aaus, p.frame_for(p.program))
    p.finish = p.clock


def step_list(p: Process, aaus: list[A.AAU], frame: Frame) -> Generator:
    """Interpret a chain; returns a control signal (``stop``, ``return``, ``exit:L``) or None.

    ``exit:L`` is a GO TO L still on its way: the chain that holds the AAU labelled L resumes
    there (a GO TO the structuring left as it is); other chains hand it up."""
    k = 0
    while k < len(aaus):
        signal = yield from step(p, aaus[k], frame)
        if signal is None:
            k += 1
            continue
        k = _resume_at(aaus, signal)
        if k is None:
            return signal
    return None


def _resume_at(aaus: list[A.AAU], signal: str) -> int | None:
    """Where in the chain a GO TO signal resumes, if one of its AAUs carries the label."""
    if not signal.startswith("exit:"):
        return None
    label = int(signal.removeprefix("exit:"))
    return next((k for k, a in enumerate(aaus) if label in a.labels), None)


def _cycles(a: A.Iter, signal: str | None) -> bool:
    """Whether a signal from a loop's body is a GO TO the loop's head: the next iteration."""
    return a.head_label is not None and signal == f"exit:{a.head_label}"


def step(p: Process, a: A.AAU, frame: Frame) -> Generator:
    """Ω of one execution of ``a``, step by step; recorded in the process's statistics."""
    tau = p.clock
    if p.recorder is not None:
        p.recorder.enter()
    outer, p.current_aau = p.current_aau, a.id  # whose computation and waits these are
    if type(a) is A.Seq:  # most of what is stepped: no generator for work that never waits
        seq(p, a, frame)
        signal = None
    else:
        signal = yield from _form(STEP, a)(p, a, frame)
    p.current_aau = outer
    p.record(a, tau, p.clock - tau)
    p.steps += 1
    if p.trace is not None and not isinstance(a, (A.Start, A.End)):
        p.trace.append(TraceSpan(a.id, a.type, tau, p.clock))
    return signal


def closed_form_list(p: Process, aaus: list[A.AAU], frame: Frame, binding: dict, out: dict) -> sp.Expr:
    """δ of a chain in closed form; per-AAU (count, total) added to ``out``."""
    total = 0.0
    for i, a in enumerate(aaus):
        # a RETURN is the last thing a routine does when only its END follows
        last = all(isinstance(b, A.End) and b.kind == "end" for b in aaus[i + 1:])
        d = _form(CLOSED, a)(p, a, frame, binding, out, last)
        c, t = out.get(a.id, (0, 0.0))
        out[a.id] = (c + 1, t + d)
        total += d
        binding = _binding_after(p, a, frame, binding)
    return total


BOUND = "\0bound"  # binding key: the names _binding_after bound to a value in this iteration


def _binding_after(p, a: A.AAU, frame: Frame, binding: dict) -> dict:
    """The binding the AAUs after ``a`` see inside a closed-form loop's body. A scalar the body
    assigns from the index and values interp follows (``KIND = MOD(ITER - 1, 3) + 1``) has that
    value for the rest of the iteration, so a decision on it (a computed GO TO, an ELSE IF
    chain) is the index's, summed exactly, not data weighted by branch probabilities; whatever
    else ``a`` assigns changes from one iteration to the next, as before."""
    varying = binding.get(VARYING)
    if not varying:
        return binding
    changed = assigned(a)
    bound = binding.get(BOUND, frozenset())
    calls = bound and (a.ops.user_calls if isinstance(a, A.Seq) else any(
        isinstance(x, (A.Call, A.LibraryAAU)) for x in a.walk()))
    if not calls and not changed & (varying | binding.keys()):
        return binding
    inner = dict(binding)
    inner[VARYING], inner[BOUND] = set(varying), set(bound)
    if isinstance(a, A.Seq) and not a.ops.user_calls and not a.__dict__.get("function_changes"):
        for s in a.stmts:
            if type(s) is ast.Assign and isinstance(s.target, ast.Var):
                _bind_assigned(p, s, frame, inner)
            else:
                _unbind(inner, assigned_names(s))
    else:  # a subroutine (or a library routine) may change what was bound: its arguments,
        _unbind(inner, changed | (bound if calls else set()))  # COMMON
    return inner


def assigned_names(s: ast.Stmt) -> set[str]:
    """The names one statement of a Seq may assign (a library call: its arguments)."""
    if isinstance(s, ast.Assign):
        return {s.target.name}
    if isinstance(s, (ast.Read, ast.FileOp)):
        return set(io_outputs(s))
    if isinstance(s, ast.CallStmt):
        return {e.name for e in s.args if isinstance(e, (ast.Var, ast.Ref))}
    return set()


def _bind_assigned(p, s: ast.Assign, frame: Frame, inner: dict) -> None:
    """``inner`` after the scalar assignment ``s``: its target bound to the value's closed form
    when it has one, else varying."""
    name = s.target.name
    sym = frame.table.symbols.get(name)
    if sym is None or sym.is_array or sym.type == "CHARACTER":
        _unbind(inner, {name})
        return
    try:
        value = assigned_value(p.closed_value(s.value, frame, inner), sym.type)
    except (NotClosedForm, InterpError):
        _unbind(inner, {name})
        return
    inner[name] = value
    inner[VARYING].discard(name)
    inner[BOUND].add(name)


def _unbind(inner: dict, names) -> None:
    for name in names:
        inner.pop(name, None)
        inner[VARYING].add(name)
        inner[BOUND].discard(name)


def _form(table: dict[type, Callable], a: A.AAU) -> Callable:
    """The form of Ω for ``a``'s type (its nearest base in the table: IterD finds Iter)."""
    form = table.get(type(a))
    if form is None:
        form = table[type(a)] = next(table[c] for c in type(a).__mro__ if c in table)
    return form


# ---- Start, End ------------------------------------------------------------------------------


def step_start(p, a: A.Start, frame) -> Generator:
    return None
    yield  # a generator that does nothing


def closed_start(p, a: A.Start, frame, binding, out, last) -> sp.Expr:
    return 0.0


def step_end(p, a: A.End, frame) -> Generator:
    return None if a.kind == "end" else a.kind
    yield


def closed_end(p, a: A.End, frame, binding, out, last) -> sp.Expr:
    if a.kind == "end" or (a.kind == "return" and last) or (
            a.kind.startswith("exit:") and p.counted_by_user):
        return 0.0
    raise NotClosedForm


# ---- Seq: sequential work --------------------------------------------------------------------


def step_seq(p, a: A.Seq, frame) -> Generator:
    seq(p, a, frame)
    return None
    yield


def seq(p, a: A.Seq, frame) -> None:
    """One execution of a Seq: its statements' data flow, then its time."""
    for stmt in a.stmts:
        p.exec_stmt(stmt, frame)
    p.advance("computation", closed_seq(p, a, frame))


def closed_seq(p, a: A.Seq, frame, binding=None, out=None, last=False) -> sp.Expr:
    if not a.ops.user_calls or _fixed_functions(p, a):  # the same δ at every execution
        return p.cm.memo(("seq and functions", a.id), lambda: _seq_seconds(p, a, frame, {}))
    return _seq_seconds(p, a, frame, binding or {})


def _seq_seconds(p, a: A.Seq, frame, binding: dict) -> sp.Expr:
    cost = p.cm.seq_seconds(a.id, lambda: compute_seconds(a.ops, p.cm, hit_ratio(a, frame.table, p.cm)))
    for name, actuals in zip(a.ops.user_calls, a.ops.user_args):  # FUNCTIONs in expressions
        cost += _function_seconds(p, a, name, actuals, frame, binding)
    return cost


def _fixed_functions(p, a: A.Seq) -> bool:
    """Whether every FUNCTION ``a`` references has a δ that reads no value: a time the user
    gave, none known (not the program's), or a straight-line body (:func:`_function_seconds`)."""
    return all(name in p.inputs.routines or name not in p.aag.units
               or straight.straight_body(p.aag, name) is not None for name in a.ops.user_calls)


def _function_seconds(p, a: A.Seq, name: str, actuals, frame, binding: dict) -> sp.Expr:
    """δ of one reference to the user FUNCTION ``name`` in an expression of ``a``: the user's
    time (--routine), else its body in closed form with its dummies bound to the actuals."""
    if name in p.inputs.routines:
        return as_time(p.inputs.routines[name])
    unit = p.aag.units.get(name)
    if unit is None:
        return 0.0
    try:
        if straight.straight_body(p.aag, name) is not None:  # δ reads no value: one for all
            return p.cm.memo(("straight seconds", name), lambda: closed_form_list(
                p, unit.aaus, p.frame_for(unit), {}, {}))
        return closed_form_list(p, unit.aaus, p.frame_for(unit),
                                _dummy_values(p, unit, actuals, frame, binding), {})
    except NotClosedForm:
        stepped = None if binding else _function_stepped(p, unit, actuals, frame)
        if stepped is not None:
            return stepped
        # (the reference's own line: a Seq AAU of several statements starts at the first)
        where = next((x.loc for x in actuals if getattr(x, "loc", None) is not None), a.loc)
        raise InterpError(
            f"FUNCTION {name}, used in an expression at line {where.line}, has no closed form "
            "(a loop in it must be unrolled, or control leaves it early), and interp does not "
            "interpret a function step by step inside an expression", where,
            hint=f"give its time with --routine {name}=SECONDS") from None


def _function_stepped(p, unit, actuals, frame) -> sp.Expr | None:
    """δ of a FUNCTION without a closed form (a GO TO loop in it), interpreted step by step
    with its arguments' values, outside any closed form; the clock and categories are put
    back and δ returned. None when it cannot be (it communicates, or a value is missing)."""
    if p.recorder is not None:
        p.recorder.refuse("a FUNCTION stepped inside an expression")
    clock, cats, timeline, current = p.clock, dict(p.cats), p.timeline, p.current_aau
    p.timeline = None  # its time is priced where it is referenced, not recorded twice
    chain = step_list(p, unit.aaus, p.call_frame(unit, actuals, frame, share=False))
    try:
        next(chain)  # a request: the function communicates
        chain.close()
        return None
    except StopIteration:
        return p.clock - clock
    except InterpError:
        return None
    finally:
        p.clock, p.cats, p.timeline, p.current_aau = clock, cats, timeline, current


FUNCTION_STATEMENT_BUDGET = 100_000  # statements interp runs to work out one FUNCTION value


def function_value(p, ref: ast.Ref, args: list, frame) -> object | None:
    """The value of a reference to the user FUNCTION ``ref.name`` whose arguments have the
    values ``args``: its body interpreted on ``p`` with its dummies bound to them, the value
    it leaves in the function's name (F77 15.5.1). Silent: the reference's time is priced by
    :func:`closed_seq`. None when ``ref`` is not a FUNCTION of the program or an argument's
    value is not a number (a symbol of a closed form); a SymbolicError when the body cannot
    be followed (it communicates, recurses, runs over budget, or needs a value not known)."""
    unit = p.aag.units.get(ref.name)
    if unit is None or unit.unit.kind != "FUNCTION":
        return None
    body = straight.straight_body(p.aag, ref.name)
    if body is not None and not p.keeps_state(unit) and ref.name not in p.evaluating and (
            p.budget is None or p.budget >= len(body.stmts)):
        value = _straight_value(p, unit, body, ref, args, frame)
        if value is not None:
            return value
    inner = p.frame_for(unit)
    for dummy, actual, value in zip(unit.unit.dummies, ref.args, args):
        sym = frame.table.symbols.get(actual.name) if isinstance(actual, ast.Var) else None
        if sym is not None and sym.is_array:  # a whole array: its elements, by reference
            for suffix, element in frame.elements(actual.name).items():
                inner.set(dummy + suffix, element)
        elif _is_number(value):
            inner.set(dummy, value)
        else:
            return None
    text = f"{ref.name}({', '.join(str(v) for v in args)})"
    if ref.name in p.evaluating:
        raise SymbolicError(f"the value of {text} is not known: {ref.name} references itself",
                            ref.loc)
    saved = (p.clock, dict(p.cats), {k: AAUStat(v.count, v.total, v.tau) for k, v in p.stats.items()},
             list(p.notes), len(p.decisions), dict(p.assumptions), p.trace, p.budget,
             p.timeline, p.current_aau)
    p.evaluating.add(ref.name)
    p.trace = p.timeline = None
    if p.recorder is not None:  # its time and statistics are put back: so are its events
        p.recorder.muted += 1
    if p.budget is None:
        p.budget = FUNCTION_STATEMENT_BUDGET
    chain = step_list(p, unit.aaus, inner)
    try:
        next(chain)  # a request: the function communicates
        chain.close()
        raise SymbolicError(f"the value of {text} is not known: {ref.name} communicates", ref.loc)
    except StopIteration:
        pass
    except (InterpError, NotClosedForm) as err:
        if isinstance(err, SymbolicError) and err.message.startswith(f"the value of {text}"):
            raise
        why = getattr(err, "message", None) or "its body has no value interp follows"
        raise SymbolicError(f"the value of {text} is not known: {why}", ref.loc) from None
    finally:
        if p.recorder is not None:
            p.recorder.muted -= 1
        p.evaluating.discard(ref.name)
        (p.clock, p.cats, p.stats, p.notes, n_decisions, p.assumptions, p.trace,
         p.budget, p.timeline, p.current_aau) = saved
        del p.decisions[n_decisions:]
    _copy_back(p, unit, ref, frame, inner)
    p.keep_saved(unit, inner)
    result = inner.get(ref.name)
    if result is None or is_unknown(result):
        raise SymbolicError(f"the value of {text} is not known: "
                            + (result.why if result is not None else
                               f"{ref.name} assigns no value to its name"), ref.loc)
    return result


def _straight_value(p, unit, body, ref: ast.Ref, args: list, frame) -> object | None:
    """:func:`function_value` of a straight-line body (straight.py), its outcome remembered
    by the arguments' values: for every process and bound where it was computed from them
    alone (``straight.compiled_outcome``: CG's ranks draw the same seeds), else per process;
    None: Ω works it out."""
    if not all(_is_number(v) for v in args) or any(
            isinstance(x, ast.Var) and (sym := frame.table.symbols.get(x.name)) is not None
            and sym.is_array for x in ref.args):
        return None
    key = straight.memo_key(ref.name, args)
    left = None
    if key is not None:
        left = p.function_memo.get(key) or straight.shared_outcomes(p.aag).get(key)
    if left is None:
        env = straight.compiled_outcome(p, unit, body, args) if key is not None else None
        memo = straight.shared_outcomes(p.aag) if env is not None else p.function_memo
        if env is None:
            env = straight.outcome(p, unit, body, args)
        if env is None:
            return None
        left = straight.Left({d: env.get(d) for d in (ref.name, *unit.unit.dummies)})
        if left.get(ref.name) is None or is_unknown(left.get(ref.name)):
            return None
        if key is not None:
            if len(memo) >= straight.MEMO_LIMIT:
                memo.clear()
            memo[key] = left
    p.steps += body.steps  # as if stepped: the step budget is spent the same
    _copy_back(p, unit, ref, frame, left)
    return left.get(ref.name)


def _copy_back(p, unit, ref: ast.Ref, frame, inner) -> None:
    """What the FUNCTION left in the dummies it may assign goes back to the actual arguments,
    by reference (F77 15.9.3.1): NPB's RANDLC(X, A) advances the caller's seed X. A dummy it
    could not follow leaves its actual not known rather than stale."""
    positions, _ = function_changes(p.aag, ref.name)
    for i in sorted(positions):
        if i >= len(ref.args) or not isinstance(ref.args[i], (ast.Var, ast.Ref)):
            continue
        dummy, actual = unit.unit.dummies[i], ref.args[i]
        sym = frame.table.symbols.get(actual.name)
        if sym is None or sym.kind == "parameter":
            continue
        if isinstance(actual, ast.Var):
            for suffix, value in inner.elements(dummy).items():
                frame.set(actual.name + suffix, value)
            continue
        try:  # an array element: the element of its subscripts' values
            resolve = frame.resolver(p.library_values(), p._function_hook(frame))
            indices = [as_sympy(fast_or_symbolic(x, frame.table, resolve)) for x in actual.args]
        except (SymbolicError, ZeroDivisionError, TypeError):
            frame.forget(actual.name)
            continue
        value = inner.get(dummy)
        frame.assign(actual.name, indices, value if value is not None else UNKNOWN)


def _is_number(value) -> bool:
    return isinstance(value, (int, float, complex, bool)) or (
        isinstance(value, sp.Basic) and (value.is_number or value in (sp.true, sp.false)))


# ---- Comm, Sync, SyncSeq, Spawn: the scheduler prices them -----------------------------------


def step_comm(p, a: A.AAU, frame) -> Generator:
    yield from communicate(p, a, frame)
    return None


def closed_comm(p, a, frame, binding, out, last) -> sp.Expr:
    raise NotClosedForm  # its time depends on the partners: Algorithm 2 interprets it


# ---- Iter: loops -----------------------------------------------------------------------------


def step_loop(p, a: A.Iter, frame) -> Generator:
    if isinstance(a, A.IterND):
        k = p.inputs.iterations_for(a.unit, a.loc)
        if k is not None:
            return (yield from _step_user_count(p, a, frame, k))
    if isinstance(a, A.IterD) or (isinstance(a, A.IterSync) and _computing(a)) or \
            _runtime_bounds(a):
        out: dict = {}
        try:
            delta = loopmemo.remembered(
                p, a, frame, lambda counts: closed_loop(p, a, frame, {}, counts))(out)
        except NotClosedForm:
            pass
        else:
            p.advance("computation", delta)
            p.record_closed_form(out)
            _after_closed_loop(p, a, frame, out)
            return None
    if a.cond is not None:
        n = induction.trip(p, a, frame)
        if n is not None and _closed_induction(p, a, frame, n):
            return None
        if n is not None and a.has_sync():
            return (yield from _step_induction(p, a, frame, n))
        return (yield from _step_while(p, a, frame))
    if a.limit_type == "goto":
        return (yield from _step_goto(p, a, frame))
    return (yield from _step_counted(p, a, frame))


def closed_loop(p, a: A.Iter, frame, binding: dict, out: dict, last=False) -> sp.Expr:
    """Ω of a loop in closed form: t_fixed + n·t_per_iter + Σ δ_body over the iterations."""
    if (isinstance(a, A.IterND) and not _runtime_bounds(a)) or not _computing(a):
        raise NotClosedForm
    var = sp.Dummy(a.var, integer=True)
    try:
        start = p.closed_value(a.start, frame, binding)
        stop = p.closed_value(a.stop, frame, binding)
        step_ = p.closed_value(a.step, frame, binding) if a.step is not None else sp.Integer(1)
    except NotClosedForm:
        if not _limits_are_data(p, a, frame) or _followed_elements(p, a, frame, binding):
            raise
        return _data_trip_loop(p, a, frame, binding, out, var)
    n = as_count(trip_count(start, stop, step_))
    inner = dict(binding)
    # values assigned in the body differ between iterations: a condition on them is data
    inner[VARYING] = set(binding.get(VARYING, ())) | (assigned(a) - {a.var})
    inner[a.var] = var
    sub: dict = {}
    body = closed_form_list(p, a.body, frame, inner, sub)
    fixed, per_iter = loop_overheads(a, p.cm)
    for k, (c, t) in sub.items():
        oc, ot = out.get(k, (0, 0.0))
        out[k] = (oc + sum_over(c, var, start, step_, n, a, p.notes),
                  ot + sum_over(t, var, start, step_, n, a, p.notes))
    return fixed + n * per_iter + sum_over(body, var, start, step_, n, a, p.notes)


def _runtime_bounds(a: A.Iter) -> bool:
    """A DO loop that is IterND only because its bounds are not known at parse time (array
    elements, CG's ``DO K = ROWSTR(J), ROWSTR(J+1)-1``): no GO TO leaves it, so it has a
    closed form once its bounds are known at run time (or are data: its trip count symbol)."""
    return isinstance(a, A.IterND) and a.limits_at_run_time and _computing(a)


def _followed_elements(p, a: A.Iter, frame, binding: dict) -> bool:
    """Whether a loop's limits read elements of an array interp follows, indexed by an
    enclosing closed form's index (``DO K = IP(J), IP(J+1)-1`` with IP known): the enclosing
    loop is then stepped, and the bounds followed, rather than a trip count symbol used."""
    table = frame.table
    for e in (a.start, a.stop, a.step):
        if e is None:
            continue
        for node in walk(e):
            if not isinstance(node, ast.Ref) or not set(names_in(node, table)) & set(binding):
                continue
            sym = table.symbols.get(node.name)
            if sym is None or not sym.is_array:
                continue
            if frame.known_elements(node.name):
                return True
    return False


def _limits_are_data(p, a: A.Iter, frame) -> bool:
    """Whether a DO loop's limits depend on values interp does not follow (not on a value the
    enclosing closed form changes from one iteration to the next)."""
    try:
        for e in (a.start, a.stop, a.step):
            if e is not None:
                p.value(e, frame, "a loop limit")
    except InterpError:
        return True
    return False


def _data_trip_loop(p, a: A.Iter, frame, binding: dict, out: dict, var) -> sp.Expr:
    """Ω of a DO loop whose limits are run-time data: n·(t_per_iter + δ_body) with n its trip
    count symbol (datadep), or the count ``--iterations`` gives it, when δ_body does not
    depend on the index."""
    k = p.inputs.iterations_for(a.unit, a.loc)
    n = sp.Integer(k) if k is not None else p.data_value(trip_symbol(a))
    inner = dict(binding)
    inner[VARYING] = set(binding.get(VARYING, ())) | (assigned(a) - {a.var})
    inner[a.var] = var
    sub: dict = {}
    body = closed_form_list(p, a.body, frame, inner, sub)
    if var in as_sympy(body).free_symbols:
        raise NotClosedForm
    fixed, per_iter = loop_overheads(a, p.cm)
    for k, (c, t) in sub.items():
        oc, ot = out.get(k, (0, 0.0))
        out[k] = (oc + n * c, ot + n * t)
    return fixed + n * (per_iter + body)


def _step_user_count(p, a: A.Iter, frame, k: int) -> Generator:
    """An IterND interpreted with the user's heuristic: exactly ``k`` iterations."""
    p.notes.append(f"line {a.loc.line}: loop interpreted with the user's heuristic of "
                   f"{k} iterations (--iterations)")
    fixed, per_iter = loop_overheads(a, p.cm)
    if _computing(a):
        p.counted_by_user = True
        try:
            out: dict = {}
            body = closed_form_list(p, a.body, frame, {a.var: sp.Dummy(a.var)} if a.var else {}, out)
        except NotClosedForm:
            body = None
        finally:
            p.counted_by_user = False
        if body is not None:
            p.advance("computation", fixed + k * (per_iter + body))
            p.record_closed_form(out, k)
            for name in assigned(a):
                frame.forget(name)
            return None
    p.advance("computation", fixed)
    for _ in range(k):
        stepbudget.check(p, a)
        p.advance("computation", per_iter)
        signal = yield from step_list(p, a.body, frame)
        if signal is not None and not signal.startswith("exit:"):
            return signal
    return None


def _closed_induction(p, a: A.Iter, frame, n: sp.Expr) -> bool:
    """Ω of a DO WHILE / GO TO loop counted by an induction variable (induction.py) in closed
    form, n·δ_body with its test made n (+1 at the head) times; False when the body has none."""
    sub: dict = {}
    try:  # values the body assigns differ between iterations: a condition on them is data
        body = closed_form_list(p, a.body, frame, {VARYING: assigned(a)}, sub)
    except NotClosedForm:
        return False
    fixed, per_iter = loop_overheads(a, p.cm)
    tests = n if a.test_at_end else n + 1
    p.advance("computation", fixed + tests * per_iter + n * body)
    out = {k: (n * c, n * t) for k, (c, t) in sub.items()}
    p.record_closed_form(out)
    name, value = induction.final_value(p, a, frame, n)
    _after_closed_loop(p, a, frame, out)
    frame.set(name, value)
    return True


def _after_closed_loop(p, a: A.Iter, frame, out: dict) -> None:
    """Values a closed-form loop leaves behind: its body's data flow, replayed (dataflow)."""
    follow(p, [a], frame, out)


def _step_counted(p, a: A.Iter, frame) -> Generator:
    start = p.value(a.start, frame, f"the start of the DO {a.var} loop")
    stop = p.value(a.stop, frame, f"the bound of the DO {a.var} loop")
    step_ = p.value(a.step, frame, f"the step of the DO {a.var} loop") if a.step is not None \
        else sp.Integer(1)
    n = trip_count(start, stop, step_)
    if not n.is_number and not isinstance(a, A.IterSync):
        raise NeedValue([str(s) for s in n.free_symbols],
                        f"the trip count of the DO {a.var} loop (it must be unrolled: "
                        f"{a.nd_reason or 'it cannot be put in closed form'})", a.loc)
    if isinstance(a, A.IterND):
        p.notes.append(f"line {a.loc.line}: DO {a.var} loop interpreted by unrolling "
                       f"({a.nd_reason})")
    fixed, per_iter = loop_overheads(a, p.cm)
    p.advance("computation", fixed)
    if not isinstance(a, A.IterSync) and all(v.is_Integer for v in (start, stop, step_, n)):
        return (yield from _step_integers(p, a, frame, int(start), int(step_), int(n), per_iter))
    if isinstance(a, A.IterSync):  # a decision on its index is logged by its outcome
        loop = indextests.SteppedLoop(a, frame, start, step_)
        p.index_loops += (loop,)
        try:
            return (yield from _step_sync(p, a, frame, start, step_, n, per_iter))
        finally:
            p.index_loops = tuple(x for x in p.index_loops if x is not loop)
    return (yield from _step_sync(p, a, frame, start, step_, n, per_iter))


def _step_sync(p, a: A.Iter, frame, start, step_, n, per_iter) -> Generator:
    """The iterations of a counted loop whose count may be symbolic or that asks the
    scheduler at its head (an IterSync: the steady state may jump, and the values its
    iterations change are moved on as they would have been: foldvalues)."""
    values = LoopValues(p, a, frame, a.var) if isinstance(a, A.IterSync) else None
    i = sp.Integer(1)
    while _more(p, a, i, n, f"the trip count of the DO {a.var} loop"):
        if values is not None:
            i = yield from _head(p, a, i, n, values)
        frame.set(a.var, start + (i - 1) * step_)
        stepbudget.check(p, a)
        p.advance("computation", per_iter)
        signal = yield from step_list(p, a.body, frame)
        if signal is not None:  # a GO TO out of the loop (the index keeps its value) or a RETURN
            return signal
        i += 1
    frame.set(a.var, start + (i - 1) * step_)
    return None


def _head(p, a: A.Iter, i, n, values: LoopValues) -> Generator:
    """The loop's head before iteration ``i`` of ``n``: the steady state may jump; the
    iteration to run then, with the values the jumped ones change moved on."""
    values.note()
    reply = yield from ask(LoopHead(a, p, i, n))
    if reply is not None and reply.jump:
        values.jumped(reply.jump, reply.period)
        return i + reply.jump
    return i


def _more(p, a: A.Iter, i, n, what: str) -> bool:
    """Whether iteration ``i`` of ``n`` runs; with a symbolic count it is assumed to (the
    steady state extends the loop), up to SYMBOLIC_ITERATION_LIMIT iterations."""
    more = sp.Le(i, n) if not (i.is_number and n.is_number) else (i <= n)
    if more in (sp.true, sp.false, True, False):
        return bool(more)
    if i > SYMBOLIC_ITERATION_LIMIT:  # no steady state: the count must be known
        raise NeedValue([str(x) for x in n.free_symbols], f"{what} (no steady state was reached "
                        f"in {SYMBOLIC_ITERATION_LIMIT} iterations)", a.loc)
    p.assume(sp.Ge(n, i), a)
    return True


def _step_induction(p, a: A.Iter, frame, n) -> Generator:
    """A GO TO or DO WHILE loop counted by an induction variable (induction.py) whose body
    communicates: its ``n`` iterations stepped with a head the steady state may jump, as a DO
    loop's (the induction variable is moved on with the others: foldvalues). Its test is made
    n times when at the end, n + 1 at the head, as :func:`_step_while` makes it."""
    fixed, per_iter = loop_overheads(a, p.cm)
    p.advance("computation", fixed)
    values = LoopValues(p, a, frame, None)
    i = sp.Integer(1)
    while _more(p, a, i, n, f"the trip count of the loop at line {a.loc.line}"):
        i = yield from _head(p, a, i, n, values)
        stepbudget.check(p, a)
        if not a.test_at_end:
            p.advance("computation", per_iter)
        signal = yield from step_list(p, a.body, frame)
        if signal is not None and not _cycles(a, signal):
            return signal
        if a.test_at_end:
            p.advance("computation", per_iter)
        i += 1
    if not a.test_at_end:
        p.advance("computation", per_iter)  # (the test that ends it)
    return None


def _step_integers(p, a: A.Iter, frame, start: int, step_: int, n: int, per_iter) -> Generator:
    """:func:`_step_counted` of a loop with integer limits that asks the scheduler nothing:
    the count kept in Python integers (the index is stored as the SymPy integer it was)."""
    computing = _computing(a)
    sample = p.max_steps // stepbudget.SAMPLE if computing and stepbudget.unfollowed(p, a) \
        else None
    steps, clock = p.steps, p.clock
    i = 1
    while i <= n:
        if sample is not None and i > 1 and p.steps - steps >= sample:
            _not_followed(p, a, frame, i - 1, n, steps, p.steps - steps, p.clock - clock)
            i = n + 1
            break
        frame.set(a.var, sp.Integer(start + (i - 1) * step_))
        stepbudget.check(p, a, computing)
        p.advance("computation", per_iter)
        try:
            signal = yield from step_list(p, a.body, frame)
        except stepbudget.OverBudget as over:
            stepbudget.widen(over, p, a, computing)
            raise
        if signal is not None:  # a GO TO out of the loop (the index keeps its value) or a RETURN
            return signal
        i += 1
    frame.set(a.var, sp.Integer(start + (i - 1) * step_))
    return None


def _computing(a: A.Iter) -> bool:
    """No communication in the loop (kept on the AAU: a loop is entered many times, and
    ``has_sync`` walks its whole sub-AAG: asked at every closed form, it was 5% of SP's)."""
    known = a.__dict__.get("computing")
    if known is None:
        known = a.__dict__["computing"] = not a.has_sync()
    return known


def _not_followed(p, a: A.Iter, frame, done: int, n: int, before: int, steps: int,
                  seconds) -> None:
    """The rest of a loop not followed (``Inputs.unfollowed``) after its first ``done`` of
    ``n`` iterations (``steps`` AAU executions, ``seconds``; ``before`` the process's
    executions before the loop): the rest take the mean time of those, and what the loop
    assigns (its arrays passed to calls too) is run-time data."""
    p.advance("computation", sp.Rational(n - done, done) * seconds)
    names = set(assigned(a)) | {x.name for c in a.walk() if isinstance(c, A.Call)
                                for e in c.args for x in walk(e) if isinstance(x, ast.Ref)}
    why = f"computed by the loop at {a.loc.file}:{a.loc.line}, which interp does not follow"
    for name in sorted(names):
        sym = frame.table.symbols.get(name)
        if sym is not None and sym.kind in ("variable", "array"):
            frame.forget(name, why)
    for unit in p.aag.callees(a):  # what they leave in COMMON (the store is by name)
        callee = Frame(unit.symbols, unit.name, common=frame.common)
        for name in sorted(unit.definitions):
            sym = unit.symbols.symbols.get(name)
            if sym is not None and sym.common is not None:
                callee.forget(name, why)
    where = f"{a.loc.file.rsplit('/', 1)[-1]}:{a.loc.line}"
    total = steps * n // done
    # (the budget counts the process's executions: the --max-steps that follows the loop
    # covers those before it too)
    needed = before + total
    p.notes.append(
        f"the DO {a.var} loop at {where} is not followed: it would take ~{_about(total)} AAU "
        f"executions a {p.label.split()[0]} to follow, ~{_about(needed)} with those before it, "
        f"past the step budget of "
        f"{p.max_steps:,}; its first iterations were followed (up to {p.max_steps // stepbudget.SAMPLE:,} "
        f"executions) and the rest given their mean time, and what it computes is run-time "
        f"data, so the loops and IFs that read it are data symbols (trip counts n_…, branch "
        f"probabilities p_…: defaults, or measured with interp profile and given with --set); "
        f"--max-steps {_about_up(needed)} or more follows its values instead")


def _about(steps: int) -> str:
    """A step count to one significant digit (the ranks' counts differ in the next ones: one
    note for most ranks, not one a rank)."""
    return f"{float(f'{steps:.1g}'):,.0f}"


def _about_up(steps: int) -> str:
    """A budget that covers ``steps`` with a margin: 1.5 × it, rounded up to one significant
    digit."""
    unit = 10 ** (len(str(steps * 3 // 2)) - 1)
    return str(-(-(steps * 3 // 2) // unit) * unit)


def _step_while(p, a: A.Iter, frame) -> Generator:
    p.notes.append(f"line {a.loc.line}: loop interpreted by unrolling ({a.nd_reason})")
    fixed, per_iter = loop_overheads(a, p.cm)
    p.advance("computation", fixed)
    poll = _poll(p, a, frame)
    logical = poll is not None and not _compared(a.cond)  # .NOT. MSGDONE(ID), or .EQ. 0
    done = None  # poll: when the polled message is there
    first, since = True, p.clock
    while True:
        stepbudget.check(p, a)
        if not (a.test_at_end and first):
            p.advance("computation", per_iter)
            if poll is not None:
                if done is None:
                    done = yield from completion(p, a, frame, poll)
                if not first and p.clock == since and is_earlier(p.clock, done):
                    _free_polls(p, a, frame, done)  # polls that cost nothing: all at once
                since = p.clock
                arrived = not is_earlier(p.clock, done)
                p.library_values()["MSGDONE"] = (sp.true if arrived else sp.false) \
                    if logical else sp.Integer(int(arrived))
            try:
                go_on = _goes_on(p, a, frame)
            except NeedValue as need:  # --iterations gives the count without the inputs
                raise NeedValue(need.names, need.message.split(" depends on ")[0],
                                need.location, loop=a.loc) from None
            finally:
                p.library_values().pop("MSGDONE", None)
            if not go_on:
                break
        first = False
        signal = yield from step_list(p, a.body, frame)
        if signal is not None and not _cycles(a, signal):
            return signal
    return None


def _poll(p, a: A.Iter, frame) -> str | None:
    """The request a loop's test polls with MSGDONE (``10 IF (MSGDONE(ID) .EQ. 0) THEN …
    GO TO 10``): the loop runs until its message is there, one test and body a poll
    (:func:`_step_while`). None for any other loop, or one polling several requests."""
    if a.cond is None:
        return None
    polled = {expr_text(e): e for e in walk(a.cond) if isinstance(e, ast.Ref)
              and (call := library_calls().get(e.name)) is not None and call.op == "query"
              and "request" in call.args}
    if len(polled) != 1:
        return None
    (ref,) = polled.values()
    if len(ref.args) != 1 or not isinstance(ref.args[0], (ast.Var, ast.Ref)):
        return None
    arg = ref.args[0]
    if isinstance(arg, ast.Var):
        return arg.name
    idx = [p.value(i, frame, f"the message id index at line {a.loc.line}") for i in arg.args]
    return element_key(arg.name, idx)


def _compared(cond: ast.Expr) -> bool:
    """Whether the MSGDONE a loop's test polls is compared (``MSGDONE(ID) .EQ. 0``: its
    integer value, 1 or 0) rather than a truth value (``.NOT. MSGDONE(ID)``)."""
    for e in walk(cond):
        if isinstance(e, ast.BinOp) and e.op in ast.RELATIONAL and any(
                isinstance(x, ast.Ref) and x.name == "MSGDONE" for x in (e.left, e.right)):
            return True
    return False


def _free_polls(p, a: A.Iter, frame, done) -> None:
    """A polling loop whose test and body cost nothing (computation switched off): its polls
    are countless, so the process is at ``done`` at once and what the body assigns is not
    followed."""
    p.advance("waiting", done - p.clock)
    why = f"it is assigned by the loop at line {a.loc.line}, which polls without cost"
    for name in sorted(assigned(a)):
        sym = frame.table.symbols.get(name)
        if sym is not None and sym.kind in ("variable", "array"):
            frame.forget(name, why)
    note = (f"the loop at line {a.loc.line} polls a message at no cost (computation is off): "
            "it ends when the message is there, its polls not counted")
    if note not in p.notes:
        p.notes.append(note)


def _goes_on(p, a: A.Iter, frame) -> bool:
    """Whether a DO WHILE or GO TO loop runs again. A condition on run-time data interp does
    not follow (a residual: ``IF (DIFF .GT. TOL .AND. IT .LT. MAXIT) GO TO 100``) is decided
    by its followed parts where they settle it (the counter), else by the loop's branch
    probability (datadep.loop_symbol), by error diffusion as a data-dependent IF's arm."""
    what = f"the condition of the loop at line {a.loc.line}"
    try:
        value = _three_valued(p, a.cond, frame, what)
    except NotComputable:
        polled = _polled(a.cond)
        if not polled:
            raise
        where = f"{a.loc.file.rsplit('/', 1)[-1]}:{a.loc.line}"
        raise InterpError(
            f"the loop at line {a.loc.line} polls {polled}: interp does not follow when a "
            "message completes while a loop runs", a.cond.loc,
            hint=f"wait with MSGWAIT instead (its waiting is the polling time), or give the "
                 f"loop's count with --iterations {where}=COUNT") from None
    if value is not None:
        return value
    unit = p.aag.units.get(a.unit)
    if unit is not None and unit.kind == "FUNCTION":  # its value or time is asked for: the
        p.decide(a.cond, frame, what)  # data's error, as before (--routine gives its time)
    s = p.cm.memo(("loop test", a.id), lambda: loop_symbol(a, any(
        _three_valued(p, c, frame, what) is not None for c in _conjuncts(a.cond))))
    go_on = p.data_number(s, "the test of the loop")
    counts = p.arm_counts.setdefault(a.id, [0, 0])
    k = diffuse([go_on, max(0.0, 1.0 - go_on)], counts)
    counts[k] += 1
    p.decisions.append((f"test of the loop {a.id}", k))  # a periodicity check compares them
    return k == 0


def _polled(cond: ast.Expr) -> str | None:
    """The message-completion query a loop condition reads (NX/2's MSGDONE), if any."""
    for e in walk(cond):
        call = library_calls().get(e.name) if isinstance(e, ast.Ref) else None
        if call is not None and call.op == "query" and "request" in call.args:
            return f"{e.name}({', '.join(expr_text(x) for x in e.args)})"
    return None


def _conjuncts(cond: ast.Expr) -> list[ast.Expr]:
    if isinstance(cond, ast.BinOp) and cond.op == "AND":
        return _conjuncts(cond.left) + _conjuncts(cond.right)
    return [cond]


def _three_valued(p, cond: ast.Expr, frame, what: str) -> bool | None:
    """``cond``'s value, None where run-time data interp does not follow decides it (an input
    that is only a symbol is still asked for: NeedValue)."""
    if isinstance(cond, ast.UnOp) and cond.op == "NOT":
        v = _three_valued(p, cond.operand, frame, what)
        return None if v is None else not v
    if isinstance(cond, ast.BinOp) and cond.op in ("AND", "OR"):
        left = _three_valued(p, cond.left, frame, what)
        right = _three_valued(p, cond.right, frame, what)
        settles = cond.op == "OR"  # the operand value that decides alone
        if settles in (left, right):
            return settles
        return None if None in (left, right) else not settles
    try:
        return p.decide(cond, frame, what)
    except (NeedValue, NotComputable):  # an input to give; a value only the run knows
        raise
    except InterpError:
        return None


def _step_goto(p, a: A.Iter, frame) -> Generator:
    """A natural loop of GO TOs: the body again while it ends in a GO TO to the head."""
    p.notes.append(f"line {a.loc.line}: loop interpreted by unrolling ({a.nd_reason})")
    fixed, per_iter = loop_overheads(a, p.cm)
    p.advance("computation", fixed)
    while True:
        stepbudget.check(p, a)
        p.advance("computation", per_iter)
        signal = yield from step_list(p, a.body, frame)
        if not _cycles(a, signal):
            return signal


# ---- Condt: conditionals ---------------------------------------------------------------------


def step_conditional(p, a: A.Condt, frame) -> Generator:
    taken, v = None, None
    undecided = False
    marking = bool(p.index_loops)  # an IF on a stepped loop's index: where its reads start
    if marking:
        n0, events = len(p.decisions), (len(p.recorder.log) if p.recorder is not None else 0)
    for k, b in enumerate(a.branches):
        if b.cond is None:
            taken = k
            break
        try:
            v = p.raw_value(b.cond, frame, f"the condition at line {b.loc.line}")
        except Unfold:  # a value a folded loop changed: the loop is stepped instead
            raise
        except InterpError:
            if isinstance(a, A.CondtSync):
                raise  # which arm communicates must be known
            v = None  # run-time data: its branch probabilities weigh or decide the arms
        if type(v) is bool:  # p.value's sp.true or sp.false, without SymPy's comparisons
            if v:
                taken = k
                break
            continue
        if v is not None:
            v = as_sympy(v)
        if v is None or v not in (sp.true, sp.false):
            undecided = True
            break
        if v == sp.true:
            taken = k
            break
    if undecided:
        if isinstance(a, A.CondtSync):
            raise NeedValue([str(s) for s in v.free_symbols], f"which branch of the IF at line "
                            f"{a.loc.line} runs (it communicates)", a.loc)
        if not _arms_steer(p, a, frame):
            out: dict = {}
            try:
                delta = closed_conditional(p, a, frame, {}, out)
            except NotClosedForm:  # an arm leaves the loop or routine: decide it (below)
                pass
            else:
                p.advance("computation", delta)
                p.record_closed_form(out)
                for name in assigned(a):
                    frame.forget(name)
                return None
        if v is not None:  # the inputs decide it, not run-time data: their values are needed
            raise NeedValue([str(s) for s in v.free_symbols], f"which branch of the IF at line "
                            f"{a.loc.line} runs", a.loc)
        taken = _diffused_arm(p, a, k)
    elif marking:
        indextests.mark(p, a, frame, n0, events, taken)
    p.advance("computation", branch_overhead(a.branches, taken, p.cm))
    if taken is None:
        return None
    return (yield from step_list(p, a.branches[taken].body, frame))


def _arms_steer(p, a: A.Condt, frame) -> bool:
    """Whether an arm of ``a`` assigns an INTEGER or LOGICAL scalar a decision reads and
    interp follows now (a GO TO loop's counter): weighing the arms would forget it."""
    for name in p.cm.memo(("steering assigned", a.id), lambda: steering_assigned(p, [a], frame)):
        sym = frame.table.symbols.get(name)
        if sym is None or sym.is_array:
            continue
        try:
            p.value(ast.Var(name, a.loc), frame, "a counter")
        except InterpError:
            continue
        return True
    return False


def _branch_symbols(p, a: A.Condt) -> list:
    """The IF's branch probabilities, an arm that leaves a counted DO loop early at 0."""
    loops = p.cm.memo(("enclosing loops",), lambda: enclosing_loops(p.aag.units.values()))
    return p.cm.memo(("arms", a.id), lambda: branch_symbols(a, leaving_arms(a, loops.get(a.id, ()))))


def _diffused_arm(p, a: A.Condt, first: int) -> int | None:
    """The arm of a data-dependent IF taken at this execution while stepping, by error
    diffusion over its branch probabilities (datadep.diffuse); arms before ``first`` are known
    not to run. None: no arm runs (falling through)."""
    probs = [p.data_number(s) for s in _branch_symbols(p, a)]
    weights = probs + [max(0.0, 1.0 - sum(probs))]  # the ELSE arm, or falling through
    weights = [0.0 if k < first else w for k, w in enumerate(weights)]
    if sum(weights) <= 0:
        weights[-1] = 1.0
    counts = p.arm_counts.setdefault(a.id, [0] * len(weights))
    k = diffuse(weights, counts)
    counts[k] += 1
    p.decisions.append((f"arm of the IF {a.id}", k))  # a periodicity check compares them
    if k == len(a.branches):
        return None
    return k


def closed_conditional(p, a: A.Condt, frame, binding: dict, out: dict, last=False) -> sp.Expr:
    """The paper's weighted sum over the arms (Algorithm 3): Σ [C_k]·(Ω_k + overheads)."""
    if not isinstance(a, A.CondtD):
        raise NotClosedForm
    try:
        conds = [sp.true if b.cond is None else p.closed_value(b.cond, frame, binding)
                 for b in a.branches]
    except KeepsState:
        raise
    except NotClosedForm:  # a condition on data interp does not follow (e.g. a residual test)
        return _data_conditional(p, a, frame, _arms_binding(a, binding), out)
    binding = _arms_binding(a, binding)
    pieces = []
    for k, b in enumerate(a.branches):
        cond = conds[k]
        if cond == sp.false:
            continue
        sub: dict = {}
        cost = branch_overhead(a.branches, k, p.cm) + closed_form_list(p, b.body, frame, binding, sub)
        # arm k runs when C_k holds and no earlier condition does (ordered, as the time)
        weight = sp.Piecewise(*[(0, c) for _, c in pieces], (1, cond), (0, True)) \
            if pieces or cond != sp.true else 1
        for key, (c, t) in sub.items():
            oc, ot = out.get(key, (0, 0.0))
            out[key] = (oc + weight * c, ot + weight * t)
        pieces.append((cost, cond))
        if cond == sp.true:
            break
    else:
        pieces.append((branch_overhead(a.branches, None, p.cm), sp.true))
    if len(pieces) == 1:
        return pieces[0][0]
    return sp.Piecewise(*pieces)


def _arms_binding(a: A.Condt, binding: dict) -> dict:
    """The binding the arms are costed with: what an arm assigns is not executed by the
    closed form, so a later decision in it that reads those names is data, not a stale value."""
    inner = dict(binding)
    inner[VARYING] = set(binding.get(VARYING, ())) | assigned(a)
    return inner


def _data_conditional(p, a: A.Condt, frame, binding: dict, out: dict) -> sp.Expr:
    """A condition on run-time data: each arm weighted by its branch probability, a symbol
    of the formula (:mod:`interp.engine.datadep`); the ELSE arm, or falling through, by the
    rest."""
    weights = [p.data_value(s) for s in _branch_symbols(p, a)]
    rest = 1 - sum(weights)
    total = 0.0
    for k, b in enumerate(a.branches):
        w = weights[k] if b.cond is not None else rest
        sub: dict = {}
        total += w * (branch_overhead(a.branches, k, p.cm)
                      + closed_form_list(p, b.body, frame, binding, sub))
        for key, (c, t) in sub.items():
            oc, ot = out.get(key, (0, 0.0))
            out[key] = (oc + w * c, ot + w * t)
    if a.branches[-1].cond is not None:
        total += rest * branch_overhead(a.branches, None, p.cm)
    return total


# ---- Call: subroutine calls ------------------------------------------------------------------


def step_call(p, a: A.Call, frame) -> Generator:
    callee = p.aag.units[a.callee]
    if a.callee in p.inputs.routines:
        if a.callee_has_sync:
            raise InterpError(f"--routine {a.callee}: {a.callee} communicates, so its time "
                              "cannot be replaced by a number", a.loc,
                              hint="give times only for routines without message passing")
        p.advance("computation", as_time(p.inputs.routines[a.callee]))
        p.note(f"CALL {a.callee}: the user's interpretation function was used (--routine)")
        for actual in a.args:
            if isinstance(actual, ast.Var):
                frame.forget(actual.name)
        return None
    p.advance("computation", call_overhead(p, a))
    inner = p.call_frame(callee, a.args, frame)
    signal = yield from step_list(p, callee.aaus, inner)
    p.copy_back(callee, a.args, frame, inner)
    p.keep_saved(callee, inner)
    return "stop" if signal == "stop" else None


def closed_call(p, a: A.Call, frame, binding: dict, out: dict, last=False) -> sp.Expr:
    if a.callee_has_sync:
        raise NotClosedForm
    if a.callee in p.inputs.routines:
        return as_time(p.inputs.routines[a.callee])
    callee = p.aag.units[a.callee]
    sub: dict = {}
    body = closed_form_list(p, callee.aaus, p.frame_for(callee),
                            _dummy_values(p, callee, a.args, frame, binding), sub)
    p.keep_saved(callee, None)  # costed, not followed: what it SAVEs is not known
    for k, v in sub.items():
        c, t = out.get(k, (0, 0.0))
        out[k] = (c + v[0], t + v[1])
    return call_overhead(p, a) + body


def _dummy_values(p, callee, actuals, frame, binding: dict) -> dict:
    """The callee's binding in a closed form: each dummy's value from its actual argument
    (a dummy whose actual has no closed-form value is left out)."""
    args = {}
    steers = p.cm.memo(("steers", id(callee)), lambda: _steering_names(callee))
    for dummy, actual in zip(callee.unit.dummies, actuals):
        if dummy not in steers:  # its value cannot change the closed form: skip working it out
            continue
        try:
            args[dummy] = p.closed_value(actual, frame, binding)
        except NotClosedForm:
            pass
    return args


def _steering_names(unit) -> set[str]:
    """Every name a unit's closed form may read a value of: loop bounds and conditions, IF
    conditions, the actual arguments of its calls and FUNCTION references (their callees may
    read them in turn) and of its library calls."""
    return {n for a in unit.walk() for e in A.read_exprs(a) for n in names_in(e, unit.symbols)}


def call_overhead(p, a: A.Call) -> sp.Expr:
    """Seconds of one execution of a CALL itself (the call, its arguments), not its callee's."""
    return (p.cm.op("call.overhead") + len(a.args) * p.cm.op("call.per_arg")
            + compute_seconds(a.arg_ops, p.cm))


STEP: dict[type, Callable] = {
    A.Start: step_start, A.End: step_end, A.Seq: step_seq,
    A.Comm: step_comm, A.Sync: step_comm, A.SyncSeq: step_comm, A.Spawn: step_comm,
    A.Iter: step_loop, A.Condt: step_conditional, A.Call: step_call,
}
CLOSED: dict[type, Callable] = {
    A.Start: closed_start, A.End: closed_end, A.Seq: closed_seq,
    A.Comm: closed_comm, A.Sync: closed_comm, A.SyncSeq: closed_comm, A.Spawn: closed_comm,
    A.Iter: closed_loop, A.Condt: closed_conditional, A.Call: closed_call,
}
