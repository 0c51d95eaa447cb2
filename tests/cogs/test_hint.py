"""``/schotten hint`` and the Hint button of the DM controls: the hard AI's suggestion,
privately, in games against the AI only.

The AI runs in a one-thread executor, as in ``test_practice.py``.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest
import pytest_asyncio

from bot.app import SchottenBot, create_bot
from bot.games import opponent as opponent_module
from bot.games.opponent import ai_seed
from bot.text.notation import move_text
from rules.ai import hint
from rules.game import GameOptions
from tests.cogs.helpers import cards_in, challenge_and_accept, dm_message, flat_components, setup_members
from tests.cogs.test_bad_input import assert_refused
from tests.cogs.test_full_game import public_text
from tests.cogs.test_practice import game_id_in, reply

BUDGET = 200  # playouts: enough for a real search, quick in a test


@pytest.fixture
def pool() -> Iterator[ThreadPoolExecutor]:
    executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="test-ai")
    yield executor
    executor.shutdown(wait=True, cancel_futures=True)


@pytest_asyncio.fixture
async def simcord_bot(pool: ThreadPoolExecutor) -> AsyncIterator[SchottenBot]:
    bot = create_bot(database=":memory:", ai_executor=pool)
    bot.opponent.budget = BUDGET
    yield bot
    await bot.opponent.close()
    await bot.db.close()


@pytest.fixture
def searches(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Counts the hint searches the workers run."""
    calls: list[int] = []
    real = opponent_module.suggest

    def counted(*args: Any) -> Any:
        calls.append(1)
        return real(*args)

    monkeypatch.setattr(opponent_module, "suggest", counted)
    return calls


async def practice(env: Any, bot: SchottenBot) -> tuple[Any, Any, int]:
    _, channel, (alice,) = setup_members(env, ("alice",))
    started = await alice.slash(channel, "schotten practice", difficulty="easy")
    game_id = game_id_in(reply(started))
    assert (await bot.service.get(game_id)).current_user == alice.id
    return alice, channel, game_id


async def test_a_hint_is_the_hard_ais_move_with_a_reason_shown_only_to_the_player(
    simcord_env, simcord_bot, searches
):
    env, bot = simcord_env, simcord_bot
    alice, channel, game_id = await practice(env, bot)
    before = len(channel.history())
    record = await bot.service.get(game_id)
    expected = hint(record.game.view(0), seed=ai_seed(record), budget=BUDGET)

    result = await alice.slash(channel, "schotten hint")
    assert result.ephemeral
    text = reply(result)
    assert text.startswith(f"Hint: {move_text(expected.move)} - ")
    assert len(text.splitlines()) == 1  # one line, as promised
    assert len(channel.history()) == before  # nothing public
    assert searches == [1]

    # The same position again: the remembered answer, no second search.
    again = await alice.slash(channel, "schotten hint")
    assert reply(again) == text and searches == [1]

    # The suggested move is legal: playing it as typed moves the game on.
    played = await alice.slash(channel, "schotten move", text=move_text(expected.move))
    assert played.ephemeral
    assert (await bot.service.get(game_id)).version > record.version
    secret = {str(c) for p in (0, 1) for c in (await bot.service.get(game_id)).game.hand(p)}
    assert not secret & cards_in(public_text(channel))


async def test_a_hint_follows_the_players_language(simcord_env, simcord_bot):
    env, bot = simcord_env, simcord_bot
    alice, channel, _ = await practice(env, bot)
    await alice.slash(channel, "schotten language", language="de")
    result = await alice.slash(channel, "schotten hint")
    assert result.ephemeral and reply(result).startswith("Tipp: ")


async def test_no_hint_in_a_game_between_people(simcord_env, simcord_bot, searches):
    env, bot = simcord_env, simcord_bot
    _, channel, (alice, bob) = setup_members(env, ("alice", "bob"))
    game_id = await challenge_and_accept(env, channel, alice, bob)
    record = await bot.service.get(game_id)
    mover = alice if record.current_user == alice.id else bob
    result = await mover.slash(channel, "schotten hint")
    assert_refused(result, "Hints are only for games against me")
    assert (await bot.service.get(game_id)).version == record.version
    assert searches == []


async def test_no_hint_while_the_ai_is_to_move_nor_for_others_nor_after_the_end(
    simcord_env, simcord_bot, searches
):
    env, bot = simcord_env, simcord_bot
    guild, channel, (alice, carol) = setup_members(env, ("alice", "carol"))
    # A game against the AI where the AI moves first, made directly (and never
    # published), so the AI's turn stays open while alice asks.
    record = await bot.service.create_game(
        guild_id=guild.id,
        channel_id=channel.id,
        players=(alice.id, env.backend.bot_user.id),
        options=GameOptions(),
        first_player=1,
        ai_player=1,
        ai_level="easy",
    )
    assert record.ai_to_move
    assert_refused(await alice.slash(channel, "schotten hint", game=record.id), "It is not your turn.")
    assert_refused(await carol.slash(channel, "schotten hint", game=record.id), "not a player")
    await alice.slash(channel, "schotten resign", game=record.id)
    assert_refused(await alice.slash(channel, "schotten hint", game=record.id), "That game is over.")
    assert searches == []
    assert (await bot.service.get(record.id)).game.is_over


def hint_buttons(message: Any) -> list[dict[str, Any]]:
    return [c for c in flat_components(message) if c.get("custom_id", "").startswith("st:hint:")]


async def test_the_hint_button_in_the_dm_answers_privately_and_goes_stale_after_the_move(
    simcord_env, simcord_bot, searches
):
    env, bot = simcord_env, simcord_bot
    alice, channel, game_id = await practice(env, bot)
    record = await bot.service.get(game_id)
    expected = hint(record.game.view(0), seed=ai_seed(record), budget=BUDGET)
    dm = dm_message(alice, game_id)
    (button,) = hint_buttons(dm)
    assert button["label"] == "Hint"
    before = (len(channel.history()), len(alice.user.dm_channel.history()), dm.content)

    result = await alice.user.click(dm, custom_id=button["custom_id"])
    assert result.ephemeral
    assert reply(result).startswith(f"Hint: {move_text(expected.move)} - ")
    assert searches == [1]
    # Nothing else moved: the game, the channel, the DM and its controls.
    assert (await bot.service.get(game_id)).version == record.version
    assert before == (
        len(channel.history()),
        len(alice.user.dm_channel.history()),
        dm_message(alice, game_id).content,
    )

    # The same button in "/schotten hand"'s private reply; after the move that old
    # reply's button is refused, and the DM's new controls carry a button of the new turn.
    shown = await alice.slash(channel, "schotten hand")
    (old,) = hint_buttons(shown.response)
    await alice.slash(channel, "schotten move", text=move_text(expected.move))
    assert_refused(await alice.click(shown.response, custom_id=old["custom_id"]), "from an earlier turn")
    assert searches == [1]
    version = (await bot.service.get(game_id)).version
    assert [b["custom_id"] for b in hint_buttons(dm_message(alice, game_id))] == [
        f"st:hint:{game_id}:{version}"
    ]


async def test_no_hint_button_in_a_game_between_people(simcord_env, simcord_bot):
    env, bot = simcord_env, simcord_bot
    _, channel, (alice, bob) = setup_members(env, ("alice", "bob"))
    game_id = await challenge_and_accept(env, channel, alice, bob)
    record = await bot.service.get(game_id)
    mover = alice if record.current_user == alice.id else bob
    dm = dm_message(mover, game_id)
    assert any(c["custom_id"].startswith("st:card:") for c in flat_components(dm))  # the controls are there
    assert hint_buttons(dm) == []
