"""Message buffers at the receiver (core paper §3.4.2, Table 3).

Synchronous messages of at most 100 bytes go into the receiver's *static* buffers (the
cheaper costs of Table 3); larger ones use dynamic buffers. A node has a limited number of
static buffers (``cs.spec.static_buffers``, about 1000 on the iPSC/860): a static-buffer send
waits only while all of them hold messages not yet received.
"""

from __future__ import annotations

import sympy as sp

from interp.engine.timeval import as_time, is_earlier, is_symbolic
from interp.system import SAG, static_condition

BLOCKED = object()  # a static-buffer send that must wait for receives not interpreted yet


class StaticBuffers:
    """Which messages use static buffers, and when a full receiver frees one."""

    def __init__(self, sag: SAG, host_id: int):
        self.sag, self.host_id = sag, host_id
        limit = f"{sag.nodes}.cs.spec.static_buffers"
        self.limit = int(sag.value(limit)) if sag.has(limit) else None
        self.log: dict[int, list[list]] = {}  # receiver → [posted, received, message id]
        self._entry: dict[int, list] = {}  # message id → its log entry
        self._static: dict[tuple, bool] = {}  # (size, synchronous) → uses static buffers

    def is_static(self, src: int, dst: int, size, synchronous: bool) -> bool:
        if self.host_id in (src, dst):
            return False
        key = (size, synchronous)
        if key not in self._static:
            self._static[key] = static_condition(self.sag, size, synchronous) == sp.true
        return self._static[key]

    def counted(self) -> bool:
        """Whether static buffers are a limited resource on this machine."""
        return self.limit is not None

    def hold(self, dst: int, depart, msg_id: int) -> None:
        """A static-buffer message to ``dst`` takes a buffer from ``depart`` on."""
        entry = [depart, None, msg_id]
        self.log.setdefault(dst, []).append(entry)
        self._entry[msg_id] = entry

    def release(self, msg_id: int, when) -> None:
        """The message was received at ``when``: its buffer is free from then on."""
        entry = self._entry.pop(msg_id, None)
        if entry is not None:
            entry[1] = when

    def free_at(self, src: int, dst: int, size, tau, floor):
        """When a static-buffer send from ``src`` at ``tau`` can go: None (no wait), the time
        a buffer frees, or BLOCKED when that depends on receives not interpreted yet.
        ``floor()``: the earliest live clock (buffers freed before it are gone for good)."""
        log = self.log.get(dst, [])
        if len(log) < self.limit or not self.is_static(src, dst, size, True):
            return None
        # Forget buffers freed before every clock now: no later send can see them held. Done
        # before every full scan, so a log of mostly received messages stays short.
        floor_ = floor()
        if floor_ is not None:
            log[:] = [e for e in log if e[1] is None or is_symbolic(e[1]) or as_time(e[1]) > floor_]
            if len(log) < self.limit:
                return None
        held = [e for e in log
                if not is_earlier(tau, e[0]) and (e[1] is None or is_earlier(tau, e[1]))]
        excess = len(held) - self.limit + 1
        if excess <= 0:
            return None
        freed = sorted(as_time(e[1]) for e in held if e[1] is not None and not is_symbolic(e[1]))
        return freed[excess - 1] if len(freed) >= excess else BLOCKED
