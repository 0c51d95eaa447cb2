"""Commands the README gives work as written."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_bare_pytest_selection_collects() -> None:
    # `pytest` (unlike `python -m pytest`) does not put the working directory on sys.path,
    # so the tests' `from tests.cogs.helpers import ...` needs the pytest configuration.
    pytest_script = Path(sys.executable).with_name("pytest")
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    proc = subprocess.run(
        [str(pytest_script), "tests/bot", "-k", "storage", "--collect-only", "-q", "-p", "no:cacheprovider"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert proc.returncode == 0, proc.stdout[-2000:] + proc.stderr[-2000:]
    assert "test_storage.py" in proc.stdout
