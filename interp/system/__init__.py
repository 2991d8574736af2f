"""The Systems module (Section 3.2): machines as SAGs, and the machine filter (level 3 parse).

A machine spec (``machine_specs/*.yaml``) is read into a :class:`SAG`, a rooted tree of
:class:`SAU` ⟨P, M, C/S, I/O⟩ whose simple components export :class:`Parameter` values. The
engine asks it for op costs (:meth:`SAG.op_seconds`), symbols for formulas (:meth:`SAG.symbol`,
:meth:`SAG.substitutions`) and what-if variants (:meth:`SAG.scaled`, :meth:`SAG.with_values`);
the filter functions give routes, hop counts, buffer classes, message costs, collective
algorithms, overlap fractions and the mapping μ.
"""

from interp.system.collectives import COLLECTIVES, collective_rounds, collective_steps
from interp.system.filter import (
    MessageCost,
    hops,
    message_class,
    message_cost,
    message_seconds,
    channel,
    contention,
    crossbar,
    eager_threshold,
    overlap_fraction,
    route,
    static_condition,
)
from interp.system.loader import list_machines, load_machine
from interp.system.mapping import (HOST, Mapping, Placement, check_nprocs, default_mapping, grown,
                                   load_mapping, subcube_note)
from interp.system.model import SAG, SAU, Component, Parameter, RuntimeParameter, UnknownName

__all__ = [
    "COLLECTIVES",
    "HOST",
    "SAG",
    "SAU",
    "Component",
    "Mapping",
    "MessageCost",
    "Parameter",
    "Placement",
    "RuntimeParameter",
    "UnknownName",
    "check_nprocs",
    "grown",
    "subcube_note",
    "collective_rounds",
    "collective_steps",
    "default_mapping",
    "hops",
    "list_machines",
    "load_machine",
    "load_mapping",
    "message_class",
    "message_cost",
    "message_seconds",
    "channel",
    "contention",
    "crossbar",
    "eager_threshold",
    "overlap_fraction",
    "route",
    "static_condition",
]
