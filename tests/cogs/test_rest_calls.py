"""REST calls per move, from simcord's request log: at most three of an ordinary move
count against Discord's global rate limit, so that one bot carries 15 moves/s within
its roughly 50 requests/s. Interaction responses (``/interactions/.../callback`` and
the ``/webhooks/<application>/<token>`` follow-ups and edits) do not count.

A move is played through the DM controls (a card select, a stone select, Play: the
hand is updated through the interaction) or typed as a command (the DM is then left
until the player's next turn); both are counted, card plays, claims, passes and, in the
tactics variant, draws and every tactic card. The picture style costs nothing more: the
picture rides in the same send or edit (a message edit with a new attachment is one
call). The game's end, rarer, may take one call more: no DM may keep offering moves in a
finished game."""

from __future__ import annotations

import random
from collections import defaultdict
from typing import Any

import discord

from rules.moves import Claim, Draw, Pass, PlayCard
from tests.cogs.helpers import challenge_and_accept, dm_turn, setup_members, slash_turn

ORDINARY = 3  # counted calls allowed for any move that does not end the game
# The last move: board, end announcement, the other player's DM; and the mover's DM
# unless they clicked in it (a typed move must not leave it saying "It is your turn."
# with live controls): four.
END = 4
START = 5  # a new game: the board, two DM channels opened, two DMs
MAX_MOVES = 400


def counted(requests: list[Any]) -> list[str]:
    """The requests that count against the global limit, as ``METHOD path``."""
    return [
        f"{r.method} {r.path}" for r in requests if not r.path.startswith(("/interactions/", "/webhooks/"))
    ]


def kind(move: Any, turn_changed: bool) -> str:
    name = {PlayCard: "play", Claim: "claim", Pass: "pass", Draw: "draw"}.get(type(move), "tactic")
    return f"{name} ({'turn changes' if turn_changed else 'same turn'})"


async def count_game(
    env: Any, bot: Any, channel: Any, members: tuple[Any, ...], game_id: int, turn: Any
) -> dict:
    """Play the game to its end with ``turn(member)`` (one move each); the counted calls
    of each move by kind, and of the last."""
    by_id = {m.id: m for m in members}
    per_kind: dict[str, list[int]] = defaultdict(list)
    for _ in range(MAX_MOVES):
        record = await bot.service.get(game_id)
        seen, logged = len(env.http_requests), len(record.game.log)
        await turn(by_id[record.current_user])
        after = await bot.service.get(game_id)
        calls = counted(env.http_requests[seen:])
        moves = after.game.log[logged:]
        assert moves, "the turn made no move"
        if after.game.is_over:
            assert len(calls) <= END, calls
            per_kind["end"].append(len(calls))
            return per_kind
        first = moves[0][1]
        label = kind(first, after.current_player != record.current_player)
        assert len(calls) <= ORDINARY, (label, calls)
        per_kind[label].append(len(calls))
    raise AssertionError("the game did not end")


async def test_base_game_dm_and_typed_moves(simcord_env, simcord_bot):
    env, bot = simcord_env, simcord_bot
    _, channel, (alice, bob) = setup_members(env)
    seen = len(env.http_requests)
    game_id = await challenge_and_accept(env, channel, alice, bob)
    start = counted(env.http_requests[seen:])
    assert len(start) <= START, start
    rng = random.Random(5)

    async def turn(member: Any) -> None:
        if member is alice:
            await dm_turn(member, rng, game_id)
        else:
            await slash_turn(member, channel, rng)

    per_kind = await count_game(env, bot, channel, (alice, bob), game_id, turn)
    # The game had claims and turn changes both ways; a claim that keeps the turn edits
    # the board (and, when typed, the claimer's DM) only.
    assert per_kind["play (turn changes)"] and per_kind["end"]
    assert max(per_kind["claim (same turn)"], default=0) <= 2
    assert max(per_kind["play (turn changes)"]) == ORDINARY  # new board, old deleted, a DM


async def test_tactics_game_typed_moves(simcord_env, simcord_bot):
    env, bot = simcord_env, simcord_bot
    _, channel, (alice, bob) = setup_members(env)
    game_id = await challenge_and_accept(env, channel, alice, bob, tactics=True)
    rng = random.Random(9)

    async def turn(member: Any) -> None:
        # Any legal move, typed: tactic cards included (the test picks from the true
        # state; what the bot shows is not under test here).
        record = await bot.service.get(game_id)
        legal = list(record.game.legal_moves())
        tactics = [m for m in legal if not isinstance(m, (PlayCard, Claim, Pass, Draw))]
        move = rng.choice(tactics) if tactics and rng.random() < 0.7 else rng.choice(legal)
        result = await member.slash(channel, "schotten move", text=str(move), game=game_id)
        assert result.ephemeral and (await bot.service.get(game_id)).version > record.version, result

    per_kind = await count_game(env, bot, channel, (alice, bob), game_id, turn)
    assert (
        per_kind["tactic (same turn)"] + per_kind["tactic (turn changes)"] and per_kind["draw (turn changes)"]
    )


async def test_picture_style_costs_the_same(simcord_env, simcord_bot):
    env, bot = simcord_env, simcord_bot
    guild = env.create_guild()
    channel = guild.create_text_channel("general")
    admins = guild.create_role("admins", permissions=discord.Permissions(manage_guild=True))
    alice = guild.add_member(env.create_user("alice"), roles=[admins])
    bob = guild.add_member(env.create_user("bob"))
    await alice.slash(channel, "schotten style", board="picture", server=True)
    for member in (alice, bob):
        await member.slash(channel, "schotten style", board="picture")
    seen = len(env.http_requests)
    game_id = await challenge_and_accept(env, channel, alice, bob)
    start = counted(env.http_requests[seen:])
    assert len(start) <= START, start
    rng = random.Random(5)

    async def turn(member: Any) -> None:
        if member is alice:
            await dm_turn(member, rng, game_id)
        else:
            await slash_turn(member, channel, rng)
        # (simcord's own view of the channel: no request.) The board is a picture.
        board_id = (await bot.service.get(game_id)).board_message_id
        assert [len(m.attachments) for m in channel.history() if m.id == board_id] == [1]

    per_kind = await count_game(env, bot, channel, (alice, bob), game_id, turn)
    assert per_kind["play (turn changes)"] and per_kind["end"]
    assert max(per_kind["claim (same turn)"], default=0) <= 2
    assert max(per_kind["play (turn changes)"]) == ORDINARY
    boards = [m for m in channel.history() if m.attachments]
    assert boards and all(a.filename.startswith("board-") for m in boards for a in m.attachments)
