"""``python -m interp``: the ``interp`` command."""

from interp import collector

collector.for_process()  # before click's and interp's imports too (cli.run does it again)

from interp.cli import run  # noqa: E402

run()
