"""compose.yaml (PostgreSQL and two bot processes) cannot be run here: check that it is
valid YAML, and that the two bots share one database and split the shards between them."""

from __future__ import annotations

from pathlib import Path

import yaml

from bot.settings import Settings

COMPOSE = Path(__file__).resolve().parents[1] / "compose.yaml"


def test_compose_file_is_valid_and_splits_the_shards() -> None:
    data = yaml.safe_load(COMPOSE.read_text())
    services = data["services"]
    assert set(services) == {"postgres", "bot-a", "bot-b"}
    bots = [services["bot-a"]["environment"], services["bot-b"]["environment"]]
    assert bots[0]["DATABASE_URL"] == bots[1]["DATABASE_URL"]
    url = bots[0]["DATABASE_URL"]
    assert url.startswith("postgresql://") and "@postgres:5432/" in url
    shards: list[int] = []
    for env in bots:
        settings = Settings.from_env({**env, "DATABASE_URL": "postgresql://u:p@h/db"}, env_file=None)
        assert settings.shard_count == 2 and settings.shard_ids is not None
        shards += settings.shard_ids
    assert sorted(shards) == [0, 1]  # each shard run by exactly one process
    for name in ("bot-a", "bot-b"):
        assert services[name]["depends_on"]["postgres"]["condition"] == "service_healthy"
