"""What a committed change owes Discord is published once, also when the process that
committed it died first: the next round of the timers (in any process, here a
restarted one) publishes it from the outbox, rendered from the stored game, and adopts
what an interrupted attempt had already posted instead of posting it again."""

from __future__ import annotations

import os
from collections.abc import AsyncIterator
from typing import Any

import pytest
import pytest_asyncio
import simcord

from bot.app import create_bot
from bot.games.delivery import RECOVERY_GRACE
from cogs.timers import INTERVAL
from rules.game import GameOptions
from rules.moves import Claim, PlayCard
from tests.cogs.helpers import challenge_and_accept, dm_message, flat_components, setup_members

LATER = RECOVERY_GRACE + INTERVAL + 1  # a timer round takes what nobody published


def boards(channel: Any, game_id: int) -> list[Any]:
    """The boards of ``game_id`` standing in the channel (by their Show my hand button)."""
    return [
        m
        for m in channel.history()
        if any(
            c.get("custom_id", "").split(":")[:3] == ["st", "hand", str(game_id)] for c in flat_components(m)
        )
    ]


def posts(env: Any, channel: Any) -> list[Any]:
    """The messages the bot asked Discord to create in ``channel``."""
    path = f"/channels/{channel.id}/messages"
    return [r for r in env.http_requests if r.method == "POST" and r.path == path]


async def nothing_pending(bot: Any) -> bool:
    far = bot.delivery.clock() + 10_000
    return await bot.db.delivery.pending_outbox(now=far, created_before=far, max_attempts=99) == []


@pytest_asyncio.fixture
async def database(request: pytest.FixtureRequest, tmp_path: Any) -> AsyncIterator[str]:
    """A database that outlives a bot process: a file, or PostgreSQL with
    ``TEST_BOT_DATABASE=postgres`` (as the other Discord tests)."""
    if os.environ.get("TEST_BOT_DATABASE") == "postgres":
        yield str(request.getfixturevalue("postgres_database"))
    else:
        yield str(tmp_path / "outbox.sqlite")


async def test_a_pending_publication_is_published_once(simcord_env, simcord_bot):
    env, bot = simcord_env, simcord_bot
    _, channel, (alice, bob) = setup_members(env)
    game_id = await challenge_and_accept(env, channel, alice, bob)
    record = await bot.service.get(game_id)
    mover, waiting = (alice, bob) if record.current_user == alice.id else (bob, alice)
    (board_before,) = boards(channel, game_id)
    dm_before = dm_message(waiting, game_id).content

    # Committed, then the process "dies": nothing is published.
    move = next(m for m in record.game.legal_moves() if isinstance(m, PlayCard))
    outcome = await bot.service.apply(game_id, mover.id, move, expected_version=record.version)
    assert outcome.outbox_id is not None and outcome.turn_changed
    assert boards(channel, game_id) == [board_before]

    await env.advance_time(LATER)
    # One board, posted anew for the new turn and mentioning the player to move.
    (board_after,) = boards(channel, game_id)
    assert board_after.id != board_before.id
    assert board_after.content.startswith(f"<@{waiting.id}>, your turn.")
    assert dm_message(waiting, game_id).content != dm_before  # their controls are current
    assert await nothing_pending(bot)

    count = len(list(channel.history()))
    await env.advance_time(2 * INTERVAL)  # later rounds publish nothing again
    assert len(list(channel.history())) == count


async def test_a_game_created_by_a_process_that_died_is_published_after_a_restart(database):
    first = create_bot(database=database)
    async with simcord.run(first) as env:
        guild, channel, (alice, bob) = setup_members(env)
        # The challenge is answered (the game committed), and the process dies before
        # it posts anything.
        challenge = await first.challenges.create(
            guild_id=guild.id,
            channel_id=channel.id,
            challenger_id=alice.id,
            opponent_id=bob.id,
            options=GameOptions(),
        )
        _, record = await first.challenges.accept(challenge.id, bob.id)
        assert boards(channel, record.id) == [] and dm_message(alice) is None

        second = create_bot(database=database)
        await env.restart_bot(second)
        await first.close()
        await env.advance_time(LATER)
        (board,) = boards(channel, record.id)
        stored = await second.service.get(record.id)
        assert stored.board_message_id == board.id
        assert board.content.startswith(f"<@{stored.current_user}>, your turn.")
        for member in (alice, bob):
            assert dm_message(member, record.id) is not None
        assert await nothing_pending(second)
        await env.advance_time(2 * INTERVAL)
        assert len(boards(channel, record.id)) == 1 and len(posts(env, channel)) == 1
        await second.close()


def _ends(record: Any, move: Any) -> bool:
    """Whether ``move`` would end the game (a third stone in a row, a fifth)."""
    game = record.game.clone()
    game.apply(move, player=record.current_player)
    return game.is_over


async def test_a_claim_committed_by_a_process_that_died_is_shown_after_a_restart(database):
    first = create_bot(database=database)
    async with simcord.run(first) as env:
        _, channel, (alice, bob) = setup_members(env)
        game_id = await challenge_and_accept(env, channel, alice, bob)
        # Play until a claim is legal at the start of a turn (one after the card ends
        # the turn with the draw); each move is published as usual.
        for _ in range(200):
            record = await first.service.get(game_id)
            legal = record.game.legal_moves()
            claim = next((m for m in legal if isinstance(m, Claim)), None)
            if claim is not None and record.game.phase == "play" and not _ends(record, claim):
                break
            move = next(
                (m for m in legal if isinstance(m, PlayCard)),
                next(m for m in legal if not isinstance(m, Claim)),
            )
            outcome = await first.service.apply(
                game_id, record.current_user, move, expected_version=record.version
            )
            await first.get_cog("Schotten").publisher.publish(outcome)
        assert claim is not None
        (before,) = boards(channel, game_id)
        name = "alice" if record.current_user == alice.id else "bob"
        outcome = await first.service.apply(
            game_id, record.current_user, claim, expected_version=record.version
        )
        assert not outcome.turn_changed  # "dies" before publishing the claim

        second = create_bot(database=database)
        await env.restart_bot(second)
        await first.close()
        await env.advance_time(LATER)
        # The board, edited in place (a claim keeps the turn), says who claimed what.
        (after,) = boards(channel, game_id)
        assert after.id == before.id
        assert f"{name} claims stone {claim.stone}." in after.content
        # The claimer's DM controls are those of the new version: they play on from it.
        mover = alice if name == "alice" else bob
        ids = [c["custom_id"] for c in flat_components(dm_message(mover, game_id))]
        assert ids and all(i.split(":")[2:4] == [str(game_id), str(outcome.game.version)] for i in ids)
        assert await nothing_pending(second)
        await second.close()


async def test_a_publication_interrupted_after_discord_took_it_is_not_repeated(simcord_env, simcord_bot):
    env, bot = simcord_env, simcord_bot
    _, channel, (alice, bob) = setup_members(env)
    game_id = await challenge_and_accept(env, channel, alice, bob)
    table = bot.get_cog("Schotten").publisher
    record = await bot.service.get(game_id)
    mover = record.current_user
    (old,) = boards(channel, game_id)

    # Discord posts the new board; the process dies before it stores the board's id.
    move = next(m for m in record.game.legal_moves() if isinstance(m, PlayCard))
    outcome = await bot.service.apply(game_id, mover, move, expected_version=record.version)
    stored = bot.service.set_message_ids

    async def dies(*args: Any, **kwargs: Any) -> Any:
        raise RuntimeError("the process died here")

    bot.service.set_message_ids = dies
    with pytest.raises(RuntimeError):
        await table.publish(outcome)
    bot.service.set_message_ids = stored
    assert len(boards(channel, game_id)) == 2  # the new one, and the old one not yet deleted
    sent = len(posts(env, channel))

    await env.advance_time(RECOVERY_GRACE + 2 * INTERVAL + 130)  # past the dead publisher's lease
    # The recovery found the board it had posted and adopted it: no second board.
    assert len(posts(env, channel)) == sent
    (board,) = boards(channel, game_id)
    assert board.id != old.id and (await bot.service.get(game_id)).board_message_id == board.id
    assert await nothing_pending(bot)


async def test_an_end_announced_before_a_crash_is_not_announced_again(simcord_env, simcord_bot):
    env, bot = simcord_env, simcord_bot
    _, channel, (alice, bob) = setup_members(env)
    game_id = await challenge_and_accept(env, channel, alice, bob)
    table = bot.get_cog("Schotten").publisher
    outcome = await bot.service.resign(game_id, alice.id)
    done = bot.delivery.done

    async def dies(entry_id: int) -> None:
        raise RuntimeError("the process died here")

    # Everything reached Discord; the process dies before it marks the entry done.
    bot.delivery.done = dies
    with pytest.raises(RuntimeError):
        await table.publish(outcome)
    bot.delivery.done = done
    ends = [m for m in channel.history() if f"Game #{game_id} is over" in m.content]
    assert len(ends) == 1
    await env.advance_time(RECOVERY_GRACE + 2 * INTERVAL + 130)
    assert [m for m in channel.history() if f"Game #{game_id} is over" in m.content] == ends
    assert len(boards(channel, game_id)) == 1
    assert await nothing_pending(bot)


async def _turn(bot: Any, game_id: int) -> list[Any]:
    """The player to move plays until the turn passes, committed but not published
    (as when publications queue behind a slow Discord); the outcomes, in order."""
    outcomes = []
    record = await bot.service.get(game_id)
    user = record.current_user
    while True:
        move = next((m for m in record.game.legal_moves() if isinstance(m, PlayCard)), None)
        move = move or record.game.legal_moves()[0]
        outcome = await bot.service.apply(game_id, user, move, expected_version=record.version)
        outcomes.append(outcome)
        record = outcome.game
        if outcome.turn_changed or record.game.is_over:
            return outcomes


@pytest.mark.parametrize("order", ["in order", "reversed"])
async def test_publications_that_arrive_out_of_order_leave_one_current_board(simcord_env, simcord_bot, order):
    env, bot = simcord_env, simcord_bot
    _, channel, (alice, bob) = setup_members(env)
    game_id = await challenge_and_accept(env, channel, alice, bob)
    table = bot.get_cog("Schotten").publisher
    outcomes = await _turn(bot, game_id) + await _turn(bot, game_id)
    for outcome in outcomes if order == "in order" else reversed(outcomes):
        await table.publish(outcome)

    latest = await bot.service.get(game_id)
    # One board, of the latest version, mentioning whoever is to move now; both hands current.
    (board,) = boards(channel, game_id)
    hand = next(c for c in flat_components(board) if c.get("custom_id", "").startswith("st:hand:"))
    assert hand["custom_id"] == f"st:hand:{game_id}:{latest.version}"
    assert board.content.startswith(f"<@{latest.current_user}>, your turn.")
    assert latest.board_message_id == board.id
    for member, player in ((alice, latest.players.index(alice.id)), (bob, latest.players.index(bob.id))):
        shown = dm_message(member, game_id)
        assert shown.id == latest.dm_message_ids[player]
        assert all(f":{latest.version}" in c["custom_id"] for c in flat_components(shown) if "custom_id" in c)
    assert await nothing_pending(bot)


def _keeps_turn(game: Any) -> Any:
    """A legal move after which the same player is still to move, if there is one."""
    for move in game.legal_moves():
        after = game.clone()
        after.apply(move)
        while not after.is_over and (forced := after.forced_move()) is not None:
            after.apply(forced)  # as the service does
        if not after.is_over and after.current_player == game.current_player:
            return move
    return None


async def test_a_turn_change_overtaken_by_a_move_of_the_same_turn_still_mentions_the_mover(
    simcord_env, simcord_bot
):
    env, bot = simcord_env, simcord_bot
    _, channel, (alice, bob) = setup_members(env)
    game_id = await challenge_and_accept(env, channel, alice, bob)
    # Turns are played and published until a turn starts with a move that keeps it.
    table = bot.get_cog("Schotten").publisher
    for _ in range(60):
        turn = await _turn(bot, game_id)
        record = turn[-1].game
        if record.game.is_over:
            pytest.skip("no turn kept by its first move in this game")
        keep = _keeps_turn(record.game)
        if keep is not None:
            break
        for outcome in turn:
            await table.publish(outcome)
    else:
        pytest.skip("no turn kept by its first move in this game")
    # The turn change is committed but its publication died; the move that keeps the
    # turn is committed too, and its publication died as well.
    (before,) = boards(channel, game_id)
    later = await bot.service.apply(game_id, record.current_user, keep, expected_version=record.version)
    assert not later.turn_changed and later.outbox_id is not None

    await env.advance_time(LATER)
    latest = await bot.service.get(game_id)
    (board,) = boards(channel, game_id)
    # Posted anew (an edit would notify nobody), mentioning the player to move.
    assert board.id != before.id and board.id == latest.board_message_id
    assert board.content.startswith(f"<@{latest.current_user}>, your turn.")
    assert await nothing_pending(bot)
