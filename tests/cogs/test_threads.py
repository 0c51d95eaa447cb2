"""A thread per game and pings that count, with the defaults the bot ships: each game of
a channel in its own thread (where the bot may create threads), a turn ping only for a
player who is away, at most one per turn, as each member chose (/schotten settings).

"Away" is read on simcord's clock (``env.advance_time``): nothing here sleeps."""

from __future__ import annotations

import random
from typing import Any

import discord
import pytest
import simcord

from bot.app import create_bot
from bot.community.presence import AT_TABLE
from bot.games.delivery import PUBLISH_LEASE, RECOVERY_GRACE
from bot.settings import Settings
from cogs.timers import INTERVAL
from tests.cogs.helpers import challenge_and_accept, dm_turn, flat_components, private_text, setup_members

pytestmark = pytest.mark.shipped_defaults

AWAY = AT_TABLE + 1  # seconds without using the bot after which a player is away


def boards(channel: Any, game_id: int) -> list[Any]:
    """The boards of ``game_id`` standing in ``channel`` (by their Show my hand button)."""
    return [
        m
        for m in channel.history()
        if any(
            c.get("custom_id", "").split(":")[:3] == ["st", "hand", str(game_id)] for c in flat_components(m)
        )
    ]


def calls(env: Any, method: str, channel: Any, since: int = 0) -> list[Any]:
    """The bot's REST calls of ``method`` on messages of ``channel`` (POST: sends)."""
    prefix = f"/channels/{channel.id}/messages"
    return [r for r in env.http_requests[since:] if r.method == method and r.path.startswith(prefix)]


def pinged(env: Any, since: int = 0) -> list[int]:
    """The users the bot's messages pinged since ``since``, one entry per ping."""
    users: list[int] = []
    for entry in env.http_requests[since:]:
        sent = entry.path.startswith("/channels/") and entry.path.endswith("/messages")
        if entry.method == "POST" and sent:
            users += [int(u) for u in ((entry.json or {}).get("allowed_mentions") or {}).get("users") or []]
    return users


def manager_role(guild: Any) -> Any:
    return guild.create_role("admins", permissions=discord.Permissions(manage_guild=True))


async def move_of(bot: Any, game_id: int, by_id: dict[int, Any], rng: random.Random) -> tuple[int, int]:
    """One turn of the player to move, through their DM: (who moved, who moves now)."""
    before = (await bot.service.get(game_id)).current_user
    await dm_turn(by_id[before], rng, game_id)
    return before, (await bot.service.get(game_id)).current_user


async def test_a_game_is_played_in_its_own_thread(simcord_env, simcord_bot):
    env, bot = simcord_env, simcord_bot
    _, channel, (alice, bob) = setup_members(env)
    game_id = await challenge_and_accept(env, channel, alice, bob)
    (thread,) = channel.threads
    assert thread.name == f"#{game_id} · alice – bob"
    assert (await bot.service.get(game_id)).thread_id == thread.id
    # The board lives in the thread; the channel has the challenge and Discord's line
    # saying the thread was started.
    assert boards(channel, game_id) == [] and len(boards(thread, game_id)) == 1
    assert calls(env, "POST", channel) == []

    by_id, rng = {alice.id: alice, bob.id: bob}, random.Random(5)
    for _ in range(6):
        await move_of(bot, game_id, by_id, rng)
        assert boards(channel, game_id) == [] and len(boards(thread, game_id)) == 1
    # The game's talk and commands work in the thread (the game of "this channel").
    record = await bot.service.get(game_id)
    loser = by_id[record.current_user]
    resigned = await loser.slash(thread, "schotten resign")
    assert resigned.ephemeral, resigned.response.content

    # The result in the channel, with the link to the thread; the thread archived.
    (end,) = calls(env, "POST", channel)
    assert f"Game #{game_id}" in end.json["content"] and f"<#{thread.id}>" in end.json["content"]
    assert channel.last_message.content == end.json["content"]
    fetched = await bot.fetch_channel(thread.id)
    assert isinstance(fetched, discord.Thread) and fetched.archived
    (board,) = boards(thread, game_id)
    assert "<@" not in board.content  # the final board, pinging nobody


async def test_threads_off_or_not_allowed_keeps_the_board_in_the_channel(simcord_env, simcord_bot):
    env, bot = simcord_env, simcord_bot
    guild, channel, (alice, bob) = setup_members(env)
    # Only a member who may manage the server sets its threads; a refusal changes nothing.
    refused = await alice.slash(channel, "schotten settings", threads="off")
    assert refused.ephemeral and "manage this server" in refused.response.content
    assert await bot.preferences.threads(guild.id)
    boss = guild.add_member(env.create_user("boss"), roles=[manager_role(guild)])
    chosen = await boss.slash(channel, "schotten settings", threads="off")
    assert chosen.ephemeral and "in the channel" in private_text(chosen)

    game_id = await challenge_and_accept(env, channel, alice, bob)
    assert channel.threads == [] and len(boards(channel, game_id)) == 1
    assert (await bot.service.get(game_id)).thread_id == 0

    # Threads on again, but a channel where the bot may not create threads: the channel.
    await boss.slash(channel, "schotten settings", threads="on")
    closed = guild.create_text_channel(
        "no-threads", overwrites={bot.user: discord.PermissionOverwrite(create_public_threads=False)}
    )
    carol, dave = (guild.add_member(env.create_user(name)) for name in ("carol", "dave"))
    other = await challenge_and_accept(env, closed, carol, dave)
    assert closed.threads == [] and len(boards(closed, other)) == 1
    shown = await boss.slash(closed, "schotten settings", threads="on")
    assert "may not create threads in this channel" in private_text(shown)


async def test_away_players_are_pinged_once_a_turn_and_present_ones_not(simcord_env, simcord_bot):
    env, bot = simcord_env, simcord_bot
    _, channel, (alice, bob) = setup_members(env)
    start = len(env.http_requests)
    game_id = await challenge_and_accept(env, channel, alice, bob)
    (thread,) = channel.threads
    # Both just used the bot (the challenge, the Accept): nobody is pinged.
    assert pinged(env, start) == []
    by_id, rng = {alice.id: alice, bob.id: bob}, random.Random(8)
    posts_before = len(calls(env, "POST", thread))
    turns = 0
    while turns < 4:
        mover, to_move = await move_of(bot, game_id, by_id, rng)
        turns += mover != to_move
    # A quick game: the board in the thread edited in place, never reposted or deleted.
    assert pinged(env, start) == [] and len(calls(env, "POST", thread)) == posts_before
    assert calls(env, "DELETE", thread) == [] and len(boards(thread, game_id)) == 1

    # The player to move now thinks for more than a minute: their opponent is away by
    # then, and pinged once at their turn (a new board; the old one deleted).
    for _ in range(10):
        await env.advance_time(AWAY)
        seen = len(env.http_requests)
        mover, to_move = await move_of(bot, game_id, by_id, rng)
        if mover != to_move:
            break
    assert pinged(env, seen) == [to_move]
    (board,) = boards(thread, game_id)
    assert board.content.startswith(f"<@{to_move}>, your turn.")
    assert len(calls(env, "DELETE", thread, seen)) == 1
    # They answer at once: the one who just moved is at the table, nobody is pinged.
    for _ in range(10):
        seen = len(env.http_requests)
        answering, back = await move_of(bot, game_id, by_id, rng)
        assert pinged(env, seen) == []  # claims of the same turn included: one ping a turn
        if answering != back:
            break
    assert (answering, back) == (to_move, mover)
    assert not boards(thread, game_id)[0].content.startswith("<@")


async def test_every_turn_and_never_are_honoured(simcord_env, simcord_bot):
    env, bot = simcord_env, simcord_bot
    _, channel, (alice, bob) = setup_members(env)
    never = await alice.slash(channel, "schotten settings", pings="never")
    assert never.ephemeral and "not ping you" in private_text(never)
    every = await bob.slash(channel, "schotten settings", pings="every-turn")
    assert every.ephemeral and "each of your turns" in private_text(every)
    shown = await bob.slash(channel, "schotten settings")
    assert "Your turn pings: every turn." in private_text(shown)

    game_id = await challenge_and_accept(env, channel, alice, bob)
    by_id, rng = {alice.id: alice, bob.id: bob}, random.Random(2)
    bob_turns = bob_pings = 0
    for step in range(16):
        if step % 2:
            await env.advance_time(AWAY)  # alice away or not: never is never
        seen = len(env.http_requests)
        mover, to_move = await move_of(bot, game_id, by_id, rng)
        got = pinged(env, seen)
        assert alice.id not in got
        if mover != to_move and to_move == bob.id:
            bob_turns += 1
            assert got == [bob.id]  # at the table or not, once
        bob_pings += len(got)
    assert bob_turns >= 3 and bob_pings == bob_turns


async def test_a_round_announcement_is_the_first_turns_ping(simcord_env, simcord_bot):
    env, bot = simcord_env, simcord_bot
    guild = env.create_guild()
    channel = guild.create_text_channel("tournaments")
    events = guild.create_role("events", permissions=discord.Permissions(manage_events=True))
    organiser = guild.add_member(env.create_user("olga"), roles=[events])
    members = [guild.add_member(env.create_user(f"p{i}")) for i in range(1, 5)]
    created = await organiser.slash(
        channel, "schotten tournament create", name="Cup", format="swiss", rounds=2
    )
    for member in members:
        await member.click(created.response, label="Join")
    await env.advance_time(AWAY)  # everybody away when the round starts
    seen = len(env.http_requests)
    started = await organiser.slash(channel, "schotten tournament start")
    assert started.ephemeral
    # Each player pinged once: by the round's announcement, not again by their board.
    assert sorted(pinged(env, seen)) == sorted(m.id for m in members)
    (tournament,) = await bot.tournaments.of_guild(guild.id)
    games = [p.game_id for p in await bot.db.tournaments.pairings(tournament.id, 1)]
    assert len(games) == 2 and len(channel.threads) == 2
    for game_id in games:
        record = await bot.service.get(game_id)
        (thread,) = [t for t in channel.threads if t.id == record.thread_id]
        assert len(boards(thread, game_id)) == 1 and boards(channel, game_id) == []


async def test_a_restart_after_the_thread_was_opened_adopts_it(tmp_path):
    database = str(tmp_path / "threads.sqlite")
    first = create_bot(database=database)
    async with simcord.run(first) as env:
        _, channel, (alice, bob) = setup_members(env)
        stored = first.service.set_message_ids

        async def dies(game_id: int, **ids: Any) -> Any:
            if "thread_id" in ids:
                raise RuntimeError("the process died here")  # the thread is open, not stored
            return await stored(game_id, **ids)

        first.service.set_message_ids = dies
        challenge = await alice.slash(channel, "schotten challenge", opponent=bob)
        await bob.click(challenge.response, label="Accept")
        with pytest.raises(ExceptionGroup):
            env.raise_errors()  # the first process "died" there
        (opened,) = channel.threads
        game_id = (await first.service.active_games_for(alice.id))[0].id
        assert boards(opened, game_id) == [] and (await first.service.get(game_id)).thread_id is None

        second = create_bot(database=database)
        await env.restart_bot(second)
        await first.close()
        await env.advance_time(RECOVERY_GRACE + PUBLISH_LEASE + 2 * INTERVAL)  # the lease ran out
        # The recovery found the thread by its name and adopted it: one thread, the board in it.
        assert [thread.id for thread in channel.threads] == [opened.id]
        creations = [r for r in env.http_requests if r.method == "POST" and r.path.endswith("/threads")]
        assert len(creations) == 1
        assert (await second.service.get(game_id)).thread_id == opened.id
        assert len(boards(opened, game_id)) == 1 and boards(channel, game_id) == []
        await second.close()


async def test_a_swiss_of_seven_in_one_channel_keeps_it_calm(simcord_env, simcord_bot):
    env, bot = simcord_env, simcord_bot
    guild = env.create_guild()
    channel = guild.create_text_channel("tournaments")
    events = guild.create_role("events", permissions=discord.Permissions(manage_events=True))
    organiser = guild.add_member(env.create_user("olga"), roles=[events])
    members = [guild.add_member(env.create_user(f"p{i}")) for i in range(1, 8)]
    by_id = {m.id: m for m in members}
    created = await organiser.slash(
        channel, "schotten tournament create", name="Swiss", format="swiss", rounds=3
    )
    for member in members:
        await member.click(created.response, label="Join")
    (tournament,) = await bot.tournaments.of_guild(guild.id)
    seen = len(env.http_requests)
    await env.advance_time(AWAY)
    await organiser.slash(channel, "schotten tournament start")
    threads = 0
    for round_no in (1, 2, 3):
        pairings = await bot.db.tournaments.pairings(tournament.id, round_no)
        games = [p for p in pairings if p.black is not None and p.game_id is not None]
        assert len(games) == 3
        # The round's pings: each of its players once, by the announcement.
        playing = sorted(user for p in games for user in (p.white, p.black))
        assert sorted(pinged(env, seen)) == playing
        threads += len(games)
        assert len(channel.threads) == threads  # each game in its own thread
        for pairing in games:
            record = await bot.service.get(pairing.game_id)
            (thread,) = [t for t in channel.threads if t.id == record.thread_id]
            assert len(boards(thread, record.id)) == 1 and boards(channel, record.id) == []
        seen = len(env.http_requests)
        for pairing in games:
            await env.advance_time(AWAY)
            resigned = await by_id[pairing.black].slash(channel, "schotten resign", game=pairing.game_id)
            assert resigned.ephemeral
        # The channel's own posts this round: the three results, then the next round's
        # pairings (or the podium) and the standings; nothing of the games' boards.
        posted = calls(env, "POST", channel, seen)
        assert len(posted) <= len(games) + 3, [p.json["content"][:40] for p in posted]
        assert sum("Game #" in p.json["content"] and "<#" in p.json["content"] for p in posted) == 3
    row = await bot.db.tournaments.get(tournament.id)
    assert row.status == "finished"


@pytest.mark.parametrize("choice", ["never", "away"])
async def test_the_reminder_goes_to_the_thread_and_pings_as_chosen(choice: str) -> None:
    bot = create_bot(database=":memory:", settings=Settings(turn_timeout=3600, turn_reminder=1800))
    try:
        async with simcord.run(bot) as env:
            _, channel, (alice, bob) = setup_members(env)
            game_id = await challenge_and_accept(env, channel, alice, bob)
            (thread,) = channel.threads
            to_move = (await bot.service.get(game_id)).current_user
            member = alice if to_move == alice.id else bob
            await member.slash(channel, "schotten settings", pings=choice)
            seen = len(env.http_requests)
            await env.advance_time(1800 + INTERVAL)
            (reminder,) = calls(env, "POST", thread, seen)
            assert f"<@{to_move}>" in reminder.json["content"] and calls(env, "POST", channel, seen) == []
            assert pinged(env, seen) == ([] if choice == "never" else [to_move])
    finally:
        await bot.close()
