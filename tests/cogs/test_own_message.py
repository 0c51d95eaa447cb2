"""A control acts only on the game, challenge or tournament of the message it is on.

A modified client can send any custom id from any message it can see: the id of a Play
button of game 2 from the mover's DM of game 1, an Accept from a game's DM, a Join from
a private hand. Each is refused privately and changes nothing, in a DM, in a channel
and on a private reply (ephemeral), where the bot binds the controls to the message by
its id in the database, so that the binding holds after a restart."""

from __future__ import annotations

from typing import Any

import discord
import simcord

from bot.app import SchottenBot, create_bot
from bot.text.catalogue import t
from cogs.table.lobby import ChallengeButton
from cogs.table.requests import PlayButton
from cogs.tournaments import SignupButton
from rules.moves import PlayCard
from tests.cogs.helpers import (
    challenge_and_accept,
    dm_message,
    flat_components,
    private_text,
    setup_members,
)

NOT_MINE = t("error.bad_control")


def place(env: Any, message: Any, *items: discord.ui.Item[Any], keep: bool = True) -> None:
    """Put ``items`` on ``message`` (beside its own controls, or ``keep=False`` instead
    of them): what a modified client can make a click carry. The message stays the
    one it is, its id and channel unchanged."""
    channel_id = message.channel.id if isinstance(message, discord.Message) else message.channel_id
    stored = env.backend.get_message(channel_id, message.id)
    view = discord.ui.View(timeout=None)
    for item in items:
        view.add_item(item)
    stored.components = (list(stored.components) if keep else []) + view.to_components()


def board_of(channel: Any, game_id: int) -> Any:
    return next(
        m
        for m in reversed(list(channel.history()))
        if any(c.get("custom_id", "").startswith(f"st:hand:{game_id}:") for c in flat_components(m))
    )


async def two_games(env: Any, bot: SchottenBot) -> tuple[Any, Any, int, int, PlayButton]:
    """Game 2 and game 1 of the same member, ``mover``, who is to move in game 2;
    returns the channel, the mover, both game ids and a Play button of a legal move in
    game 2."""
    _, channel, (alice, bob, carol) = setup_members(env, ("alice", "bob", "carol"))
    second = await challenge_and_accept(env, channel, alice, carol)
    record = await bot.service.get(second)
    mover = alice if record.current_user == alice.id else carol
    first = await challenge_and_accept(env, channel, mover, bob)
    one = await bot.service.get(first)
    if one.current_user != mover.id:  # bob moves first: the mover is then to move in both
        move = next(m for m in one.game.legal_moves() if isinstance(m, PlayCard))
        outcome = await bot.service.apply(first, bob.id, move, expected_version=one.version)
        await bot.get_cog("Schotten").publisher.publish(outcome)  # type: ignore[union-attr]
    play = next(m for m in record.game.legal_moves() if isinstance(m, PlayCard))
    return channel, mover, first, second, PlayButton(second, record.version, str(play.card), play.stone)


async def test_a_control_of_another_game_on_a_dm_is_refused(simcord_env, simcord_bot):
    env, bot = simcord_env, simcord_bot
    _, mover, first, second, play = await two_games(env, bot)
    before = (await bot.service.reload(second)).version
    dm = dm_message(mover, first)
    for keep in (True, False):  # beside game 1's controls, or alone on the message
        place(env, dm, PlayButton(play.game_id, play.version, play.card, play.stone), keep=keep)
        result = await mover.user.click(dm, custom_id=play.custom_id)
        assert NOT_MINE in private_text(result)
        assert (await bot.service.reload(second)).version == before
    assert dm_message(mover, first).content == dm.content  # the DM of game 1 as it was


async def test_a_control_of_another_game_on_a_private_hand_is_refused(simcord_env, simcord_bot):
    env, bot = simcord_env, simcord_bot
    channel, mover, first, second, play = await two_games(env, bot)
    before = (await bot.service.reload(second)).version
    shown = await mover.click(board_of(channel, first), label="Show my hand")
    hand = shown.followups[-1] if shown.followups else shown.response
    assert hand is not None and hand.ephemeral and f"Game #{first}" in hand.content
    own = list(hand.components)
    place(env, hand, PlayButton(play.game_id, play.version, play.card, play.stone), keep=False)
    result = await mover.click(hand, custom_id=play.custom_id)
    assert NOT_MINE in private_text(result)
    assert (await bot.service.reload(second)).version == before
    # Its own controls still work: they are game 1's.
    env.backend.get_message(hand.channel_id, hand.id).components = own
    card = next(c for c in flat_components(hand) if c["custom_id"].startswith("st:card:"))
    chosen = await mover.select(hand, [card["options"][0]["value"]], custom_id=card["custom_id"])
    assert NOT_MINE not in private_text(chosen)
    assert any(c["custom_id"].startswith(f"st:stone:{first}:") for c in flat_components(hand))


async def test_an_accept_from_a_game_dm_is_refused(simcord_env, simcord_bot):
    env, bot = simcord_env, simcord_bot
    _, channel, (alice, bob, carol) = setup_members(env, ("alice", "bob", "carol"))
    game_id = await challenge_and_accept(env, channel, alice, bob)
    offer = (await carol.slash(channel, "schotten challenge", opponent=bob)).response
    (pending,) = await bot.db.challenges.pending_challenges()
    accept = ChallengeButton(pending.id, True)
    dm = dm_message(bob, game_id)
    for keep in (True, False):
        place(env, dm, ChallengeButton(pending.id, True), keep=keep)
        result = await bob.user.click(dm, custom_id=accept.custom_id)
        assert NOT_MINE in private_text(result)
        assert [c.id for c in await bot.db.challenges.pending_challenges()] == [pending.id]
        assert [g.id for g in await bot.service.active_games_for(bob.id)] == [game_id]
    # On its own message it works.
    accepted = await bob.click(offer, label="Accept")
    assert "has started" in accepted.response.content


async def test_a_tournament_join_from_another_message_is_refused(simcord_env, simcord_bot):
    env, bot = simcord_env, simcord_bot
    guild, channel, (alice, bob) = setup_members(env)
    events = guild.create_role("events", permissions=discord.Permissions(manage_events=True))
    olga = guild.add_member(env.create_user("olga"), roles=[events])
    signup = (await olga.slash(channel, "schotten tournament create", name="Cup", format="swiss")).response
    tournament_id = int(signup.content.split("#", 1)[1].split(" ", 1)[0])
    join = SignupButton(tournament_id, True)
    game_id = await challenge_and_accept(env, channel, alice, bob)
    for message, actor in ((dm_message(alice, game_id), alice.user), (board_of(channel, game_id), alice)):
        place(env, message, SignupButton(tournament_id, True), keep=False)
        result = await actor.click(message, custom_id=join.custom_id)
        assert NOT_MINE in private_text(result)
    assert await bot.db.tournaments.entrants(tournament_id) == []
    joined = await alice.click(signup, label="Join")
    assert "You joined Tournament #1 **Cup** (Swiss)." in private_text(joined)


async def test_a_private_hand_works_after_a_restart(tmp_path):
    database = str(tmp_path / "bound.sqlite")
    first = create_bot(database=database)
    async with simcord.run(first) as env:
        _, channel, (alice, bob) = setup_members(env)
        game_id = await challenge_and_accept(env, channel, alice, bob)
        record = await first.service.get(game_id)
        mover = alice if record.current_user == alice.id else bob
        hand = (await mover.click(board_of(channel, game_id), label="Show my hand")).response
        second = create_bot(database=database)
        await env.restart_bot(second)
        await first.close()
        card = next(c for c in flat_components(hand) if c["custom_id"].startswith("st:card:"))
        chosen = await mover.select(hand, [card["options"][0]["value"]], custom_id=card["custom_id"])
        assert private_text(chosen) == ""  # no refusal: the controls are redrawn
        assert any(c["custom_id"].startswith(f"st:stone:{game_id}:") for c in flat_components(hand))
        await second.close()


async def test_a_board_picture_reply_and_the_end_of_a_game(simcord_env, simcord_bot):
    env, bot = simcord_env, simcord_bot
    _, channel, (alice, bob) = setup_members(env)
    game_id = await challenge_and_accept(env, channel, alice, bob)
    # The board as a picture, privately: its Show-as-text button is bound to it.
    await alice.slash(channel, "schotten style", board="picture")
    shown = (await alice.slash(channel, "schotten board")).response
    assert shown.ephemeral and len(shown.attachments) == 1
    text_id = next(c["custom_id"] for c in flat_components(shown) if c["custom_id"].startswith("st:txt:"))
    as_text = await alice.click(shown, custom_id=text_id)
    assert "```" in private_text(as_text)
    # A number no database holds is bad input, refused before any read.
    dm = dm_message(alice, game_id)
    huge = PlayButton(2**63, 1, "R1", 1)
    place(env, dm, huge, keep=False)
    assert NOT_MINE in private_text(await alice.user.click(dm, custom_id=huge.custom_id))
    # Once the game is over, its private replies are forgotten.
    assert await bot.db.delivery.private_message(shown.id) == (game_id, alice.id)
    await bob.slash(channel, "schotten resign", game=game_id)
    assert await bot.db.delivery.private_message(shown.id) is None
