"""The /schotten commands around play: turn mentions, DMs, several games, rules, autocomplete."""

from __future__ import annotations

import random
import re

from tests.cogs.helpers import (
    challenge_and_accept,
    dm_message,
    dm_turn,
    flat_components,
    hand_in,
    setup_members,
)


def boards(channel) -> list:
    """The boards standing in the channel (each carries its Show my hand button)."""
    return [
        m
        for m in channel.history()
        if any(c.get("custom_id", "").startswith("st:hand:") for c in flat_components(m))
    ]


async def test_player_to_move_is_mentioned_once_per_turn(simcord_env, simcord_bot):
    env, bot = simcord_env, simcord_bot
    _, channel, (alice, bob) = setup_members(env)
    game_id = await challenge_and_accept(env, channel, alice, bob)
    rng = random.Random(11)
    by_id = {alice.id: alice, bob.id: bob}
    turn_changes = 0
    for _ in range(40):
        record = await bot.service.get(game_id)
        if record.game.is_over:
            break
        before = record.current_user
        seen = len(env.http_requests)
        await dm_turn(by_id[before], rng, game_id)
        after = await bot.service.get(game_id)
        # Messages that notify somebody: the bot's posts whose allowed mentions name users.
        notified = [
            entry.json["allowed_mentions"]["users"]
            for entry in env.http_requests[seen:]
            if entry.method == "POST"
            and entry.path == f"/channels/{channel.id}/messages"
            and (entry.json or {}).get("allowed_mentions", {}).get("users")
        ]
        (standing,) = boards(channel)  # one board at a time: a new one replaces the old
        if after.game.is_over:
            assert "<@" not in standing.content and notified == []
            break
        if after.current_user != before:
            turn_changes += 1
            # The new board is the one message that notifies, naming the player to move.
            assert [[int(u) for u in users] for users in notified] == [[after.current_user]]
            assert standing.id == after.board_message_id != record.board_message_id
        else:
            assert notified == []  # e.g. a claim: same turn, the board edited in place
            assert standing.id == after.board_message_id == record.board_message_id
        assert standing.content.startswith(f"<@{after.current_user}>, your turn.")
    assert turn_changes > 5


async def test_commands_work_in_the_dm(simcord_env, simcord_bot):
    env, bot = simcord_env, simcord_bot
    _, channel, (alice, bob) = setup_members(env)
    game_id = await challenge_and_accept(env, channel, alice, bob)
    record = await bot.service.get(game_id)
    mover = alice if record.current_user == alice.id else bob
    shown = await mover.user.slash("schotten hand")
    hand = hand_in(shown.response.content)
    assert hand and shown.ephemeral
    games = await mover.user.slash("schotten games")
    assert f"#{game_id} against" in games.response.content and "your turn" in games.response.content
    board = await mover.user.slash("schotten board")
    assert "```" in board.response.content
    played = await mover.user.slash("schotten play", card=hand[0], stone=4)
    assert played.ephemeral
    after = await bot.service.get(game_id)
    assert after.version > record.version
    assert hand[0] in channel.history()[0].content or any(hand[0] in m.content for m in channel.history())
    rules = await mover.user.slash("schotten rules")
    assert "Schotten-Totten" in rules.response.content


async def test_game_option_and_ambiguity(simcord_env, simcord_bot):
    env, _bot = simcord_env, simcord_bot
    guild, general, (alice, bob, carol) = setup_members(env, ("alice", "bob", "carol"))
    other = guild.create_text_channel("other")
    elsewhere = guild.create_text_channel("elsewhere")
    game_bob = await challenge_and_accept(env, general, alice, bob)
    game_carol = await challenge_and_accept(env, other, alice, carol)
    # In a game's channel, that game is meant.
    here = await alice.slash(general, "schotten hand")
    assert f"Game #{game_bob} against bob" in here.response.content
    there = await alice.slash(other, "schotten hand")
    assert f"Game #{game_carol} against carol" in there.response.content
    # Elsewhere it is ambiguous: the error lists the games.
    ambiguous = await alice.slash(elsewhere, "schotten hand")
    assert ambiguous.ephemeral
    text = ambiguous.response.content
    assert "several active games" in text
    assert f"#{game_bob} against bob" in text and f"#{game_carol} against carol" in text
    chosen = await alice.slash(elsewhere, "schotten hand", game=game_carol)
    assert f"Game #{game_carol} against carol" in chosen.response.content
    # Bob has one game only: it is meant everywhere.
    only = await bob.slash(elsewhere, "schotten board")
    assert f"Game #{game_bob}" in only.response.content
    listed = await alice.slash(elsewhere, "schotten games")
    assert f"#{game_bob} against bob" in listed.response.content
    assert f"#{game_carol} against carol" in listed.response.content
    choices = await alice.autocomplete(elsewhere, "schotten hand", "game", "")
    assert {c["value"] for c in choices} == {game_bob, game_carol}


async def test_rules_document_our_decisions(simcord_env, simcord_bot):
    env, _ = simcord_env, simcord_bot
    _, channel, (alice,) = setup_members(env, ("alice",))
    for topic in ("overview", "turn", "formations", "claims", "end", "decisions"):
        shown = await alice.slash(channel, "schotten rules", topic=topic)
        assert shown.ephemeral and len(shown.response.content) > 80
    decisions = (await alice.slash(channel, "schotten rules", topic="decisions")).response.content
    assert "both players pass" in decisions.lower()
    assert "own hand" in decisions  # the claim proof counts the claimer's hand as unseen
    assert "strongest subset" in decisions


async def test_card_autocomplete_offers_only_the_callers_hand(simcord_env, simcord_bot):
    env, bot = simcord_env, simcord_bot
    guild, channel, (alice, bob) = setup_members(env)
    game_id = await challenge_and_accept(env, channel, alice, bob)
    record = await bot.service.get(game_id)
    for member in (alice, bob):
        player = record.players.index(member.id)
        own = {str(c) for c in record.game.hand(player)}
        choices = await member.autocomplete(channel, "schotten play", "card", "")
        offered = {c["value"] for c in choices}
        assert offered == own == set(hand_in(dm_message(member, game_id).content))
    colour = next(iter(own))[0]
    typed = await bob.autocomplete(channel, "schotten play", "card", colour.lower())
    assert all(c["value"].startswith(colour) for c in typed)
    stranger = guild.add_member(env.create_user("stranger"))
    assert await stranger.autocomplete(channel, "schotten play", "card", "") == []
    assert re.fullmatch(r"[ROYGBP][1-9]", next(iter(own)))
