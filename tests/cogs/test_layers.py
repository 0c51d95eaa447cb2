"""The Discord layer reaches stored state only through the services on the bot."""

from __future__ import annotations

import ast
from pathlib import Path

COGS = Path(__file__).resolve().parents[2] / "cogs"


def _offences(source: str) -> list[str]:
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Attribute) and node.attr == "db":
            found.append(f"line {node.lineno}: .db")
        if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("bot.storage"):
            found.extend(f"line {node.lineno}: imports {a.name}" for a in node.names if a.name == "Database")
    return found


def test_the_check_sees_database_access() -> None:
    assert _offences("async def f(bot):\n    await bot.db.get_game(1)\n") == ["line 2: .db"]
    assert _offences("from bot.storage import Database, MatchRow\n") == ["line 1: imports Database"]
    assert _offences("async def f(bot):\n    await bot.service.get(1)\n") == []


def test_no_cog_touches_the_database() -> None:
    modules = sorted(COGS.rglob("*.py"))
    assert len(modules) > 5
    offenders = {
        str(path.relative_to(COGS)): found
        for path in modules
        if (found := _offences(path.read_text(encoding="utf-8")))
    }
    assert offenders == {}
