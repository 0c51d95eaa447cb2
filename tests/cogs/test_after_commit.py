"""After a commit, every answer tells what happened, also when the database stops
answering right after it (``DownAfterCommit``): a move, a resignation, a challenge
accepted, a practice game, a rematch, a tournament joined or left, a language or a style
chosen are reported as made, never as "nothing was changed", and what the commit owes
the table (the outbox) is published by the timers once the database answers again."""

from __future__ import annotations

import re
from typing import Any

import discord

from bot.app import SchottenBot
from bot.games.delivery import RECOVERY_GRACE
from bot.text.catalogue import t
from cogs.timers import INTERVAL
from tests.cogs.dbdown import DownAfterCommit
from tests.cogs.helpers import (
    challenge_and_accept,
    dm_message,
    flat_components,
    hand_in,
    private_text,
    setup_members,
)

LATER = RECOVERY_GRACE + INTERVAL + 1  # a timer round takes what nobody published
NOTHING_CHANGED = "nothing was changed"


def said(result: Any) -> str:
    """Everything the interaction answered, in order."""
    parts = [result.response.content if result.response is not None else ""]
    return "\n".join(parts + [f.content for f in result.followups])


def boards(channel: Any, game_id: int) -> list[Any]:
    return [
        m
        for m in channel.history()
        if any(
            c.get("custom_id", "").split(":")[:3] == ["st", "hand", str(game_id)] for c in flat_components(m)
        )
    ]


async def nothing_pending(bot: SchottenBot) -> bool:
    far = bot.delivery.clock() + 10_000
    return await bot.db.delivery.pending_outbox(now=far, created_before=far, max_attempts=99) == []


async def heal_and_recover(env: Any, bot: SchottenBot, down: DownAfterCommit) -> None:
    assert down.fired == 1 and down.down  # the database did stop right after the commit
    assert not await _pending_unreadable(bot)
    down.heal()
    await env.advance_time(LATER)
    await env.settle()


async def _pending_unreadable(bot: SchottenBot) -> bool:
    """While down, the outbox cannot even be read (the test's fault is complete)."""
    try:
        await bot.db.delivery.pending_outbox(now=0, created_before=0, max_attempts=1)
    except Exception:
        return False
    return True


async def _turn_of(bot: SchottenBot, members: list[Any], game_id: int) -> tuple[Any, Any]:
    record = await bot.service.get(game_id)
    mover = members[0] if record.current_user == members[0].id else members[1]
    return mover, members[1] if mover is members[0] else members[0]


# ---------------------------------------------------------------- moves


async def _move_then_check(env: Any, bot: SchottenBot, channel: Any, members: list[Any], make: Any) -> None:
    game_id = await challenge_and_accept(env, channel, *members)
    mover, waiting = await _turn_of(bot, members, game_id)
    before = await bot.service.get(game_id)
    (board,) = boards(channel, game_id)
    down = DownAfterCommit(bot.db)
    down.arm("INSERT INTO moves")
    result = await make(mover, game_id)
    text = said(result)
    assert NOTHING_CHANGED not in text, text
    assert t("saved.move", game_id=game_id) in private_text(result), text
    await heal_and_recover(env, bot, down)
    after = await bot.service.reload(game_id)
    assert after.version > before.version  # it was made
    # The outbox published it: a new board mentioning the player to move.
    (new_board,) = boards(channel, game_id)
    assert new_board.id != board.id
    assert new_board.content.startswith(f"<@{waiting.id}>, your turn.")
    assert await nothing_pending(bot)


async def test_a_typed_move(simcord_env, simcord_bot):
    _, channel, members = setup_members(simcord_env)

    async def play(mover: Any, game_id: int) -> Any:
        card = hand_in(dm_message(mover, game_id).content)[0]
        return await mover.slash(channel, "schotten play", card=card, stone=4)

    await _move_then_check(simcord_env, simcord_bot, channel, members, play)


async def _play_on(clicker: Any, message_of: Any) -> Any:
    """Choose a card and a stone on a hand message, then press Play (the last click's
    result: the move)."""
    message = message_of()
    card_select = next(c for c in flat_components(message) if c["custom_id"].startswith("st:card:"))
    await clicker.select(message, [card_select["options"][0]["value"]], custom_id=card_select["custom_id"])
    message = message_of()
    stone_select = next(c for c in flat_components(message) if c["custom_id"].startswith("st:stone:"))
    await clicker.select(message, [stone_select["options"][0]["value"]], custom_id=stone_select["custom_id"])
    message = message_of()
    play = next(c for c in flat_components(message) if c["custom_id"].startswith("st:play:"))
    return await clicker.click(message, custom_id=play["custom_id"])


async def test_a_move_from_the_dm_controls(simcord_env, simcord_bot):
    _, channel, members = setup_members(simcord_env)

    async def play(mover: Any, game_id: int) -> Any:
        return await _play_on(mover.user, lambda: dm_message(mover, game_id))

    await _move_then_check(simcord_env, simcord_bot, channel, members, play)


async def test_a_move_from_a_private_hand(simcord_env, simcord_bot):
    _, channel, members = setup_members(simcord_env)

    async def play(mover: Any, game_id: int) -> Any:
        (board,) = boards(channel, game_id)
        shown = await mover.click(board, label="Show my hand")
        hand = shown.followups[-1] if shown.followups else shown.response
        assert hand.ephemeral
        return await _play_on(mover, lambda: hand)  # a response shows its message as it is now

    await _move_then_check(simcord_env, simcord_bot, channel, members, play)


async def test_a_resignation(simcord_env, simcord_bot):
    env, bot = simcord_env, simcord_bot
    _, channel, members = setup_members(env)
    game_id = await challenge_and_accept(env, channel, *members)
    down = DownAfterCommit(bot.db)
    down.arm("INSERT INTO moves")
    result = await members[0].slash(channel, "schotten resign", game=game_id)
    assert private_text(result) == t("saved.resign", game_id=game_id)
    await heal_and_recover(env, bot, down)
    assert not (await bot.service.reload(game_id)).is_active
    assert any(f"Game #{game_id} is over" in m.content for m in channel.history())
    assert await nothing_pending(bot)


# ---------------------------------------------------------------- new games


async def test_a_challenge_accepted(simcord_env, simcord_bot):
    env, bot = simcord_env, simcord_bot
    _, channel, (alice, bob) = setup_members(env)
    offer = (await alice.slash(channel, "schotten challenge", opponent=bob)).response
    down = DownAfterCommit(bot.db)
    down.arm("UPDATE challenges SET status")
    result = await bob.click(offer, label="Accept")
    (game,) = await _after_heal(env, bot, down, bob)
    assert t("saved.accepted", game_id=game.id) in private_text(result), said(result)
    (board,) = boards(channel, game.id)
    assert board.content.startswith(f"<@{game.current_user}>, your turn.")
    assert dm_message(alice, game.id) is not None and dm_message(bob, game.id) is not None
    assert await nothing_pending(bot)


async def _after_heal(env: Any, bot: SchottenBot, down: DownAfterCommit, member: Any) -> list[Any]:
    await heal_and_recover(env, bot, down)
    return await bot.service.active_games_for(member.id)


async def test_a_practice_game(simcord_env, simcord_bot):
    env, bot = simcord_env, simcord_bot
    _, channel, (alice,) = setup_members(env, ("alice",))
    down = DownAfterCommit(bot.db)
    down.arm("INSERT INTO games")
    result = await alice.slash(channel, "schotten practice", difficulty="easy")
    (game,) = await _after_heal(env, bot, down, alice)
    assert t("saved.practice", game_id=game.id) in private_text(result), said(result)
    assert NOTHING_CHANGED not in said(result)
    assert len(boards(channel, game.id)) == 1
    assert await nothing_pending(bot)


async def test_a_rematch(simcord_env, simcord_bot):
    env, bot = simcord_env, simcord_bot
    _, channel, (alice, bob) = setup_members(env)
    game_id = await challenge_and_accept(env, channel, alice, bob)
    await bob.slash(channel, "schotten resign", game=game_id)
    end = [m for m in channel.history() if f"Game #{game_id} is over" in m.content][-1]
    down = DownAfterCommit(bot.db)
    down.arm("INSERT INTO challenges")
    result = await bob.click(end, label="Rematch")
    assert NOTHING_CHANGED not in said(result), said(result)
    offer = channel.last_message
    assert f"wants a rematch of game #{game_id}" in offer.content  # posted, and it works
    down.heal()
    accepted = await alice.click(offer, label="Accept")
    assert "has started" in accepted.response.content


# ---------------------------------------------------------------- tournaments


def _tournament_table(env: Any) -> tuple[Any, Any, list[Any]]:
    guild = env.create_guild()
    channel = guild.create_text_channel("tournaments")
    events = guild.create_role("events", permissions=discord.Permissions(manage_events=True))
    organiser = guild.add_member(env.create_user("olga"), roles=[events])
    members = [guild.add_member(env.create_user(f"p{i}")) for i in range(1, 3)]
    return channel, organiser, members


async def test_a_tournament_joined_and_left(simcord_env, simcord_bot):
    env, bot = simcord_env, simcord_bot
    channel, organiser, (p1, _) = _tournament_table(env)
    signup = (
        await organiser.slash(channel, "schotten tournament create", name="Cup", format="swiss")
    ).response
    tournament_id = int(re.search(r"#(\d+)", signup.content).group(1))  # type: ignore[union-attr]

    down = DownAfterCommit(bot.db)
    down.arm("INSERT INTO tournament_entrants")
    joined = await p1.click(signup, label="Join")
    assert NOTHING_CHANGED not in said(joined), said(joined)
    assert "You joined Tournament #1 **Cup** (Swiss)." in said(joined)
    down.heal()
    assert [e.user_id for e in await bot.db.tournaments.entrants(tournament_id)] == [p1.id]

    down.arm("DELETE FROM tournament_entrants")
    left = await p1.click(signup, label="Leave")
    assert NOTHING_CHANGED not in said(left), said(left)
    assert "You left Tournament #1 **Cup** (Swiss)." in said(left)
    down.heal()
    assert await bot.db.tournaments.entrants(tournament_id) == []


# ---------------------------------------------------------------- choices


async def test_a_language_and_a_style_chosen(simcord_env, simcord_bot):
    env, bot = simcord_env, simcord_bot
    _, channel, (alice,) = setup_members(env, ("alice",))
    down = DownAfterCommit(bot.db)
    down.arm("SET chosen")
    chosen = await alice.slash(channel, "schotten language", language="de")
    assert NOTHING_CHANGED not in said(chosen), said(chosen)
    down.heal()
    assert await bot.languages.chosen("user", alice.id) == "de"
    down.arm("INSERT INTO board_styles")
    styled = await alice.slash(channel, "schotten style", board="picture")
    assert "nichts" not in said(styled).lower() and NOTHING_CHANGED not in said(styled), said(styled)
    down.heal()
    assert await bot.db.players.board_style("user", alice.id) == "picture"


async def test_a_tournament_started_then_left_with_a_game_running(simcord_env, simcord_bot):
    env, bot = simcord_env, simcord_bot
    channel, organiser, (p1, p2) = _tournament_table(env)
    created = await organiser.slash(channel, "schotten tournament create", name="Cup", format="knockout")
    signup = created.response
    for member in (p1, p2):
        await member.click(signup, label="Join")
    # Started: round 1 and its game committed, then the database stops; the game's
    # board is published from the outbox once it answers again.
    down = DownAfterCommit(bot.db)
    down.arm("UPDATE tournaments SET round")
    started = await organiser.slash(channel, "schotten tournament start")
    assert NOTHING_CHANGED not in said(started), said(started)
    assert "Tournament #1 **Cup** (knockout) has started." in said(started)
    (game,) = await _after_heal(env, bot, down, p1)
    assert len(boards(channel, game.id)) == 1
    assert dm_message(p1, game.id) is not None and dm_message(p2, game.id) is not None
    assert await nothing_pending(bot)
    # Left: the withdrawal committed, then the database stops before the game is
    # resigned: the member is told so, not that nothing changed.
    down.arm("UPDATE tournament_entrants SET status")
    left = await p1.slash(channel, "schotten tournament leave")
    text = private_text(left)
    assert (
        "You left Tournament #1 **Cup** (knockout)." in text and f"#{game.id} could not be resigned" in text
    ), text
    down.heal()
    assert (await bot.service.reload(game.id)).is_active  # as told: not resigned
