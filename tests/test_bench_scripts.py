"""The benchmark scripts run as bench/README.md says: ``python bench/<name>.py``."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def bench(name: str, *args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    # -S: no site-packages, so not the project's editable install either; the script
    # must find the repository's packages itself, as under a plain python3.
    return subprocess.run(
        [sys.executable, "-S", str(ROOT / "bench" / f"{name}.py"), *args],
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=300,
    )


@pytest.mark.parametrize("name", ["claims", "selfplay", "ai"])
def test_engine_benchmarks_import_without_an_install(name: str, tmp_path: Path) -> None:
    proc = bench(name, "--help", cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert "usage:" in proc.stdout


def test_claims_benchmark_reports_the_speed_up_per_kind(tmp_path: Path) -> None:
    proc = bench("claims", "--positions", "8", "--naive", "1", cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    out = proc.stdout
    assert "vs naive full : >= 100x on" in out and "vs naive first: >= 100x on" in out
    assert "lowest" in out and "p99 <= 1 ms:" in out
    assert "which flatters" in out  # the total is labelled for what it is
