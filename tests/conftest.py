"""Settings for the whole suite.

Hypothesis's default 200 ms deadline per example measures the machine's load, not the code:
on a shared 2-core CI machine a slow example fails a correct property. Speed is measured in
benchmarks/, so the properties run without a deadline.
"""

from hypothesis import settings

settings.register_profile("interp", deadline=None)
settings.load_profile("interp")
