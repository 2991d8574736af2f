"""Run a command on a thread with a deep stack.

Every pass over a program (parsing, structuring, the AAG, Ω, the data flow) recurses once per
level of nesting, and expressions once per level of parentheses: Python's default limit of
1000 frames ends a program with 400 nested IF blocks in a RecursionError. The CLI runs on a
thread whose stack is reserved large (address space, not memory: only what is used is
touched) with a recursion limit to match; a deeper program is refused by the structuring with
its depth (``structure.MAX_NESTING``).
"""

from __future__ import annotations

import contextvars
import sys
import threading
from typing import Callable, TypeVar

T = TypeVar("T")

STACK_BYTES = 512 * 1024 * 1024
RECURSION_LIMIT = 50_000  # ~10 KB of C stack a frame at most, for C calls between Python frames


def run(fn: Callable[..., T], *args, **kwargs) -> T:
    """``fn(*args, **kwargs)`` on a deep-stack thread (with this thread's context variables);
    what it raises (SystemExit too) is raised here."""
    outcome: dict = {}
    context = contextvars.copy_context()

    def target() -> None:
        try:
            outcome["value"] = context.run(fn, *args, **kwargs)
        except BaseException as err:  # handed to the calling thread as it is
            outcome["error"] = err

    sys.setrecursionlimit(max(sys.getrecursionlimit(), RECURSION_LIMIT))
    previous = threading.stack_size(STACK_BYTES)
    try:
        worker = threading.Thread(target=target, name="interp", daemon=True)
        worker.start()
    finally:
        threading.stack_size(previous)
    worker.join()
    if "error" in outcome:
        raise outcome["error"]
    return outcome.get("value")
