"""Lost cycles of a run under SimGrid's SMPI, from SimGrid's own trace, by the definitions of
:mod:`interp.analysis.lostcycles` (docs/lost-cycles.md, "From an SMPI run").

The program runs as ``interp validate`` runs it -- computation switched off
(``smpi/simulate-computation:no``), on the platform exported from the spec -- with SMPI's
Paje tracing on (``smpirun -trace``, ``tracing/precision`` raised to 15 digits). The trace
gives, per rank, the start and end of every MPI call (Paje push and pop of a state named after
the call) and, per point-to-point message, when its sender started it and when the receiving
call got it (a Paje link, matched by its key). SimGrid's time-independent (TI) traces carry no
times, so they cannot say who waited.

Per rank, every second of ``[0, T_p]`` (T_p: the end of the last rank) is one of:

* outside any MPI call: computation (Remaining); parallel work when another rank computes at
  the same time (a trace names no AAU: any simultaneous computation counts);
* in a point-to-point call (send, receive, wait, sendrecv): idle until the latest of the
  messages it completes was started by its sender (LI or IP as for a prediction), the rest CL;
* in a collective: SL until the latest entry of the members whose messages reached it in the
  operation, directly or through others (SMPI's own messages of the collective), the rest CL:
  the prediction's rule (``interp.engine.collectives``);
* any other MPI call (MPI_INIT, MPI_COMM_RANK, MPI_FINALIZE …): CL;
* after the rank's end: idle.

RC is 0: the trace shows when a message arrived, not when it would have on idle links, so link
sharing stays in CL. A sender waiting for a rendezvous receive counts as CL too (the trace does
not say when the receive was posted).
"""

from __future__ import annotations

import re
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

from interp.analysis.lostcycles import LostCycles, merged, overlap, parallel_work, program_name
from interp.analysis.validate import Program, compile_program, run_smpi
from interp.application.catalog import lookup
from interp.errors import InterpError
from interp.system import SAG

TRACE_OPTIONS = ["-trace", "--cfg=tracing/precision:15", "--cfg=tracing/smpi/internals:yes"]
POINT_TO_POINT = ("send", "recv", "wait", "waitall", "sendrecv")
OTHER = ("setup", "query", "abort")
_TOKEN = re.compile(r'"[^"]*"|\S+')


@dataclass
class Call:
    """One MPI call of one rank, and when and by whom the messages it received were sent (a
    collective's own messages too: SMPI's ``tracing/smpi/internals``)."""

    name: str  # MPI_SEND, MPI_BCAST …
    start: float
    end: float = 0.0
    received: list[tuple[float, int]] = field(default_factory=list)  # (sent at, by rank)

    @property
    def kind(self) -> str:
        """``p2p``, ``collective`` or ``other``, by interp's catalog of MPI routines."""
        entry = lookup(self.name)
        if entry is None or entry.op in OTHER:
            return "other"
        return "p2p" if entry.op in POINT_TO_POINT else "collective"


@dataclass
class Rank:
    calls: list[Call] = field(default_factory=list)
    end: float | None = None  # when the rank's container was destroyed (it left MPI_FINALIZE)


def lost_cycles_smpi(files: list[str], sag: SAG, nprocs: int, *, timeout: float = 600.0,
                     workdir: Path | None = None,
                     inputs: dict[str, float] | None = None) -> LostCycles:
    """Compile FILES with smpiff, run them on ``nprocs`` ranks with tracing and classify.
    ``inputs``: values of the variables the program READs, given to it as standard input
    (:func:`standard_input`)."""
    from interp.application.aag import build_aag

    program = Program.of(files)
    aag = build_aag([str(f) for f in program.files])
    if any(getattr(a, "call", None) is not None and a.call.library == "nx2"
           for a in aag.all_aaus()):
        raise InterpError("--from smpi runs MPI programs, and this one calls NX/2 (csend, "
                          "crecv …), which SMPI does not provide",
                          hint="use the prediction (interp lost-cycles without --from smpi)")
    name = program_name(aag)
    with tempfile.TemporaryDirectory(prefix="interp-lost-cycles-") as tmp:
        base = Path(workdir or tmp)
        exe = compile_program(program.files, base, program.name)
        trace = base / f"{program.name}.{nprocs}.trace"
        run_smpi(exe, sag, nprocs, base, timeout=timeout, stdin=standard_input(aag, inputs or {}),
                 extra=[*TRACE_OPTIONS, "-trace-file", str(trace.resolve())])
        ranks = parse_paje(trace.read_text(), str(trace))
    out = classify(ranks, nprocs, name, sag.name)
    out.vars = dict(inputs or {})
    return out


def standard_input(aag, inputs: dict[str, float]) -> str:
    """The program's standard input for ``inputs``: one value per line, in the order of the
    variables' first READ in the source (file, line, column). A list-directed READ takes its
    values from as many lines as it needs, so one per line serves one READ per variable and one
    READ of several alike. Every variable the program READs must be given, and only those: the
    run has no other way to receive a value."""
    read = sorted((e for e in aag.external_inputs if e.how == "read"),
                  key=lambda e: min((loc.file, loc.line, loc.column) for loc in e.locations))
    names = [e.name for e in read]
    missing = [n for n in names if n not in inputs]
    if missing:
        raise InterpError(f"the program READs {', '.join(missing)}: the SMPI run needs "
                          f"{'its value' if len(missing) == 1 else 'their values'}",
                          hint=" ".join(f"--set {n}=VALUE" for n in missing))
    unread = sorted(set(inputs) - set(names))
    if unread:
        raise InterpError(f"--from smpi gives the program only the values it READs; "
                          f"{', '.join(unread)} {'is' if len(unread) == 1 else 'are'} not read",
                          hint=f"the program READs {', '.join(names) or 'nothing'}")
    return "".join(f"{_fortran_number(inputs[n])}\n" for n in names)


def _fortran_number(value: float) -> str:
    number = float(value)
    return str(int(number)) if number.is_integer() else repr(number)


# ---- the Paje trace ----------------------------------------------------------------------------


def parse_paje(text: str, where: str = "trace") -> dict[int, Rank]:
    """The ranks' MPI calls and received messages from SMPI's Paje trace: the event types are
    read from the trace's own ``%EventDef`` header (fields by name)."""
    fields: dict[str, tuple[str, list[str]]] = {}  # event id → (event name, field names)
    defining: list | None = None
    containers: dict[str, int] = {}  # container alias → rank
    values: dict[str, str] = {}  # state value alias → MPI routine
    ranks: dict[int, Rank] = {}
    open_: dict[int, list[Call]] = {}
    starts: dict[str, tuple[float, int]] = {}  # link key → (when, by whom) it was sent
    for number, line in enumerate(text.splitlines(), 1):
        if line.startswith("%EventDef"):
            _, event, ident = line.split()[:3]
            defining = [event, ident, []]
            continue
        if line.startswith("%EndEventDef"):
            fields[defining[1]] = (defining[0], defining[2])
            defining = None
            continue
        if line.startswith("%"):
            if defining is not None:
                defining[2].append(line[1:].split()[0])
            continue
        if not line.strip() or line.startswith("#"):
            continue
        tokens = [t.strip('"') for t in _TOKEN.findall(line)]
        if tokens[0] not in fields:
            raise InterpError(f"{where}:{number}: event {tokens[0]} has no %EventDef",
                              hint="is this SimGrid's Paje trace of an SMPI run?")
        event, names = fields[tokens[0]]
        ev = dict(zip(names, tokens[1:]))
        try:
            _event(event, ev, containers, values, ranks, open_, starts)
        except (KeyError, ValueError) as err:
            raise InterpError(f"{where}:{number}: cannot read this {event} ({err})",
                              hint="is this SimGrid's Paje trace of an SMPI run?") from None
    return ranks


def _event(event: str, ev: dict, containers, values, ranks, open_, starts) -> None:
    if event == "PajeCreateContainer" and ev["Name"].startswith("rank-"):
        containers[ev["Alias"]] = int(ev["Name"].removeprefix("rank-"))
        ranks[containers[ev["Alias"]]] = Rank()
    elif event == "PajeDefineEntityValue":
        values[ev["Alias"]] = ev["Name"].removeprefix("P").upper()  # PMPI_Send → MPI_SEND
    elif event == "PajePushState" and ev["Container"] in containers:
        rank = containers[ev["Container"]]
        call = Call(values.get(ev["Value"], ev["Value"]), float(ev["Time"]))
        ranks[rank].calls.append(call)
        open_.setdefault(rank, []).append(call)
    elif event == "PajePopState" and ev["Container"] in containers:
        open_[containers[ev["Container"]]].pop().end = float(ev["Time"])
    elif event == "PajeStartLink" and ev["StartContainer"] in containers:
        starts[ev["Key"]] = (float(ev["Time"]), containers[ev["StartContainer"]])
    elif event == "PajeEndLink" and ev["EndContainer"] in containers:
        rank = containers[ev["EndContainer"]]
        calls = open_.get(rank) or ranks[rank].calls[-1:]  # in the call, or the one just done
        if calls:
            calls[-1].received.append(starts[ev["Key"]])
    elif event == "PajeDestroyContainer" and ev["Name"] in containers:
        ranks[containers[ev["Name"]]].end = float(ev["Time"])


# ---- classification ----------------------------------------------------------------------------


def classify(ranks: dict[int, Rank], nprocs: int, program: str, machine: str) -> LostCycles:
    """The categories of the traced run (module docstring)."""
    if sorted(ranks) != list(range(nprocs)):
        raise InterpError(f"the SMPI trace has ranks {sorted(ranks)}, not 0..{nprocs - 1}")
    ends = {r: rk.end if rk.end is not None else max((c.end for c in rk.calls), default=0.0)
            for r, rk in ranks.items()}
    t_p = max(ends.values(), default=0.0)
    out = LostCycles("smpi", program, machine, nprocs, t_p)
    gaps = {r: _gaps(rk.calls, ends[r]) for r, rk in ranks.items()}
    work = parallel_work([(r, a, b, None) for r, g in gaps.items() for a, b in g])
    entries = _collective_entries(ranks)
    for r, rk in ranks.items():
        out.add(r, None, "remaining", sum(b - a for a, b in gaps[r]))
        idle = [(ends[r], t_p)]
        for k, call in enumerate(rk.calls):
            spent = call.end - call.start
            if call.kind == "collective":
                sl = _sync(call, entries[(r, k)])
                out.add(r, None, "sl", sl)
                out.add(r, None, "cl", spent - sl)
            elif call.kind == "p2p" and call.received:
                until = min(call.end, max(t for t, _ in call.received))
                idle.append((call.start, max(until, call.start)))
                out.add(r, None, "cl", call.end - max(until, call.start))
            else:
                out.add(r, None, "cl", spent)
        for a, b in idle:
            li = overlap(work, a, b)
            out.add(r, None, "li", li)
            out.add(r, None, "ip", max(b - a, 0.0) - li)
    return out


def _gaps(calls: list[Call], end: float) -> list[tuple[float, float]]:
    """The rank's time outside MPI calls, from 0 to its end."""
    busy = merged([(c.start, c.end) for c in calls])
    out, at = [], 0.0
    for a, b in busy:
        if a > at:
            out.append((at, a))
        at = max(at, b)
    if end > at:
        out.append((at, end))
    return out


def _collective_entries(ranks: dict[int, Rank]) -> dict[tuple[int, int], float]:
    """For each collective call (rank, index of the call), the latest entry into the operation
    of the members it waited for: itself and every member whose messages reached it within
    the operation, directly or through others. The k-th collective of every rank is one
    operation (the trace does not name communicators, so every collective must be on
    MPI_COMM_WORLD)."""
    per_rank = {r: [(k, c) for k, c in enumerate(rk.calls) if c.kind == "collective"]
                for r, rk in ranks.items()}
    counts = sorted({len(v) for v in per_rank.values()})
    out = {}
    for i in range(counts[-1] if counts else 0):
        members = {r: calls[i] for r, calls in per_rank.items() if i < len(calls)}
        names = sorted({c.name for _, c in members.values()})
        if len(counts) > 1 or len(names) > 1:
            what = (f"ranks make {' or '.join(map(str, counts))} collective calls"
                    if len(counts) > 1 else f"collective number {i + 1} is {' or '.join(names)}")
            raise InterpError(
                f"the ranks' collectives differ ({what}): SimGrid's trace does not name "
                "communicators, so lost cycles from it need every collective on MPI_COMM_WORLD",
                hint="use the prediction (interp lost-cycles without --from smpi)")
        senders = {r: {src for _, src in c.received if src in members}
                   for r, (_, c) in members.items()}
        for r, (k, call) in members.items():
            out[(r, k)] = max(members[q][1].start for q in _reaching(r, senders))
    return out


def _reaching(r: int, senders: dict[int, set[int]]) -> set[int]:
    """``r`` and every member whose messages reach it, directly or through others."""
    seen, todo = {r}, [r]
    while todo:
        for q in senders[todo.pop()] - seen:
            seen.add(q)
            todo.append(q)
    return seen


def _sync(call: Call, latest: float) -> float:
    """A member's SL: its call up to the entry of the latest member it waited for."""
    return max(0.0, min(call.end, latest) - call.start)
