"""Starting a game from the Activity against the real bot in simcord and a fake Discord's
OAuth2 (``tests/web/fake_discord.py``): a challenge to another member, posted in the
channel with its buttons and accepted in the Activity or in Discord, the new game's
board and DMs published as the commands' are; a practice game against the AI; the
limits and refusals (private, translated, never acting for a user the page names);
the result with the rating change; the games of a DM-launched Activity."""

from __future__ import annotations

import json
import math

from bot.community.ratings import guild_scope
from bot.text import i18n
from bot.text.catalogue import t
from bot.text.render import render_result
from tests.cogs.helpers import challenge_and_accept, dm_message, flat_components, setup_members
from tests.web.test_activity_api import fake_discord, get_json, root, sign_in, simcord_bot
from tests.web.test_table_api import post

__all__ = ["fake_discord", "simcord_bot"]  # the fixtures


async def session_of(bot, fake, member, locale: str = "en-US") -> str:
    status, signed = await sign_in(bot, fake.grant(member.id, locale=locale))
    assert status == 200, signed
    return signed["session"]


def bot_messages(channel) -> list:
    return [m for m in channel.history() if m.author.bot]


async def test_a_member_challenges_another_in_the_activity_who_accepts_there(
    simcord_env, simcord_bot, fake_discord
):
    env, bot = simcord_env, simcord_bot
    _, channel, (alice, bob, carol) = setup_members(env, ("alice", "bob", "carol"))
    alice_s = await session_of(bot, fake_discord, alice)
    bob_s = await session_of(bot, fake_discord, bob)
    base = f"{root(bot)}/activity/s"
    # The page names the opponent only: whoever it claims to be, the challenger is the
    # session's member.
    status, made = await post(
        f"{base}/{alice_s}/challenge",
        {
            "channel": str(channel.id),
            "opponent": str(bob.id),
            "challenger": str(carol.id),
            "user": str(carol.id),
        },
    )
    assert status == 200, made
    challenge = await bot.db.challenges.get_challenge(made["challenge"])
    assert (challenge.challenger_id, challenge.opponent_id) == (alice.id, bob.id)
    assert challenge.channel_id == channel.id
    # Posted in the channel as /schotten challenge posts it: Accept and Decline buttons.
    posted = [m for m in bot_messages(channel) if m.id == challenge.message_id]
    assert posted and f"<@{bob.id}>" in posted[0].content
    labels = [button["label"] for button in flat_components(posted[0])]
    assert labels == ["Accept", "Decline"]
    # Each sees it in the Activity: Bob to answer, Alice waiting.
    _, bob_list = await get_json(f"{base}/{bob_s}/games?channel={channel.id}")
    _, alice_list = await get_json(f"{base}/{alice_s}/games?channel={channel.id}")
    assert [(c["id"], c["answer"]) for c in bob_list["challenges"]] == [(challenge.id, True)]
    assert [(c["id"], c["answer"]) for c in alice_list["challenges"]] == [(challenge.id, False)]
    assert bob_list["challenges"][0]["text"] == t("activity.challenged_by", name="alice")
    # Alice cannot accept her own challenge; Bob accepts.
    status, refused = await post(f"{base}/{alice_s}/challenge/{challenge.id}/accept", {})
    assert status == 422 and refused["error"] == t("error.challenge_not_yours", opponent="bob")
    status, accepted = await post(f"{base}/{bob_s}/challenge/{challenge.id}/accept", {})
    assert status == 200, accepted
    game_id = accepted["game"]
    record = await bot.service.get(game_id)
    assert set(record.players) == {alice.id, bob.id} and record.channel_id == channel.id
    # The challenge's message says so; the board is in the channel; the hands in DMs.
    edited = next(m for m in bot_messages(channel) if m.id == challenge.message_id)
    assert f"Game #{game_id} has started" in edited.content
    boards = [m for m in bot_messages(channel) if m.id != challenge.message_id]
    assert any(f"Game #{game_id}" in m.content for m in boards)
    for member in (alice, bob):
        assert dm_message(member, game_id) is not None
    # Both now have their seat in the Activity.
    _, bob_list = await get_json(f"{base}/{bob_s}/games?channel={channel.id}")
    assert [g["game"] for g in bob_list["mine"]] == [game_id] and bob_list["challenges"] == []


async def test_a_challenge_from_the_activity_is_accepted_in_discord(simcord_env, simcord_bot, fake_discord):
    env, bot = simcord_env, simcord_bot
    _, channel, (alice, bob) = setup_members(env)
    alice_s = await session_of(bot, fake_discord, alice)
    status, made = await post(
        f"{root(bot)}/activity/s/{alice_s}/challenge", {"channel": str(channel.id), "opponent": str(bob.id)}
    )
    assert status == 200
    message = (await bot.db.challenges.get_challenge(made["challenge"])).message_id
    posted = next(m for m in bot_messages(channel) if m.id == message)
    clicked = await bob.click(posted, label="Accept")
    assert "has started" in clicked.response.content
    challenge = await bot.db.challenges.get_challenge(made["challenge"])
    assert challenge.status == "accepted" and challenge.game_id is not None


async def test_refusals_are_private_translated_and_change_nothing(simcord_env, simcord_bot, fake_discord):
    env, bot = simcord_env, simcord_bot
    _, channel, (alice, bob, carol) = setup_members(env, ("alice", "bob", "carol"))
    stranger = env.create_user("stranger")  # not a member of the server
    base = f"{root(bot)}/activity/s"
    alice_s = await session_of(bot, fake_discord, alice, locale="de")
    carol_s = await session_of(bot, fake_discord, carol, locale="fr")
    here = str(channel.id)

    async def challenge(session: str, opponent: int, where: str = here) -> tuple[int, dict]:
        return await post(f"{base}/{session}/challenge", {"channel": where, "opponent": str(opponent)})

    with i18n.use("de"):
        assert await challenge(alice_s, alice.id) == (422, {"error": t("error.challenge_self")})
        assert await challenge(alice_s, stranger.id) == (422, {"error": t("error.not_a_member")})
        unknown = await challenge(alice_s, bob.id, "123456789")
        assert unknown == (422, {"error": t("error.challenge_guild_only")})
    # MAX_CHANNEL_CHALLENGES, counted in the database: a second open challenge here is refused.
    bot.challenges.max_channel = 1
    bot.challenges.clock = lambda: 1_900_000_000.0  # an injected clock: the refusal's minutes
    assert (await challenge(alice_s, bob.id))[0] == 200
    status, refused = await challenge(carol_s, bob.id)
    assert status == 429
    assert len(await bot.challenges.pending_with(channel.id, bob.id)) == 1  # the second one was not stored
    minutes = math.ceil(bot.settings.challenge_timeout / 60)
    with i18n.use("fr"):  # Discord's <t:...:R> written out for the page
        expected = t("error.limit_channel_challenges", limit=1, until=0).replace(
            "<t:0:R>", t("activity.in_minutes", minutes=minutes)
        )
    assert refused["error"] == expected and "<t:" not in refused["error"]
    # Malformed requests: no opponent, not JSON.
    assert (await post(f"{base}/{alice_s}/challenge", {"channel": here}))[0] == 404
    assert (await post(f"{base}/{alice_s}/challenge", {"x": 1}, content_type="text/plain"))[0] == 404
    # A forged session acts for nobody.
    assert (await challenge("1.2.en.x", bob.id))[0] == 401
    assert not [c for c in await bot.challenges.pending_with(channel.id, carol.id)]


async def test_a_practice_game_is_started_from_the_activity(simcord_env, simcord_bot, fake_discord):
    env, bot = simcord_env, simcord_bot
    guild, channel, (alice,) = setup_members(env, ("alice",))
    other = guild.create_text_channel("other")
    base = f"{root(bot)}/activity/s"
    alice_s = await session_of(bot, fake_discord, alice)
    status, started = await post(f"{base}/{alice_s}/practice", {"channel": str(channel.id), "level": "easy"})
    assert status == 200, started
    record = await bot.service.get(started["game"])
    assert record.vs_ai and record.ai_level == "easy" and record.players[0] == alice.id
    assert record.channel_id == channel.id
    assert any(f"Game #{record.id} has started" in m.content for m in bot_messages(channel))
    assert dm_message(alice, record.id) is not None
    # One practice game per channel, MAX_PRACTICE_GAMES in all (counted in the database).
    status, refused = await post(f"{base}/{alice_s}/practice", {"channel": str(channel.id)})
    assert status == 422 and refused["error"] == t("error.practice_existing", game_id=record.id)
    bot.opponent.max_games = 1
    status, refused = await post(f"{base}/{alice_s}/practice", {"channel": str(other.id)})
    assert status == 429
    assert len([g for g in await bot.service.active_games_for(alice.id) if g.vs_ai]) == 1
    # Challenging the bot itself starts one too (as the command does).
    bot.opponent.max_games = 0
    me = bot.user.id
    asked = {"channel": str(other.id), "opponent": str(me)}
    status, started = await post(f"{base}/{alice_s}/challenge", asked)
    assert status == 200 and (await bot.service.get(started["game"])).vs_ai


async def test_the_end_shows_the_result_with_the_rating_change(simcord_env, simcord_bot, fake_discord):
    env, bot = simcord_env, simcord_bot
    guild, channel, (alice, bob) = setup_members(env)
    scope = guild_scope(guild.id)
    game_id = await challenge_and_accept(env, channel, alice, bob)
    alice_s = await session_of(bot, fake_discord, alice, locale="de")
    result_url = f"{root(bot)}/activity/s/{alice_s}/game/{game_id}/result"
    assert await get_json(result_url) == (200, {"over": False})
    await bot.service.resign(game_id, bob.id)
    status, shown = await get_json(result_url)
    assert status == 200 and shown["over"] and shown["rated"]
    record = await bot.service.get(game_id)
    seat = record.players.index(alice.id)
    with i18n.use("de"):
        names = ["alice", "bob"] if seat == 0 else ["bob", "alice"]
        assert shown["text"] == render_result(record.result, names, you=seat)
        assert "bob" in shown["text"]
        # Both players' ratings before → after, in the server's ladder.
        made = await bot.rankings.changes(game_id, scope)
        changes = {user: (before, after) for user, before, after in made}
        gain = round(changes[alice.id][1]) - 1500
        assert changes[alice.id][0] == changes[bob.id][0] == 1500 and gain > 0
        assert sorted(shown["ratings"]) == sorted(
            [
                t("activity.rating_change", name="alice", before=1500, after=1500 + gain, delta=gain),
                t("activity.rating_change", name="bob", before=1500, after=1500 - gain, delta=-gain),
            ]
        )
    # Bob's own result says he resigned; a practice game is not rated.
    bob_s = await session_of(bot, fake_discord, bob)
    _, bobs = await get_json(f"{root(bot)}/activity/s/{bob_s}/game/{game_id}/result")
    assert bobs["text"].startswith("You resigned")
    status, started = await post(f"{root(bot)}/activity/s/{alice_s}/practice", {"channel": str(channel.id)})
    await bot.service.resign(started["game"], alice.id)
    _, practice = await get_json(f"{root(bot)}/activity/s/{alice_s}/game/{started['game']}/result")
    with i18n.use("de"):
        assert practice["over"] and not practice["rated"] and practice["unrated"] == t("activity.unrated")


async def test_a_dm_launched_activity_lists_the_members_own_games(simcord_env, simcord_bot, fake_discord):
    env, bot = simcord_env, simcord_bot
    _, channel, (alice, bob, carol) = setup_members(env, ("alice", "bob", "carol"))
    with_bob = await challenge_and_accept(env, channel, alice, bob)
    others = await challenge_and_accept(env, channel, bob, carol)
    alice_s = await session_of(bot, fake_discord, alice)
    # A practice game in her DMs (no channel) too.
    status, dm_game = await post(f"{root(bot)}/activity/s/{alice_s}/practice", {"channel": "777"})
    assert status == 200 and (await bot.service.get(dm_game["game"])).channel_id is None
    # The DM's channel is unknown to the bot: her own games, wherever played, at her seat.
    status, listed = await get_json(f"{root(bot)}/activity/s/{alice_s}/games?channel=888&dm=1")
    assert status == 200 and listed["dm"]
    assert sorted(g["game"] for g in listed["mine"]) == sorted([with_bob, dm_game["game"]])
    assert {g["opponent"] for g in listed["mine"]} == {str(bob.id), str(bot.user.id)}
    assert listed["watch"] == [] and f'"game":{others},' not in json.dumps(listed, separators=(",", ":"))
    # Carol, in a DM, sees her game with Bob and nobody else's.
    carol_s = await session_of(bot, fake_discord, carol)
    _, listed = await get_json(f"{root(bot)}/activity/s/{carol_s}/games?channel=888&dm=1")
    assert [g["game"] for g in listed["mine"]] == [others] and listed["watch"] == []


async def test_a_challenge_declined_in_the_activity_says_so_in_the_channel(
    simcord_env, simcord_bot, fake_discord
):
    env, bot = simcord_env, simcord_bot
    _, channel, (alice, bob) = setup_members(env)
    alice_s = await session_of(bot, fake_discord, alice)
    bob_s = await session_of(bot, fake_discord, bob)
    asked = {"channel": str(channel.id), "opponent": str(bob.id)}
    status, made = await post(f"{root(bot)}/activity/s/{alice_s}/challenge", asked)
    assert status == 200
    status, answered = await post(f"{root(bot)}/activity/s/{bob_s}/challenge/{made['challenge']}/decline", {})
    assert status == 200 and answered["game"] is None
    challenge = await bot.db.challenges.get_challenge(made["challenge"])
    assert challenge.status == "declined"
    posted = next(m for m in bot_messages(channel) if m.id == challenge.message_id)
    assert posted.content == t("challenge.declined", challenger=f"<@{alice.id}>", opponent=f"<@{bob.id}>")
    assert all(button.get("disabled") for button in flat_components(posted))
    assert await bot.service.active_games_for(alice.id) == []
    # Answered once: accepting it now is refused.
    status, refused = await post(f"{root(bot)}/activity/s/{bob_s}/challenge/{made['challenge']}/accept", {})
    assert status == 422 and refused["error"] == t("error.challenge_gone")
