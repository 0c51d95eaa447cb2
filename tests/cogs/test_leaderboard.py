"""``/schotten leaderboard``: rank, name, rating, W-L-D and games, per server or global,
paged with buttons that never lead past the last page."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from bot.storage import RatingRow
from bot.text import i18n
from cogs.leaderboard import WIDTH, leaderboard_message
from tests.cogs.helpers import challenge_and_accept, flat_components, setup_members


async def beat(env: Any, channel: Any, winner: Any, loser: Any) -> int:
    """A rated game that ``winner`` wins: ``loser`` resigns it."""
    game_id = await challenge_and_accept(env, channel, winner, loser)
    result = await loser.slash(channel, "schotten resign", game=game_id)
    assert result.ephemeral
    return game_id


def buttons(message: Any) -> dict[str, dict[str, Any]]:
    return {c["label"]: c for c in flat_components(message) if c.get("type") == 2}


async def test_no_games_is_a_friendly_ephemeral_answer(simcord_env, simcord_bot):
    _, channel, (alice, _bob) = setup_members(simcord_env)
    for scope, where in (("server", "in this server"), ("global", "anywhere")):
        result = await alice.slash(channel, "schotten leaderboard", scope=scope)
        assert result.ephemeral
        assert f"No games have been finished {where} yet" in result.response.content
    assert await simcord_bot.db.ratings.leaderboard_size("global") == 0


async def test_rank_name_rating_record_games(simcord_env, simcord_bot):
    env = simcord_env
    _, channel, (alice, bob, carol) = setup_members(env, ("alice", "bob", "carol"))
    await beat(env, channel, alice, bob)  # alice 1520, bob 1480
    # Carol (1500, new) beats Bob (1480, 1 game): E(carol) = 1/(1+10^(-20/400)) = 0.5287615,
    # carol 1500 + 40 * 0.4712385 = 1518.85 -> 1519, bob 1480 - 18.85 = 1461.15 -> 1461.
    await beat(env, channel, carol, bob)
    result = await alice.slash(channel, "schotten leaderboard")
    assert not result.ephemeral
    text = result.response.content
    lines = [line.split() for line in text.split("```")[1].strip().splitlines()]
    assert lines[1:] == [
        ["1", "alice", "1520", "1-0-0", "1"],
        ["2", "carol", "1519", "1-0-0", "1"],
        ["3", "bob", "1461", "0-2-0", "2"],
    ]
    assert buttons(result.response) == {}  # one page: nothing to turn


async def test_server_and_global_scopes(simcord_env, simcord_bot):
    env = simcord_env
    _, here, (alice, bob) = setup_members(env)
    other_guild = env.create_guild()
    there = other_guild.create_text_channel("general")
    carol = other_guild.add_member(env.create_user("carol"))
    dave = other_guild.add_member(env.create_user("dave"))
    await beat(env, here, alice, bob)
    await beat(env, there, carol, dave)
    local = (await alice.slash(here, "schotten leaderboard", scope="server")).response.content
    assert "alice" in local and "bob" in local and "carol" not in local
    everywhere = (await alice.slash(here, "schotten leaderboard", scope="global")).response.content
    assert all(name in everywhere for name in ("alice", "bob", "carol", "dave"))
    assert "Global leaderboard" in everywhere


async def test_pages_with_buttons_and_never_past_the_end(simcord_env, simcord_bot):
    env = simcord_env
    names = tuple(f"p{i:02d}" for i in range(12))
    _, channel, members = setup_members(env, names)
    for winner, loser in zip(members[0::2], members[1::2], strict=True):
        await beat(env, channel, winner, loser)
    viewer = members[0]
    first = await viewer.slash(channel, "schotten leaderboard")
    text = first.response.content
    assert "Page 1 of 2" in text
    assert len(text.split("```")[1].strip().splitlines()) == 1 + 10  # the header and ten players
    shown = buttons(first.response)
    assert shown["Previous"].get("disabled") and not shown["Next"].get("disabled")
    await members[5].click(first.response, label="Next")  # anyone may turn pages
    page2 = channel.last_message  # edited in place
    assert page2.id == first.response.id
    content = page2.content
    assert "Page 2 of 2" in content
    rows = content.split("```")[1].strip().splitlines()[1:]
    assert [row.split()[0] for row in rows] == ["11", "12"]
    shown = buttons(page2)
    assert shown["Next"].get("disabled") and not shown["Previous"].get("disabled")
    await viewer.click(page2, label="Previous")
    assert "Page 1 of 2" in channel.last_message.content
    # A page that no longer exists (say, a very old button) shows the last one.
    text, view = await leaderboard_message(simcord_bot, str(channel.guild.id), 99)
    assert "Page 2 of 2" in text and view is not None


async def test_the_leaderboard_is_40_columns_wide_in_every_language(simcord_env, simcord_bot):
    env, bot = simcord_env, simcord_bot
    guild, _, _ = setup_members(env)
    users = [guild.add_member(env.create_user(f"{'W' * 28}{i:04d}")) for i in range(12)]
    await bot.db.players.ensure_players([m.id for m in users], 0.0)
    for i, member in enumerate(users):
        rating = RatingRow(f"guild:{guild.id}", member.id, 2999.6 - i, 9999, 5000, 4000, 999, 0.0)
        await bot.db.ratings.save_rating(rating)
        await bot.db.ratings.save_rating(replace(rating, scope="global"))
    for language in i18n.LANGUAGES:
        with i18n.use(language):
            for scope in ("global", str(guild.id)):
                for page in (0, 1):
                    text, _view = await leaderboard_message(bot, scope, page)
                    block = text.split("```")[1].strip("\n").splitlines()
                    assert len(block) > 1
                    too_wide = [line for line in block if len(line) > WIDTH]
                    assert too_wide == [], (language, too_wide)
                    # Every row keeps its numbers, whole; the name is what gives way.
                    for line in block[1:]:
                        assert line.split()[-2:] == ["5000-4000-999", "9999"], (language, line)
                        assert "…" in line
