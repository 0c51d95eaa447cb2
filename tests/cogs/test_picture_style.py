"""Boards and hands as pictures, through simcord: the style a member and a server choose,
the channel board and a member's DM as pictures with the text one click away, a replay
step as a picture, and every picture drawn from the public view (a hand picture only for
its owner, with exactly their hand)."""

from __future__ import annotations

import io
import random
from typing import Any

import discord
import pytest
from PIL import Image

import bot.pictures.cache as cache_module
from bot.text.catalogue import t
from cogs.table.messages import board_text
from rules.view import PublicView
from tests.cogs.helpers import challenge_and_accept, dm_message, dm_turn, flat_components, hand_in

MAX_BYTES = 60_000
MAX_WIDTH = 800


def setup_server(env: Any) -> tuple[Any, Any, Any, Any, Any]:
    """A server with an admin (Manage Server) and two players."""
    guild = env.create_guild()
    channel = guild.create_text_channel("general")
    admins = guild.create_role("admins", permissions=discord.Permissions(manage_guild=True))
    owner = guild.add_member(env.create_user("olga"), roles=[admins])
    alice = guild.add_member(env.create_user("alice"))
    bob = guild.add_member(env.create_user("bob"))
    return guild, channel, owner, alice, bob


async def png_of(attachment: discord.Attachment) -> Image.Image:
    data = await attachment.read()
    assert data.startswith(b"\x89PNG\r\n\x1a\n")
    assert len(data) == attachment.size <= MAX_BYTES, attachment.size
    image = Image.open(io.BytesIO(data))
    assert image.format == "PNG" and image.width <= MAX_WIDTH, image.size
    return image


def board_of(channel: Any, game_id: int) -> discord.Message:
    boards = [
        m
        for m in channel.history()
        if any(c.get("custom_id", "").startswith(f"st:hand:{game_id}:") for c in flat_components(m))
    ]
    assert boards, "no board in the channel"
    return boards[-1]


def button(message: Any, prefix: str) -> dict[str, Any]:
    return next(c for c in flat_components(message) if c.get("custom_id", "").startswith(prefix))


@pytest.fixture
def drawn(monkeypatch: pytest.MonkeyPatch) -> dict[str, list[Any]]:
    """Every picture the bot renders, by kind, with what it was drawn from."""
    calls: dict[str, list[Any]] = {"board": [], "hand": [], "seat": []}
    board_png, hand_png, seat_png = cache_module.board_png, cache_module.hand_png, cache_module.seat_png

    def board(public: Any, *args: Any, **kwargs: Any) -> bytes:
        calls["board"].append(type(public))
        return board_png(public, *args, **kwargs)

    def hand(cards: Any, *args: Any, **kwargs: Any) -> bytes:
        calls["hand"].append(tuple(cards))
        return hand_png(cards, *args, **kwargs)

    def seat(public: Any, names: Any, cards: Any, **kwargs: Any) -> bytes:
        calls["seat"].append((type(public), tuple(cards)))
        return seat_png(public, names, cards, **kwargs)

    monkeypatch.setattr(cache_module, "board_png", board)
    monkeypatch.setattr(cache_module, "hand_png", hand)
    monkeypatch.setattr(cache_module, "seat_png", seat)
    return calls


async def test_style_per_member_and_per_server(simcord_env: Any, simcord_bot: Any) -> None:
    env, bot = simcord_env, simcord_bot
    guild, channel, owner, alice, _bob = setup_server(env)
    assert await bot.styles.for_user(alice.id) == "text"  # the default
    assert await bot.styles.for_guild(guild.id) == "text"
    mine = await alice.slash(channel, "schotten style", board="picture")
    assert mine.ephemeral and mine.response.content == t("style.set_me.picture")
    assert await bot.styles.for_user(alice.id) == "picture"
    assert await bot.db.players.board_style("user", alice.id) == "picture"
    refused = await alice.slash(channel, "schotten style", board="picture", server=True)
    assert refused.ephemeral and t("error.style_manage_server") in refused.response.content
    assert await bot.styles.for_guild(guild.id) == "text"
    server = await owner.slash(channel, "schotten style", board="picture", server=True)
    assert server.ephemeral and server.response.content == t("style.set_server.picture")
    assert await bot.db.players.board_style("guild", guild.id) == "picture"
    assert await bot.styles.for_user(owner.id) == "text"  # the server's style is not hers
    back = await alice.slash(channel, "schotten style", board="text")
    assert back.response.content == t("style.set_me.text")
    assert await bot.styles.for_user(alice.id) == "text"


async def test_channel_board_and_dm_as_pictures_from_public_views(
    simcord_env: Any, simcord_bot: Any, drawn: dict[str, list[Any]]
) -> None:
    env, bot = simcord_env, simcord_bot
    _guild, channel, owner, alice, bob = setup_server(env)
    await owner.slash(channel, "schotten style", board="picture", server=True)
    await alice.slash(channel, "schotten style", board="picture")  # bob keeps text
    game_id = await challenge_and_accept(env, channel, alice, bob)
    record = await bot.service.get(game_id)
    alice_seat = record.player_of(alice.id)

    # The channel board: the picture, no text board, the text a click away.
    board = board_of(channel, game_id)
    assert "```" not in board.content
    (attachment,) = board.attachments
    assert attachment.filename == f"board-{game_id}-{record.version}.png"
    await png_of(attachment)
    shown = await bob.click(board, custom_id=button(board, f"st:txt:{game_id}:")["custom_id"])
    names = await bot.names.pair(record.players, record.guild_id)
    assert shown.ephemeral
    assert shown.response.content == board_text(record, record.game.view(0), names, None)

    # Alice's DM: her board and hand as one picture over the controls; bob's: text.
    mine = dm_message(alice, game_id)
    (picture,) = mine.attachments
    image = await png_of(picture)
    assert image.height > 700  # the board and, under it, the hand
    assert "```" not in mine.content and hand_in(mine.content)
    theirs = dm_message(bob, game_id)
    assert theirs.attachments == [] and "```" in theirs.content
    text = await alice.user.click(mine, custom_id=button(mine, f"st:txt:{game_id}:")["custom_id"])
    assert text.ephemeral and "```" in text.response.content
    assert hand_in(text.response.content) == hand_in(mine.content)

    # The ephemeral hand likewise, in each one's style.
    hers = await alice.slash(channel, "schotten hand")
    assert hers.ephemeral and len(hers.response.attachments) == 1
    his = await bob.slash(channel, "schotten hand")
    assert his.ephemeral and his.response.attachments == [] and "```" in his.response.content

    # Play it out through the DMs: every board edit or post carries a new picture.
    rng = random.Random(3)
    seats_checked = 0
    original_seat = bot.pictures.seat

    async def seat(public: Any, names: Any, cards: Any, *, game_id: int, player: int, **kwargs: Any) -> bytes:
        nonlocal seats_checked
        now = await bot.service.get(game_id)
        assert isinstance(public, PublicView)
        assert now.players[player] == alice.id  # only the member who chose pictures
        if now.version == public.version:
            assert tuple(cards) == tuple(now.game.hand(player))  # her own hand, exactly
            seats_checked += 1
        return await original_seat(public, names, cards, game_id=game_id, player=player, **kwargs)

    bot.pictures.seat = seat
    for _ in range(200):
        record = await bot.service.get(game_id)
        if record.game.is_over:
            break
        member = alice if record.current_user == alice.id else bob
        await dm_turn(member, rng, game_id)
        board = board_of(channel, game_id)
        assert len(board.attachments) == 1 and "```" not in board.content
        assert len(dm_message(alice, game_id).attachments) == 1  # replaced, not added
    assert record.game.is_over and seats_checked > 0
    assert record.player_of(alice.id) == alice_seat

    # Every board picture from a PublicView, every hand only inside Alice's own picture;
    # nothing of a hand in the channel.
    assert drawn["board"] and set(drawn["board"]) == {PublicView}
    assert drawn["seat"] and {kind for kind, _ in drawn["seat"]} == {PublicView}
    assert drawn["hand"] == []
    for message in channel.history():
        assert all(a.filename.startswith("board-") for a in message.attachments)
    assert all(not m.attachments for m in bob.user.dm_channel.history())
    assert not any(key.game_id == game_id for key in bot.pictures._pictures)  # forgotten at the end


async def test_replay_step_as_a_picture(
    simcord_env: Any, simcord_bot: Any, drawn: dict[str, list[Any]]
) -> None:
    env, bot = simcord_env, simcord_bot
    _guild, channel, _owner, alice, bob = setup_server(env)
    game_id = await challenge_and_accept(env, channel, alice, bob)
    rng = random.Random(8)
    for _ in range(4):
        record = await bot.service.get(game_id)
        await dm_turn(alice if record.current_user == alice.id else bob, rng, game_id)
    await alice.slash(channel, "schotten resign", game=game_id)
    await alice.slash(channel, "schotten style", board="picture")

    replay = await alice.slash(channel, "schotten replay", game=game_id, step=2)
    assert replay.ephemeral and "```" not in replay.response.content
    (attachment,) = replay.response.attachments
    assert attachment.filename == f"replay-{game_id}-2.png"
    await png_of(attachment)
    as_text = await alice.click(
        replay.response, custom_id=button(replay.response, f"st:rpt:{game_id}:2")["custom_id"]
    )
    assert as_text.ephemeral and "```" in as_text.response.content
    forward = await alice.click(
        replay.response, custom_id=button(replay.response, f"st:rp:{game_id}:3:n")["custom_id"]
    )
    (attachment,) = forward.response.attachments
    assert attachment.filename == f"replay-{game_id}-3.png"
    assert drawn["board"] and set(drawn["board"]) == {PublicView}

    # Bob keeps the text replay.
    his = await bob.slash(channel, "schotten replay", game=game_id, step=2)
    assert his.response.attachments == [] and "```" in his.response.content
