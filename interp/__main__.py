"""``python -m interp``: the ``interp`` command."""

from interp.cli import run

run()
