"""The container set-up, without Docker (this machine cannot run it or pull images).

compose.yaml runs PostgreSQL and two bot processes from the image of the Dockerfile.
These tests run the Dockerfile's install and start steps as the image would: only the
files it copies, read-only, built into a wheel outside the source, installed into a
fresh location, and ``python -m bot check`` run from there in the image's working
directory with its settings. And they check compose.yaml against the Dockerfile: the
services, their commands, their settings (each one the bot reads), the volumes, the user.
"""

from __future__ import annotations

import os
import re
import shlex
import shutil
import socket
import stat
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from bot.settings import Settings

ROOT = Path(__file__).resolve().parents[1]
COMPOSE = ROOT / "compose.yaml"
DOCKERFILE = ROOT / "Dockerfile"


def dockerfile() -> list[tuple[str, str]]:
    """The final stage's instructions and all stages' COPY/RUN, as (INSTRUCTION, args)."""
    text = re.sub(r"\\\n\s*", " ", DOCKERFILE.read_text())
    lines = [line.strip() for line in text.splitlines()]
    return [
        (line.split(None, 1)[0].upper(), line.split(None, 1)[1] if " " in line else "")
        for line in lines
        if line and not line.startswith("#")
    ]


def stage(n: int) -> list[tuple[str, str]]:
    stages: list[list[tuple[str, str]]] = []
    for instruction, args in dockerfile():
        if instruction == "FROM":
            stages.append([])
        stages[-1].append((instruction, args))
    return stages[n]


def image_env() -> dict[str, str]:
    env: dict[str, str] = {}
    for instruction, args in stage(-1):
        if instruction == "ENV":
            env.update(word.split("=", 1) for word in shlex.split(args))  # type: ignore[misc]
    return env


def settings_read() -> set[str]:
    """Every variable Settings.from_env reads."""
    source = (ROOT / "bot" / "settings.py").read_text()
    return set(re.findall(r'"([A-Z][A-Z_]+)"', source)) - {"INFO", "NOTSET"}


DRIVER_SETTINGS = {"PGPASSWORD"}  # read by the PostgreSQL driver (asyncpg) from the environment


def test_compose_file_runs_the_image_and_splits_the_shards() -> None:
    data = yaml.safe_load(COMPOSE.read_text())
    services = data["services"]
    assert set(services) == {"postgres", "bot-a", "bot-b", "web"}
    bots = [services["bot-a"], services["bot-b"]]
    for service in [*bots, services["web"]]:
        # The image of the Dockerfile, nothing of the clone mounted (the old example mounted
        # it read-only and pip install could not write its egg-info there).
        assert service["build"] == "." and service["image"] == bots[0]["image"]
        assert "volumes" not in service and "working_dir" not in service
        assert service["depends_on"]["postgres"]["condition"] == "service_healthy"
        assert set(service["environment"]) <= settings_read() | DRIVER_SETTINGS
        assert service["stop_grace_period"]  # SIGTERM, then time to close
    for service in bots:
        assert service["command"] == ["python", "-m", "bot"]
    envs = [service["environment"] for service in bots]
    assert (
        envs[0]["DATABASE_URL"] == envs[1]["DATABASE_URL"] == services["web"]["environment"]["DATABASE_URL"]
    )
    url = envs[0]["DATABASE_URL"]
    assert url.startswith("postgresql://") and "@postgres:5432/" in url
    # The password is not pasted into the URL, where # @ / : would break it: the driver
    # reads it from PGPASSWORD.
    assert "${" not in url and ":" not in url.split("://")[1].split("@")[0]
    assert envs[0]["PGPASSWORD"] == services["web"]["environment"]["PGPASSWORD"]
    assert envs[0]["PGPASSWORD"].startswith("${POSTGRES_PASSWORD:?")
    # DISCORD_TOKEN and POSTGRES_PASSWORD are demanded; PUBLIC_URL has a default.
    needed = set(re.findall(r"\$\{([A-Z_]+)", COMPOSE.read_text()))
    assert needed == {"DISCORD_TOKEN", "POSTGRES_PASSWORD", "PUBLIC_URL"}
    assert "${DISCORD_TOKEN:?" in envs[0]["DISCORD_TOKEN"]
    shards: list[int] = []
    for env in envs:
        settings = Settings.from_env(resolved(env), env_file=None)
        assert settings.shard_count == 2 and settings.shard_ids is not None
        shards += settings.shard_ids
        # No pages of their own: links to the web service's.
        assert settings.web_port == 0 and settings.posts_links
        assert "ports" not in services["bot-a"] and "ports" not in services["bot-b"]
    assert sorted(shards) == [0, 1]  # each shard run by exactly one process
    postgres = services["postgres"]
    assert postgres["environment"]["POSTGRES_USER"] in url and postgres["environment"]["POSTGRES_DB"] in url
    for mount in postgres["volumes"]:
        assert mount.split(":", 1)[0] in data["volumes"]


def resolved(env: dict[str, str]) -> dict[str, str]:
    """A service's environment with compose's ${NAME:-default} as its default."""
    return {k: re.sub(r"\$\{[A-Z_]+:-([^}]*)\}", r"\1", str(v)) for k, v in env.items()}


def test_compose_publishes_one_web_server_that_the_bots_link_to() -> None:
    services = yaml.safe_load(COMPOSE.read_text())["services"]
    web = services["web"]
    assert web["command"] == ["python", "-m", "bot", "web"]
    settings = Settings.from_env(image_env() | resolved(web["environment"]), env_file=None)
    assert settings.web_host == "0.0.0.0"  # the image's: reachable through the published port
    (published,) = web["ports"]
    assert published.rsplit(":", 1)[1] == str(settings.web_port)
    bots = [
        Settings.from_env(image_env() | resolved(services[name]["environment"]), env_file=None)
        for name in ("bot-a", "bot-b")
    ]
    assert {bot.public_url for bot in bots} == {settings.public_url}  # the links lead to it
    assert [name for name, service in services.items() if "ports" in service] == ["web"]


def test_systemd_unit_does_not_restart_a_settings_error() -> None:
    unit = (ROOT / "deploy" / "schotten-bot.service").read_text()
    assert "\nRestart=always\n" in unit
    # python -m bot exits 2 for a setting it cannot use (check says the same): restarting
    # cannot help. Other failures (the network, the database) are restarted.
    assert "\nRestartPreventExitStatus=2\n" in unit
    assert "make run" not in unit and "make .venv/.installed-run" in unit
    assert "make .venv/.installed-run" in (ROOT / "README.md").read_text()


def test_dockerfile_runs_as_a_user_with_the_database_on_a_volume() -> None:
    final = dict(stage(-1))  # the last of each instruction
    assert final["FROM"].startswith("python:3.11-slim")
    assert final["USER"] not in ("root", "0") and "useradd" in final["RUN"]
    assert "/data" in final["VOLUME"] and final["WORKDIR"] == "/data"
    assert image_env()["DATABASE_PATH"].startswith("/data/")
    assert final["CMD"] == '["python", "-m", "bot"]'
    assert "pip install" in final["RUN"] and ".whl" in final["RUN"]
    # The web pages listen on every interface of the container, at the port it exposes.
    assert image_env()["WEB_HOST"] == "0.0.0.0" and final["EXPOSE"] == image_env()["WEB_PORT"]


@pytest.mark.skipif(sys.platform == "win32", reason="file modes")
def test_image_install_and_start_steps_on_a_read_only_source(tmp_path: Path, postgres_database: str) -> None:
    # The build stage: only what it copies (so nothing the build needs is left out),
    # read-only: the build must not need to write into the source.
    src = tmp_path / "src"
    src.mkdir()
    for instruction, args in stage(0):
        if instruction == "COPY":
            *sources, _ = args.split()
            for name in sources:
                path = ROOT / name.rstrip("/")
                if path.is_dir():
                    shutil.copytree(path, src / path.name, ignore=shutil.ignore_patterns("__pycache__"))
                else:
                    shutil.copy2(path, src / path.name)
    for path in [src, *src.rglob("*")]:
        path.chmod(path.stat().st_mode & ~(stat.S_IWUSR | stat.S_IWGRP | stat.S_IWOTH))
    run = dict(stage(0))["RUN"]
    assert run.startswith("pip wheel") and run.endswith(" .")
    wheels = tmp_path / "wheels"
    build = subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps", "--wheel-dir", str(wheels), str(src)],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert build.returncode == 0, build.stderr
    if os.geteuid() != 0:  # file modes do not bind root: there the build may write
        assert not list(src.glob("*.egg-info")) and not (src / "build").exists()
    (wheel,) = wheels.glob("*.whl")
    # The final stage: the wheel installed (its dependencies are those of this environment).
    site = tmp_path / "site"
    install = subprocess.run(
        [sys.executable, "-m", "pip", "install", "--quiet", "--no-deps", "--target", str(site), str(wheel)],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert install.returncode == 0, install.stderr
    for path in [site, *site.rglob("*")]:  # installed by root, run by the image's user
        path.chmod(path.stat().st_mode & ~(stat.S_IWUSR | stat.S_IWGRP | stat.S_IWOTH))
    data = tmp_path / "data"  # WORKDIR /data, the volume
    data.mkdir()
    env = {
        k: v for k, v in os.environ.items() if not k.startswith(("DATABASE_", "SHARD_", "DISCORD_", "WEB_"))
    }
    env |= image_env() | {"DATABASE_PATH": str(data / "schotten.db"), "PYTHONPATH": str(site)}
    with socket.socket() as sock:  # the image's port 8080 is the container's; here, a free one
        sock.bind(("127.0.0.1", 0))
        env["WEB_PORT"] = str(sock.getsockname()[1])

    def start(*args: str, **settings: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [sys.executable, "-P", "-m", "bot", *args],
            cwd=data,
            env=env | settings,
            capture_output=True,
            text=True,
            timeout=120,
        )

    where = start("--help")  # the installed package answers, not the source tree
    assert where.returncode == 0 and "check" in where.stdout
    found = subprocess.run(
        [sys.executable, "-P", "-c", "import bot; print(bot.__file__)"],
        cwd=data,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert found.stdout.startswith(str(site)), found
    check = start("check", DISCORD_TOKEN="x")
    assert check.returncode == 0, check.stdout + check.stderr
    assert f"there is no database at {data / 'schotten.db'}" in check.stdout
    assert f"the web pages can listen on 0.0.0.0:{env['WEB_PORT']}" in check.stdout
    # A compose bot's settings, with this test's PostgreSQL in place of the service.
    compose = yaml.safe_load(COMPOSE.read_text())["services"]["bot-b"]["environment"]
    compose = {k: v for k, v in resolved(compose).items() if "${" not in str(v)}
    check = start("check", **(compose | {"DATABASE_URL": postgres_database, "DISCORD_TOKEN": "x"}))
    assert check.returncode == 0, check.stdout + check.stderr
    assert "shards: 1 of SHARD_COUNT=2" in check.stdout and "a start would set it up" in check.stdout
    # Without a token the bot itself stops with instructions, not a traceback.
    bare = start()
    assert bare.returncode == 2 and "DISCORD_TOKEN is not set" in bare.stderr
    assert "Traceback" not in bare.stderr
    assert not list(data.iterdir())  # check and the refused start created nothing
