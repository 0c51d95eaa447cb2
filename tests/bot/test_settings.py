from __future__ import annotations

import os
from pathlib import Path

import pytest

from bot.settings import Settings, SettingsError

EXAMPLE = Path(__file__).resolve().parents[2] / ".env.example"


def test_defaults_without_environment() -> None:
    settings = Settings.from_env({}, env_file=None)
    assert settings == Settings()
    assert settings.token is None
    assert settings.database_path == "schotten.db"
    assert settings.log_level == "INFO"
    assert settings.dev_guild_id is None
    assert (settings.challenge_timeout, settings.turn_timeout, settings.turn_reminder) == (600, 86400, 43200)


def test_env_example_lists_every_setting_with_its_default() -> None:
    # The example file parses to the defaults: what it shows is what you get. Only the
    # token is set in it; every optional setting is a comment naming its default, so that
    # a copy of it sets nothing the README says is derived from another setting.
    assert Settings.from_env({}, env_file=EXAMPLE) == Settings()
    text = EXAMPLE.read_text()
    assert "\nDISCORD_TOKEN=\n" in text
    defaults = Settings()
    for name, default in {
        "DATABASE_PATH": defaults.database_path,
        "DATABASE_URL": "",
        "LOG_LEVEL": defaults.log_level,
        "DATABASE_TIMEOUT": f"{defaults.database_timeout:g}",
        "DEV_GUILD_ID": "",
        "CHALLENGE_TIMEOUT": defaults.challenge_timeout,
        "TURN_TIMEOUT": defaults.turn_timeout,
        "TURN_REMINDER": defaults.turn_reminder,
        "AI_WORKERS": defaults.ai_workers,
        "MAX_PRACTICE_GAMES": defaults.max_practice_games,
        "HINTS_PER_MINUTE": defaults.hints_per_minute,
        "MAX_OPEN_CHALLENGES": defaults.max_open_challenges,
        "MAX_CHANNEL_CHALLENGES": defaults.max_channel_challenges,
        "RECHALLENGE_COOLDOWN": defaults.rechallenge_cooldown,
        "LOG_FORMAT": defaults.log_format,
        "METRICS_HOST": defaults.metrics_host,
        "METRICS_PORT": defaults.metrics_port,
    }.items():
        assert f"\n# {name}={default}\n" in text
        assert f"\n{name}=" not in text


def test_env_example_copied_to_env_with_a_short_turn_timeout() -> None:
    # README: cp .env.example .env; TURN_TIMEOUT=3600 make run -> the reminder defaults
    # to half the timeout instead of the bot refusing to start.
    settings = Settings.from_env({"TURN_TIMEOUT": "3600"}, env_file=EXAMPLE)
    assert (settings.turn_timeout, settings.turn_reminder) == (3600, 1800)


def test_env_file_is_read_and_environment_wins(tmp_path: Path) -> None:
    env_file = tmp_path / ".env"
    env_file.write_text(
        "DISCORD_TOKEN=from-file\nDATABASE_PATH=/data/x.db\nLOG_LEVEL=debug\nDEV_GUILD_ID=42\n"
    )
    before = dict(os.environ)
    settings = Settings.from_env({"DATABASE_PATH": "/env/y.db", "TURN_TIMEOUT": "120"}, env_file=env_file)
    assert settings.token == "from-file"
    assert settings.database_path == "/env/y.db"
    assert settings.log_level == "DEBUG"
    assert settings.dev_guild_id == 42
    assert settings.turn_timeout == 120
    assert dict(os.environ) == before  # never mutated


def test_missing_env_file_is_fine(tmp_path: Path) -> None:
    assert Settings.from_env({}, env_file=tmp_path / "nope.env") == Settings()


def test_empty_values_mean_default() -> None:
    settings = Settings.from_env({"DEV_GUILD_ID": "", "LOG_LEVEL": " ", "DISCORD_TOKEN": ""}, env_file=None)
    assert settings == Settings()


def test_token_is_not_in_repr() -> None:
    settings = Settings.from_env({"DISCORD_TOKEN": "secret-token"}, env_file=None)
    assert "secret-token" not in repr(settings)


@pytest.mark.parametrize(
    ("environ", "names"),
    [
        ({"TURN_TIMEOUT": "a day"}, "TURN_TIMEOUT"),
        ({"CHALLENGE_TIMEOUT": "0"}, "CHALLENGE_TIMEOUT"),
        ({"TURN_REMINDER": "-1"}, "TURN_REMINDER"),
        ({"DEV_GUILD_ID": "my-server"}, "DEV_GUILD_ID"),
        ({"LOG_LEVEL": "LOUD"}, "LOG_LEVEL"),
        ({"TURN_TIMEOUT": "100", "TURN_REMINDER": "100"}, "TURN_REMINDER"),
    ],
)
def test_malformed_values_name_the_variable(environ: dict[str, str], names: str) -> None:
    with pytest.raises(SettingsError, match=names):
        Settings.from_env(environ, env_file=None)


def test_short_turn_timeout_alone_moves_the_default_reminder() -> None:
    settings = Settings.from_env({"TURN_TIMEOUT": "600"}, env_file=None)
    assert (settings.turn_timeout, settings.turn_reminder) == (600, 300)


def test_reminder_can_be_disabled() -> None:
    assert Settings.from_env({"TURN_REMINDER": "0"}, env_file=None).turn_reminder == 0


def test_database_url_selects_postgresql_and_stays_out_of_repr() -> None:
    assert Settings.from_env({}, env_file=None).database == "schotten.db"
    url = "postgresql://bot:s3cret@localhost:5432/schotten"
    settings = Settings.from_env({"DATABASE_URL": url, "DATABASE_PATH": "x.db"}, env_file=None)
    assert settings.database_url == url and settings.database == url
    assert "s3cret" not in repr(settings)
    with pytest.raises(SettingsError, match="DATABASE_URL must be a PostgreSQL URL"):
        Settings.from_env({"DATABASE_URL": "mysql://bot@localhost/x"}, env_file=None)


FAIR_SHARE = {
    "MAX_PRACTICE_GAMES": "max_practice_games",
    "HINTS_PER_MINUTE": "hints_per_minute",
    "MAX_OPEN_CHALLENGES": "max_open_challenges",
    "MAX_CHANNEL_CHALLENGES": "max_channel_challenges",
    "RECHALLENGE_COOLDOWN": "rechallenge_cooldown",
}


def test_fair_share_limits_have_defaults_take_zero_for_no_limit_and_refuse_nonsense() -> None:
    defaults = Settings.from_env({}, env_file=None)
    assert (
        defaults.max_practice_games,
        defaults.hints_per_minute,
        defaults.max_open_challenges,
        defaults.max_channel_challenges,
        defaults.rechallenge_cooldown,
    ) == (3, 6, 3, 10, 300)
    readme = (EXAMPLE.parent / "README.md").read_text()
    for name, attribute in FAIR_SHARE.items():
        assert f"| `{name}` | `{getattr(defaults, attribute)}` |" in readme
        assert getattr(Settings.from_env({name: "7"}, env_file=None), attribute) == 7
        assert getattr(Settings.from_env({name: "0"}, env_file=None), attribute) == 0
        with pytest.raises(SettingsError, match=f"{name}=-1 must be at least 0"):
            Settings.from_env({name: "-1"}, env_file=None)
        with pytest.raises(SettingsError, match=f"{name}='many' is not a whole number"):
            Settings.from_env({name: "many"}, env_file=None)


def test_database_timeout_takes_seconds_with_decimals() -> None:
    assert Settings.from_env({"DATABASE_TIMEOUT": "1.5"}, env_file=None).database_timeout == 1.5
    assert Settings.from_env({}, env_file=None).database_timeout == 2.0
    for bad in ("0", "-1", "soon", "61"):
        with pytest.raises(SettingsError, match="DATABASE_TIMEOUT"):
            Settings.from_env({"DATABASE_TIMEOUT": bad}, env_file=None)


def test_log_format_and_the_operator_port() -> None:
    defaults = Settings.from_env({}, env_file=None)
    assert (defaults.log_format, defaults.metrics_host, defaults.metrics_port) == ("text", "127.0.0.1", 0)
    settings = Settings.from_env(
        {"LOG_FORMAT": "JSON", "METRICS_PORT": "9100", "METRICS_HOST": "0.0.0.0"}, env_file=None
    )
    assert (settings.log_format, settings.metrics_host, settings.metrics_port) == ("json", "0.0.0.0", 9100)
    for environ, named in (
        ({"LOG_FORMAT": "xml"}, "LOG_FORMAT='xml'"),
        ({"METRICS_PORT": "nine"}, "METRICS_PORT='nine'"),
        ({"METRICS_PORT": "70000"}, "METRICS_PORT=70000"),
        ({"METRICS_PORT": "8080"}, "WEB_PORT"),  # the pages' port
    ):
        with pytest.raises(SettingsError, match=named):
            Settings.from_env(environ, env_file=None)


def test_the_activity_needs_the_client_id_and_secret() -> None:
    defaults = Settings.from_env({}, env_file=None)
    assert not defaults.activity and defaults.discord_api_base == "https://discord.com/api/v10"
    assert not Settings.from_env({"DISCORD_CLIENT_ID": "123"}, env_file=None).activity
    settings = Settings.from_env(
        {
            "DISCORD_CLIENT_ID": "123",
            "DISCORD_CLIENT_SECRET": "shh-secret",
            "DISCORD_API_BASE": "http://x/api/",
        },
        env_file=None,
    )
    assert settings.activity and settings.discord_client_id == 123
    assert settings.discord_api_base == "http://x/api"
    assert "shh-secret" not in repr(settings)
    with pytest.raises(SettingsError, match="DISCORD_CLIENT_ID='abc'"):
        Settings.from_env({"DISCORD_CLIENT_ID": "abc"}, env_file=None)
