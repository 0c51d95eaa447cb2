"""Whole games between two members, from challenge to result, through the bot alone."""

from __future__ import annotations

import logging
import random
from typing import Any

import pytest

from rules.moves import Claim
from tests.cogs.helpers import (
    cards_in,
    challenge_and_accept,
    dm_message,
    dm_turn,
    hand_in,
    setup_members,
    slash_turn,
)

MAX_TURNS = 400


class LogTap(logging.Handler):
    """Every log line the bot writes, formatted as it would reach a log file."""

    def __init__(self) -> None:
        super().__init__(logging.DEBUG)
        self.lines: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        text = record.getMessage()
        if record.exc_info:
            text += "\n" + logging.Formatter().formatException(record.exc_info)
        self.lines.append(text)


@pytest.fixture
def log_tap():
    """Our own loggers at DEBUG, libraries at INFO (the production default: at DEBUG,
    discord.http and aiosqlite echo request bodies and SQL parameters)."""
    tap = LogTap()
    root = logging.getLogger()
    old = root.level
    ours = [logging.getLogger(name) for name in ("bot", "cogs", "rules")]
    old_ours = [logger.level for logger in ours]
    root.addHandler(tap)
    root.setLevel(logging.INFO)
    for logger in ours:
        logger.setLevel(logging.DEBUG)
    yield tap
    root.removeHandler(tap)
    root.setLevel(old)
    for logger, level in zip(ours, old_ours, strict=True):
        logger.setLevel(level)


def public_text(channel: Any) -> str:
    """Everything anyone in the channel can read: contents, embeds, component labels."""
    parts = []
    for message in channel.history():
        parts.append(message.content)
        for embed in message.embeds:
            parts.append(str(embed.to_dict()))
        for row in message.components:
            parts.append(str(row.to_dict()))
    return "\n".join(parts)


async def hands(bot: Any, game_id: int) -> set[str]:
    record = await bot.service.get(game_id)
    return {str(c) for p in (0, 1) for c in record.game.hand(p)}


async def play_out(env, bot, channel, members, game_id, rng, log_tap, *, slash_for=()) -> Any:
    """Play ``game_id`` to its end; after every turn, check that no card of a hand is
    in the channel or in a new log line."""
    by_id = {m.id: m for m in members}
    seen_log = len(log_tap.lines)
    for _ in range(MAX_TURNS):
        record = await bot.service.get(game_id)
        if record.game.is_over:
            return record
        member = by_id[record.current_user]
        if member in slash_for:
            await slash_turn(member, channel, rng)
        else:
            await dm_turn(member, rng, game_id)
        secret = await hands(bot, game_id)
        leaked = secret & cards_in(public_text(channel))
        assert not leaked, f"hand cards {leaked} visible in the channel"
        new_lines = "\n".join(log_tap.lines[seen_log:])
        seen_log = len(log_tap.lines)
        leaked = secret & cards_in(new_lines)
        assert not leaked, f"hand cards {leaked} in the log: {new_lines}"
        now = await bot.service.get(game_id)
        # The board says who claimed which stone in the latest turn: read from the
        # stored game, so it stands until the next player's turn replaces the board.
        board = next(m for m in channel.history() if m.id == now.board_message_id)
        for player, stone in claims_of_latest_turn(now):
            assert f"{by_id[now.players[player]].name} claims stone {stone}." in board.content
        # Each player's DM shows exactly their own hand: the player to move's always,
        # the others' once their DM was updated by their move (a click in it) or at the
        # end. A move typed as a command leaves that DM until the player's next turn.
        for p, m in enumerate(now.players):
            if by_id[m] in slash_for and p != now.current_player and not now.game.is_over:
                continue
            dm = dm_message(by_id[m])
            assert sorted(hand_in(dm.content)) == sorted(str(c) for c in now.game.hand(p))
    raise AssertionError("game did not end")


def claims_of_latest_turn(record: Any) -> list[tuple[int, int]]:
    """(player, stone) of each claim in the latest turn of the game's log."""
    log = record.game.log
    if not log:
        return []
    player = log[-1][0]
    claims = []
    for who, move in reversed(log):
        if who != player:
            break
        if isinstance(move, Claim):
            claims.append((who, move.stone))
    return claims


@pytest.mark.parametrize("seed", [1, 2, 3])
async def test_full_game_through_dm_controls(simcord_env, simcord_bot, log_tap, seed):
    env, bot = simcord_env, simcord_bot
    _, channel, (alice, bob) = setup_members(env)
    game_id = await challenge_and_accept(env, channel, alice, bob)
    record = await play_out(env, bot, channel, (alice, bob), game_id, random.Random(seed), log_tap)
    result = record.game.result
    assert any(isinstance(move, Claim) for _, move in record.game.log)  # play_out saw claims on the board
    last = channel.last_message.content
    assert f"Game #{game_id} is over" in last
    if result.winner is not None:
        winner = ("alice", "bob")[(alice.id, bob.id).index(record.players[result.winner])]
        assert f"{winner} wins" in last
    # The finished game's controls are gone from both DMs and the board's button is disabled.
    for member in (alice, bob):
        assert not any(not c.get("disabled") for c in _flat(dm_message(member)))
    boards = [m for m in channel.history() if "Show my hand" in str([r.to_dict() for r in m.components])]
    assert boards and all(_all_disabled(m) for m in boards)


def _flat(message):
    from tests.cogs.helpers import flat_components

    return flat_components(message)


def _all_disabled(message) -> bool:
    return all(c.get("disabled") for c in _flat(message))


async def test_full_game_through_slash_commands(simcord_env, simcord_bot, log_tap):
    env, bot = simcord_env, simcord_bot
    _, channel, (alice, bob) = setup_members(env)
    game_id = await challenge_and_accept(env, channel, alice, bob)
    record = await play_out(
        env, bot, channel, (alice, bob), game_id, random.Random(7), log_tap, slash_for=(bob,)
    )
    assert record.game.is_over
    assert f"Game #{game_id} is over" in channel.last_message.content
