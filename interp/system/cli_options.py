"""Click options shared by commands that need a machine."""

from __future__ import annotations

import click

DEFAULT_MACHINE = "ipsc860"


def _load(ctx: click.Context, param: click.Parameter, value: str):
    from interp.system.loader import load_machine  # loaded on use: keeps `interp --help` fast

    return load_machine(value)


def machine_option(f):
    """``--machine NAME|FILE`` (default ``ipsc860``); the command receives ``machine: SAG``.

    A bad spec raises SpecError, which the ``interp`` group prints as one message (exit 2).
    """
    return click.option(
        "--machine",
        "machine",
        default=DEFAULT_MACHINE,
        show_default=True,
        metavar="NAME|FILE",
        callback=_load,
        help="Machine spec: a name from machine_specs/ or a YAML file.",
    )(f)
