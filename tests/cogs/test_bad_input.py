"""Bad input gets a clear, friendly, ephemeral error and changes nothing."""

from __future__ import annotations

import random
from typing import Any

import pytest

from tests.cogs.helpers import (
    challenge_and_accept,
    dm_message,
    flat_components,
    hand_in,
    setup_members,
    slash_turn,
)


@pytest.fixture
def fixed_seed(monkeypatch):
    # The service deals from a random seed; fix it so that the positions below repeat.
    monkeypatch.setattr("bot.games.service.secrets.randbits", lambda bits: 20260101)


async def start(env: Any) -> tuple[Any, Any, Any, Any, int]:
    guild, channel, (alice, bob, _carol) = setup_members(env, ("alice", "bob", "carol"))
    game_id = await challenge_and_accept(env, channel, alice, bob)
    return guild, channel, alice, bob, game_id


def members_by_turn(bot: Any, record: Any, members: tuple[Any, ...]) -> tuple[Any, Any]:
    by_id = {m.id: m for m in members}
    mover = by_id[record.current_user]
    other = by_id[record.players[1 - record.current_player]]
    return mover, other


def assert_refused(result: Any, text: str) -> None:
    """Refused privately: in the ephemeral reply, or (a click that edits its own message
    acknowledges first) in an ephemeral follow-up."""
    private = [result.response] if result.ephemeral and result.response is not None else []
    private += [f for f in result.followups if f.ephemeral]
    shown = "".join(m.content for m in private)
    assert text in shown, "errors are private: " + shown


async def snapshot(bot: Any, channel: Any, game_id: int) -> tuple[int, int]:
    record = await bot.service.get(game_id)
    return record.version, len(channel.history())


async def hand_of(member: Any, channel: Any) -> list[str]:
    shown = await member.slash(channel, "schotten hand")
    assert shown.ephemeral
    return hand_in(shown.response.content)


async def end_turn_if_asked(member: Any, channel: Any) -> None:
    """After a play that leaves a claim open, the turn ends with the End turn button."""
    shown = await member.slash(channel, "schotten hand")
    if any(c.get("custom_id", "").startswith("st:draw:") for c in flat_components(shown.response)):
        await member.slash(channel, "schotten pass")


async def test_wrong_turn(simcord_env, simcord_bot):
    env, bot = simcord_env, simcord_bot
    _, channel, alice, bob, game_id = await start(env)
    record = await bot.service.get(game_id)
    _mover, waiting = members_by_turn(bot, record, (alice, bob))
    card = (await hand_of(waiting, channel))[0]
    before = await snapshot(bot, channel, game_id)
    result = await waiting.slash(channel, "schotten play", card=card, stone=1)
    assert_refused(result, "It is not your turn.")
    assert await snapshot(bot, channel, game_id) == before


async def test_unknown_card_and_card_not_in_hand(simcord_env, simcord_bot):
    env, bot = simcord_env, simcord_bot
    _, channel, alice, bob, game_id = await start(env)
    mover, _ = members_by_turn(bot, await bot.service.get(game_id), (alice, bob))
    before = await snapshot(bot, channel, game_id)
    assert_refused(await mover.slash(channel, "schotten play", card="Z9", stone=1), 'I don\'t know "Z9"')
    hand = await hand_of(mover, channel)
    missing = next(f"{c}{v}" for c in "ROYGBP" for v in range(1, 10) if f"{c}{v}" not in hand)
    assert_refused(
        await mover.slash(channel, "schotten play", card=missing, stone=1),
        f"You don't have {missing} in your hand.",
    )
    assert await snapshot(bot, channel, game_id) == before


async def test_full_stone_incomplete_and_unprovable_claims(simcord_env, simcord_bot, fixed_seed):
    env, bot = simcord_env, simcord_bot
    _, channel, alice, bob, game_id = await start(env)
    record = await bot.service.get(game_id)
    first, second = members_by_turn(bot, record, (alice, bob))
    # `first` fills stone 1 with three cards; `second` plays on stones 5, 6 and 7.
    for turn in range(3):
        hand = await hand_of(first, channel)
        await first.slash(channel, "schotten play", card=sorted(hand, key=lambda c: int(c[1:]))[0], stone=1)
        await end_turn_if_asked(first, channel)
        if turn == 0:
            before = await snapshot(bot, channel, game_id)
            result = await second.slash(channel, "schotten claim", stone=5)
            assert_refused(result, "Your side of stone 5 is not complete yet.")
            assert await snapshot(bot, channel, game_id) == before
        hand = await hand_of(second, channel)
        await second.slash(channel, "schotten play", card=hand[0], stone=5 + turn)
        await end_turn_if_asked(second, channel)
    before = await snapshot(bot, channel, game_id)
    hand = await hand_of(first, channel)
    result = await first.slash(channel, "schotten play", card=hand[0], stone=1)
    assert_refused(result, "Your side of stone 1 is full.")
    result = await first.slash(channel, "schotten claim", stone=1)
    assert_refused(result, "You can't claim stone 1 yet: your opponent could still beat it with")
    assert await snapshot(bot, channel, game_id) == before


async def test_not_a_player(simcord_env, simcord_bot):
    env, bot = simcord_env, simcord_bot
    guild, channel, _alice, _bob, game_id = await start(env)
    carol = guild.add_member(env.create_user("dave"))  # not in the game
    before = await snapshot(bot, channel, game_id)
    assert_refused(
        await carol.slash(channel, "schotten play", card="R1", stone=1, game=game_id),
        "You are not a player in that game.",
    )
    assert_refused(
        await carol.slash(channel, "schotten play", card="R1", stone=1), "You have no active game here."
    )
    board = next(m for m in channel.history() if "Show my hand" in str([r.to_dict() for r in m.components]))
    result = await carol.click(board, label="Show my hand")
    assert_refused(result, "You are not a player in that game.")
    assert await snapshot(bot, channel, game_id) == before


async def test_stale_control_is_refused(simcord_env, simcord_bot):
    env, bot = simcord_env, simcord_bot
    _, channel, alice, bob, game_id = await start(env)
    mover, _waiting = members_by_turn(bot, await bot.service.get(game_id), (alice, bob))
    # The mover opens their hand from the board (ephemeral), then plays from the DM.
    board = next(m for m in channel.history() if "Show my hand" in str([r.to_dict() for r in m.components]))
    old = await mover.click(board, label="Show my hand")
    assert old.ephemeral
    dm = dm_message(mover)
    card_select = next(c for c in flat_components(dm) if c["custom_id"].startswith("st:card:"))
    card = card_select["options"][0]["value"]
    await mover.user.select(dm, [card], custom_id=card_select["custom_id"])
    dm = dm_message(mover)
    stone_select = next(c for c in flat_components(dm) if c["custom_id"].startswith("st:stone:"))
    await mover.user.select(dm, ["2"], custom_id=stone_select["custom_id"])
    play = next(c for c in flat_components(dm_message(mover)) if c["custom_id"].startswith("st:play:"))
    await mover.user.click(dm_message(mover), custom_id=play["custom_id"])
    before = await snapshot(bot, channel, game_id)
    # The ephemeral controls are from an earlier turn now.
    old_select = next(c for c in flat_components(old.response) if c["custom_id"].startswith("st:card:"))
    result = await mover.select(
        old.response, [old_select["options"][0]["value"]], custom_id=old_select["custom_id"]
    )
    assert_refused(result, "Those controls are from an earlier turn")
    assert await snapshot(bot, channel, game_id) == before


async def test_finished_game_refuses_and_disables_controls(simcord_env, simcord_bot):
    env, bot = simcord_env, simcord_bot
    _, channel, alice, bob, game_id = await start(env)
    result = await alice.slash(channel, "schotten resign")
    assert result.ephemeral
    assert "alice resigned; bob wins." in channel.last_message.content
    before = await snapshot(bot, channel, game_id)
    assert_refused(
        await bob.slash(channel, "schotten play", card="R1", stone=1, game=game_id), "That game is over."
    )
    assert_refused(await bob.slash(channel, "schotten claim", stone=1, game=game_id), "That game is over.")
    assert_refused(
        await bob.slash(channel, "schotten play", card="R1", stone=1), "You have no active game here."
    )
    for member in (alice, bob):
        assert all(c.get("disabled") for c in flat_components(dm_message(member)))
    boards = [m for m in channel.history() if "Show my hand" in str([r.to_dict() for r in m.components])]
    assert boards and all(all(c.get("disabled") for c in flat_components(m)) for m in boards)
    assert await snapshot(bot, channel, game_id) == before


async def test_challenge_refusals(simcord_env, simcord_bot):
    env, _bot = simcord_env, simcord_bot
    guild, channel, (alice, bob) = setup_members(env)
    robot = guild.add_member(env.create_user("robot", bot=True))
    assert_refused(
        await alice.slash(channel, "schotten challenge", opponent=alice), "You can't challenge yourself."
    )
    assert_refused(
        await alice.slash(channel, "schotten challenge", opponent=robot), "You can't challenge a bot."
    )
    challenge = await alice.slash(channel, "schotten challenge", opponent=bob)
    assert f"<@{bob.id}>" in challenge.response.content
    assert_refused(
        await alice.slash(channel, "schotten challenge", opponent=bob), "You already challenged bob here"
    )
    # Only the challenged member can answer.
    assert_refused(await alice.click(challenge.response, label="Accept"), "This challenge is for")
    await bob.click(challenge.response, label="Accept")
    assert_refused(
        await alice.slash(channel, "schotten challenge", opponent=bob), "You already have a game with bob"
    )
    assert_refused(
        await bob.slash(channel, "schotten challenge", opponent=alice), "You already have a game with alice"
    )


async def test_decline_and_expiry(simcord_env, simcord_bot):
    env, bot = simcord_env, simcord_bot
    _, channel, (alice, bob) = setup_members(env)
    declined = await alice.slash(channel, "schotten challenge", opponent=bob)
    await bob.click(declined.response, label="Decline")
    assert "declined" in declined.response.content
    assert all(c.get("disabled") for c in flat_components(declined.response))
    # The same member again only after RECHALLENGE_COOLDOWN (tests/cogs/test_fair_share.py).
    await env.advance_time(bot.settings.rechallenge_cooldown)
    waiting = await alice.slash(channel, "schotten challenge", opponent=bob)
    await env.advance_time(bot.settings.challenge_timeout + 30)
    assert "has expired" in waiting.response.content
    assert all(c.get("disabled") for c in flat_components(waiting.response))
    assert await bot.service.active_games_for(alice.id) == []


async def test_a_typed_last_move_leaves_no_dm_offering_moves(simcord_env, simcord_bot):
    env, bot = simcord_env, simcord_bot
    _, channel, alice, bob, game_id = await start(env)
    rng = random.Random(11)
    by_id = {alice.id: alice, bob.id: bob}
    for _ in range(400):
        record = await bot.service.get(game_id)
        if record.game.is_over:
            break
        await slash_turn(by_id[record.current_user], channel, rng)
    record = await bot.service.get(game_id)
    assert record.game.is_over
    # The last move was typed; neither DM says it is anyone's turn or offers a move.
    for member in (alice, bob):
        dm = dm_message(member, game_id)
        assert "It is your turn." not in dm.content and "The game is over" in dm.content, dm.content
        assert all(c.get("disabled") for c in flat_components(dm))
