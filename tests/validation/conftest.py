"""Validation against SimGrid's SMPI: needs smpiff and smpirun.

When they are missing the SMPI tests fail (never skip) with the install command.
"""

from __future__ import annotations

import shutil
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

VALIDATION = ROOT / "validation"


@pytest.fixture(scope="session")
def smpi():
    missing = [t for t in ("smpiff", "smpirun", "gfortran") if shutil.which(t) is None]
    if missing:
        pytest.fail(f"{' and '.join(missing)} not found: the SMPI validation needs SimGrid's SMPI."
                    " Install it with `apt-get install -y libsimgrid-dev gfortran` (Debian/"
                    "Ubuntu; .ci/run does this when they are missing)", pytrace=False)
    return True


@pytest.fixture(scope="session")
def workdir(tmp_path_factory):
    return tmp_path_factory.mktemp("smpi")
