"""``python -m interp``: the ``interp`` command."""

from interp.cli import main

main(prog_name="interp")
