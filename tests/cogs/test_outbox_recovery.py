"""A move committed by a process that died before publishing it: the next round of the
timers (in any process) publishes it from the outbox, once."""

from __future__ import annotations

from bot.delivery import RECOVERY_GRACE
from cogs.timers import INTERVAL
from rules.moves import PlayCard
from tests.cogs.helpers import challenge_and_accept, dm_message, setup_members


async def test_a_pending_publication_is_published_once(simcord_env, simcord_bot):
    env, bot = simcord_env, simcord_bot
    _, channel, (alice, bob) = setup_members(env)
    game_id = await challenge_and_accept(env, channel, alice, bob)
    record = await bot.service.get(game_id)
    mover, waiting = (alice, bob) if record.current_user == alice.id else (bob, alice)
    board_before = next(m for m in channel.history() if m.id == record.board_message_id).content
    dm_before = dm_message(waiting, game_id).content

    # Committed, then the process "dies": nothing is published.
    move = next(m for m in record.game.legal_moves() if isinstance(m, PlayCard))
    outcome = await bot.service.apply(game_id, mover.id, move, expected_version=record.version)
    assert outcome.outbox_id is not None
    assert next(m for m in channel.history() if m.id == record.board_message_id).content == board_before

    await env.advance_time(RECOVERY_GRACE + INTERVAL + 1)  # a timer round publishes it
    board_after = next(m for m in channel.history() if m.id == record.board_message_id).content
    assert board_after != board_before
    assert f"<@{waiting.id}>" in "".join(m.content for m in channel.history())  # whose turn
    assert dm_message(waiting, game_id).content != dm_before  # their controls are current
    now = bot.delivery.clock()
    assert await bot.db.pending_outbox(now=now + 10_000, created_before=now + 10_000, max_attempts=99) == []

    count = len(list(channel.history()))
    await env.advance_time(2 * INTERVAL)  # later rounds publish nothing again
    assert len(list(channel.history())) == count
