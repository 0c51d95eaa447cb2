"""The lock files (requirements/run.txt, requirements/test.txt, made by `make lock`).

pyproject.toml keeps the ranges; the lock files pin one version of every package with
the hashes of its files. These tests check that the lock matches the ranges (every
dependency pinned, within its range, with hashes) and that it really installs: into a
new virtual environment, hashes required, then the project without dependencies, as
the Makefile and the Dockerfile do. That test downloads from PyPI unless pip's cache
holds the files; it runs everywhere, CI included (CI reaches PyPI).
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import tomllib
import venv
from pathlib import Path

from packaging.markers import default_environment
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name
from packaging.version import Version

ROOT = Path(__file__).resolve().parents[1]
RUN_LOCK = ROOT / "requirements" / "run.txt"
TEST_LOCK = ROOT / "requirements" / "test.txt"
PYTHONS = ("3.11", "3.12", "3.13", "3.14")  # the lock is for 3.11 and newer


def project() -> dict[str, object]:
    return tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]  # type: ignore[no-any-return]


def pins(lock: Path) -> list[tuple[Requirement, int]]:
    """Each pinned requirement of a lock file and the number of hashes it carries."""
    text = re.sub(r"\\\n\s*", " ", lock.read_text(encoding="utf-8"))
    found = []
    for line in text.splitlines():
        line = line.split(" #", 1)[0].strip()
        if not line or line.startswith(("#", "-")):
            continue
        requirement, *options = line.split(" --")
        found.append((Requirement(requirement), sum(option.startswith("hash=sha256:") for option in options)))
    return found


def environment(python: str) -> dict[str, str]:
    """The marker environment of Linux x86_64 with this Python."""
    return {
        **default_environment(),
        "python_version": python,
        "python_full_version": f"{python}.0",
        "sys_platform": "linux",
        "platform_system": "Linux",
        "platform_machine": "x86_64",
        "implementation_name": "cpython",
        "platform_python_implementation": "CPython",
    }


def pinned_for(lock: Path, python: str) -> dict[str, Version]:
    """The versions a lock installs on Linux x86_64 with ``python``: one per package."""
    versions: dict[str, Version] = {}
    for requirement, hashes in pins(lock):
        assert hashes, f"{lock.name}: {requirement} has no hash"
        (specifier,) = requirement.specifier
        assert specifier.operator == "==", f"{lock.name}: {requirement} is not pinned"
        if requirement.marker is not None and not requirement.marker.evaluate(environment(python)):
            continue
        name = canonicalize_name(requirement.name)
        assert name not in versions, f"{lock.name} pins {name} twice for Python {python}"
        versions[name] = Version(specifier.version)
    return versions


def wanted(requirements: list[str], python: str) -> list[Requirement]:
    env = environment(python) | {"extra": ""}
    found = [Requirement(text) for text in requirements]
    return [req for req in found if req.marker is None or req.marker.evaluate(env)]


def test_the_lock_pins_every_dependency_of_pyproject_within_its_range() -> None:
    meta = project()
    dependencies = meta["dependencies"]
    extras = meta["optional-dependencies"]
    assert isinstance(dependencies, list) and isinstance(extras, dict)
    for python in PYTHONS:
        run = pinned_for(RUN_LOCK, python)
        test = pinned_for(TEST_LOCK, python)
        for lock, versions, requirements in (
            (RUN_LOCK, run, dependencies),
            (TEST_LOCK, test, dependencies + extras["test"]),
        ):
            for requirement in wanted(requirements, python):
                name = canonicalize_name(requirement.name)
                assert name in versions, f"{lock.name} does not pin {name} (Python {python}): run make lock"
                assert requirement.specifier.contains(versions[name], prereleases=True), (
                    f"{lock.name} pins {name}=={versions[name]} outside {requirement} (Python {python}):"
                    " run make lock"
                )
        # The tests run what `make run` runs.
        assert {name: test[name] for name in run} == run, python


def test_every_install_uses_the_lock_with_hashes() -> None:
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    assert "--require-hashes -r requirements/run.txt" in makefile
    assert "--require-hashes -r requirements/test.txt" in makefile
    assert makefile.count("pip install --quiet --no-deps -e .") == 2
    assert re.search(r"^lock:", makefile, re.MULTILINE)
    dockerfile = re.sub(r"\\\n\s*", " ", (ROOT / "Dockerfile").read_text(encoding="utf-8"))
    assert "COPY requirements/run.txt" in dockerfile
    assert re.search(r"pip install [^&]*--require-hashes -r \S*run\.txt", dockerfile)
    assert re.search(r"pip install [^&]*--no-deps /wheels/\*\.whl", dockerfile)
    for lock in (RUN_LOCK, TEST_LOCK):
        assert "#    make lock" in lock.read_text(encoding="utf-8")  # says how it is remade


def test_the_lock_installs_into_a_new_environment_and_runs_the_bot(tmp_path: Path) -> None:
    # The project as the Dockerfile's build stage sees it, outside this tree (a build
    # writes beside its source).
    src = tmp_path / "src"
    src.mkdir()
    for name in ("pyproject.toml", "README.md"):
        shutil.copy2(ROOT / name, src / name)
    for name in ("rules", "bot", "cogs"):
        shutil.copytree(ROOT / name, src / name, ignore=shutil.ignore_patterns("__pycache__"))
    env_dir = tmp_path / "venv"
    venv.create(env_dir, with_pip=True)
    python = str(env_dir / "bin" / "python")
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV")}

    def run(*args: str) -> subprocess.CompletedProcess[str]:
        proc = subprocess.run(
            [python, *args], cwd=tmp_path, env=env, capture_output=True, text=True, timeout=600
        )
        assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
        return proc

    run("-m", "pip", "install", "--quiet", "--require-hashes", "-r", str(RUN_LOCK))
    run("-m", "pip", "install", "--quiet", "--no-deps", str(src))
    run("-m", "pip", "check")  # the lock holds every dependency of every package in it
    found = run("-P", "-c", "import bot, bot.app, bot.web.standalone, cogs.schotten; print(bot.__file__)")
    assert found.stdout.startswith(str(env_dir)), found.stdout  # the installed copy, not this tree
    version = run("-P", "-m", "bot", "--version")
    assert version.stdout.strip() == f"schotten-totten-bot {project()['version']}"
    installed = run("-m", "pip", "freeze", "--exclude", "schotten-totten-bot").stdout
    frozen = {
        canonicalize_name(name): Version(number)
        for name, number in re.findall(r"^([A-Za-z0-9_.\-]+)==(\S+)$", installed, re.MULTILINE)
    }
    python_version = f"{sys.version_info.major}.{sys.version_info.minor}"
    assert frozen == pinned_for(RUN_LOCK, python_version)
