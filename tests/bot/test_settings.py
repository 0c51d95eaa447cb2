from __future__ import annotations

import os
import socket
from pathlib import Path

import pytest

from bot.settings import Settings, SettingsError, try_web_port
from tests.ports import free_port

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
        "WEB_MAX_STREAMS": defaults.web_max_streams,
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
        ({"WEB_PORT": "18181", "METRICS_PORT": "18181"}, "WEB_PORT"),  # the pages' port
    ):
        with pytest.raises(SettingsError, match=named):
            Settings.from_env(environ, env_file=None)


# -- DATABASE_URL -------------------------------------------------------------------


@pytest.mark.parametrize(
    ("password", "reason"),
    [
        ("s3cr#tz", "'#'"),  # was: invalid literal for int() with base 10: 's3cr'
        ("p@ss/w:rd", "'@'"),
        ("xq@zkjv", "'@'"),  # the driver would split at the first @, the URL at the last
        ("xq?zkjv", "'@'"),
        ("100%qqq", "'%'"),
    ],
)
def test_database_url_that_would_be_misread_is_one_line_without_it(password: str, reason: str) -> None:
    url = f"postgresql://schotten:{password}@db:5432/schotten"
    with pytest.raises(SettingsError) as caught:
        Settings.from_env({"DATABASE_URL": url}, env_file=None)
    text = str(caught.value)
    assert text.startswith("DATABASE_URL is not a usable PostgreSQL URL") and reason in text
    assert "percent-encoded" in text and "\n" not in text
    for i in range(len(password) - 2):  # no part of the password, nor of the URL
        assert password[i : i + 3] not in text, password[i : i + 3]
    assert "schotten" not in text


def test_database_url_with_a_port_that_is_no_number() -> None:
    with pytest.raises(SettingsError, match="DATABASE_URL is not a usable PostgreSQL URL: the port"):
        Settings.from_env({"DATABASE_URL": "postgresql://schotten@db:port/schotten"}, env_file=None)


def test_database_url_percent_encoded_is_shown_and_masked_without_its_password() -> None:
    url = "postgresql://schotten:p%40ss%2Fw%3Ard%23@db.example:5432/schotten?sslmode=require"
    settings = Settings.from_env({"DATABASE_URL": url}, env_file=None)
    assert settings.database == url  # the driver decodes it
    postgres = settings.postgres
    assert postgres is not None and postgres.password == "p@ss/w:rd#"
    assert settings.database_shown == "postgresql://schotten:***@db.example:5432/schotten?sslmode=require"
    assert postgres.mask("auth failed for p@ss/w:rd# (p%40ss%2Fw%3Ard%23)") == "auth failed for *** (***)"
    plain = Settings.from_env({"DATABASE_URL": "postgresql://schotten@db/schotten"}, env_file=None)
    assert plain.database_shown == "postgresql://schotten@db/schotten"


# -- shards on SQLite ---------------------------------------------------------------


def test_some_shards_on_sqlite_are_refused_all_of_them_are_fine() -> None:
    with pytest.raises(SettingsError, match=r"SHARD_IDS=0 leaves shard\(s\) 1 of SHARD_COUNT=2"):
        Settings.from_env({"SHARD_COUNT": "2", "SHARD_IDS": "0"}, env_file=None)
    assert Settings.from_env({"SHARD_COUNT": "2", "SHARD_IDS": "1,0"}, env_file=None).shard_ids == (1, 0)
    assert Settings.from_env({"SHARD_COUNT": "2"}, env_file=None).shard_ids is None
    on_postgres = {"SHARD_COUNT": "2", "SHARD_IDS": "0", "DATABASE_URL": "postgresql://u@h/db"}
    assert Settings.from_env(on_postgres, env_file=None).shard_ids == (0,)


# -- web settings -------------------------------------------------------------------


def test_public_url_follows_web_port_until_set() -> None:
    assert Settings.from_env({"WEB_PORT": "18080"}, env_file=None).public_url == "http://localhost:18080"
    given = Settings.from_env({"WEB_PORT": "18080", "PUBLIC_URL": "https://x.example/"}, env_file=None)
    assert given.public_url == "https://x.example" and given.public_url_given


@pytest.mark.parametrize("url", ["schotten.example.org", "https://", "http://localhost:80a80"])
def test_a_public_url_links_cannot_be_built_on_is_refused(url: str) -> None:
    with pytest.raises(SettingsError, match="PUBLIC_URL="):
        Settings.from_env({"PUBLIC_URL": url}, env_file=None)


def test_web_warnings_for_links_that_lead_nowhere() -> None:
    def warnings(**environ: str) -> list[str]:
        return Settings.from_env(environ, env_file=None).web_warnings()

    port, other = free_port(), free_port()  # no fixed port, though nothing binds here
    (local,) = warnings(WEB_PORT=str(port))
    assert f"PUBLIC_URL=http://localhost:{port} names this machine" in local
    assert len(warnings(PUBLIC_URL=f"http://127.0.0.2:{port}", WEB_PORT=str(port))) == 1
    assert len(warnings(PUBLIC_URL=f"http://[::1]:{port}", WEB_PORT=str(port))) == 1
    wrong_port = warnings(PUBLIC_URL=f"http://localhost:{port}", WEB_PORT=str(other))
    assert len(wrong_port) == 2
    assert f"names port {port}, but the web pages listen on WEB_PORT={other}" in wrong_port[1]
    assert warnings(PUBLIC_URL="https://schotten.example.org") == []  # a proxy's address
    assert warnings(PUBLIC_URL=f"http://192.0.2.7:{other}", WEB_PORT=str(port)) == []  # maybe forwarded
    assert warnings(WEB_PORT="0") == []  # no pages, no links
    # WEB_PORT=0 with PUBLIC_URL: the links point at a `python -m bot web` elsewhere.
    elsewhere = Settings.from_env({"WEB_PORT": "0", "PUBLIC_URL": f"http://localhost:{port}"}, env_file=None)
    assert elsewhere.posts_links and len(elsewhere.web_warnings()) == 1


def test_a_taken_web_port_names_web_port_and_web_host() -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        with pytest.raises(SettingsError) as caught:
            try_web_port("127.0.0.1", port)
    assert str(caught.value).startswith(f"Cannot serve the web pages on WEB_HOST=127.0.0.1 WEB_PORT={port}")
    assert "taken" in str(caught.value)
    try_web_port("127.0.0.1", port)  # free again
    try_web_port("127.0.0.1", 0)  # off: nothing to try
    with pytest.raises(SettingsError, match="WEB_HOST is not an address of this machine"):
        try_web_port("192.0.2.1", port)  # TEST-NET-1: nobody's address


def test_the_documented_encoding_is_the_one_the_driver_decodes() -> None:
    # .env.example: "p@ss#1 is written p%40ss%231"; README, "Running at scale", the same table.
    example = EXAMPLE.read_text()
    assert "(p@ss#1 is written p%40ss%231)" in example
    url = Settings.from_env({"DATABASE_URL": "postgresql://bot:p%40ss%231@h/db"}, env_file=None).postgres
    assert url is not None and url.password == "p@ss#1"
    readme = (EXAMPLE.parent / "README.md").read_text()
    for table in (example, readme):
        for char, code in {"#": "%23", "@": "%40", "/": "%2F", ":": "%3A", "?": "%3F", "%": "%25"}.items():
            assert f"{char} as {code}" in table.replace("`", ""), (char, code)


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
