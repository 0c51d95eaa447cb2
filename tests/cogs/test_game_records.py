"""``/schotten history``, ``/schotten replay`` and ``/schotten export``, through simcord:
a game played to its end, then looked back at; games in progress and strangers refused;
the buttons after a restart."""

from __future__ import annotations

import random
import re
from typing import Any

import simcord

from bot.app import create_bot
from bot.archive.record_file import parse_record
from bot.text.render import card_text, sort_hand
from tests.cogs.helpers import (
    cards_in,
    challenge_and_accept,
    dm_turn,
    flat_components,
    setup_members,
)
from tests.cogs.test_full_game import log_tap, play_out, public_text  # noqa: F401 - log_tap: a fixture

BLOCK = re.compile(r"```\n.*?\n```", re.S)
NOT_FOUND = "I can't find that game."


def board_block(text: str) -> str:
    found = BLOCK.search(text)
    assert found is not None, text
    return found.group(0)


def buttons(message: Any) -> dict[str, dict[str, Any]]:
    return {c["label"]: c for c in flat_components(message) if c.get("type") == 2}


def ephemeral_of(channel: Any, member: Any, message_id: int) -> Any:
    """A message as ``member`` sees it now (an ephemeral reply is theirs alone)."""
    return next(m for m in channel.history(viewer=member) if m.id == message_id)


def hands_line(name: str, cards: list[str]) -> str:
    return f"{name}'s hand: {' '.join(cards)}" if cards else f"{name}'s hand is empty."


async def resigned_game(env: Any, channel: Any, a: Any, b: Any) -> int:
    game_id = await challenge_and_accept(env, channel, a, b)
    assert (await b.slash(channel, "schotten resign", game=game_id)).ephemeral
    return game_id


async def test_a_finished_game_in_history_replay_and_export(simcord_env, simcord_bot, log_tap):  # noqa: F811
    env, bot = simcord_env, simcord_bot
    _, channel, (alice, bob, carol) = setup_members(env, ("alice", "bob", "carol"))
    game_id = await challenge_and_accept(env, channel, alice, bob)
    record = await play_out(env, bot, channel, (alice, bob), game_id, random.Random(2), log_tap)
    final = record.game
    assert final.is_over and final.result is not None
    names = ["alice" if user == alice.id else "bob" for user in record.players]
    final_hands = [[card_text(c) for c in sort_hand(final.hand(p))] for p in (0, 1)]
    seen_log = len(log_tap.lines)
    board_message = next(m for m in channel.history() if m.id == record.board_message_id)
    steps = len(final.log)

    # Replay: ephemeral, from the deal, both hands named.
    shown = await alice.slash(channel, "schotten replay", game=game_id)
    assert shown.ephemeral
    text = shown.response.content
    assert f"**Replay of game #{game_id}**: {names[0]} against {names[1]}" in text
    assert f"Step 0 of {steps}: the deal. {names[final.first_player]} moves first." in text
    start = type(final).new(record.seed, record.options, first_player=final.first_player)
    for p in (0, 1):
        assert hands_line(names[p], [card_text(c) for c in sort_hand(start.hand(p))]) in text
    controls = buttons(shown.response)
    assert set(controls) == {"First", "Back", "Forward", "Last"}
    assert controls["First"].get("disabled") and controls["Back"].get("disabled")
    assert controls["Forward"]["custom_id"] == f"st:rp:{game_id}:1:n"

    # Last: the final board, exactly as the channel shows it, and both final hands.
    await alice.click(shown.response, label="Last")
    last = ephemeral_of(channel, alice, shown.response.id)
    assert f"Step {steps} of {steps}:" in last.content
    assert board_block(last.content) == board_block(board_message.content)
    for p in (0, 1):
        assert hands_line(names[p], final_hands[p]) in last.content
    assert "both hands are shown" in last.content
    assert buttons(last)["Last"].get("disabled") and buttons(last)["Forward"].get("disabled")
    # Back one step: the move before the last.
    await alice.click(last, label="Back")
    back = ephemeral_of(channel, alice, shown.response.id)
    assert f"Step {steps - 1} of {steps}:" in back.content
    await alice.click(back, label="First")
    assert f"Step 0 of {steps}" in ephemeral_of(channel, alice, shown.response.id).content

    # A member of the server who did not play may replay it too, from any step.
    watched = await carol.slash(channel, "schotten replay", game=game_id, step=steps)
    assert watched.ephemeral
    assert board_block(watched.response.content) == board_block(board_message.content)

    # Export: the record rebuilds the very same final state.
    exported = await bob.slash(channel, "schotten export", game=game_id)
    assert exported.ephemeral
    (attachment,) = exported.response.attachments
    assert attachment.filename == f"schotten-game-{game_id}.txt"
    assert f'make play ARGS="--replay schotten-game-{game_id}.txt"' in exported.response.content
    parsed = parse_record((await attachment.read()).decode("utf-8"))
    assert parsed.replay().to_dict() == final.to_dict()
    assert parsed.game_id == game_id and parsed.result == final.result
    assert [(p.user_id, p.name) for p in parsed.players] == list(zip(record.players, names, strict=True))

    # History: private, the game with its opponent, result, reason and rating change.
    history = await bob.slash(channel, "schotten history")
    assert history.ephemeral
    line = next(x for x in history.response.content.splitlines() if f"`#{game_id}`" in x)
    bob_seat = record.players.index(bob.id)
    outcome = (
        "drew" if final.result.winner is None else ("won" if final.result.winner == bob_seat else "lost")
    )
    assert f"**{outcome}** against alice" in line
    assert f"{final.result.stones[bob_seat]}-{final.result.stones[1 - bob_seat]}" in line
    assert re.search(r"rating [+-]\d+", line)
    assert cards_in(history.response.content) == set()
    assert buttons(history.response) == {}  # one page

    # Nothing of the final hands reached the channel or the log.
    # (A game that ran both decks out ends with empty hands: then there is nothing to leak.)
    hidden = set(final_hands[0]) | set(final_hands[1])
    assert not hidden & cards_in(public_text(channel))
    assert not hidden & cards_in("\n".join(log_tap.lines[seen_log:]))


async def test_a_game_in_progress_shows_nothing(simcord_env, simcord_bot):
    env, bot = simcord_env, simcord_bot
    _, channel, (alice, bob) = setup_members(env)
    game_id = await challenge_and_accept(env, channel, alice, bob)
    rng = random.Random(3)
    by_id = {alice.id: alice, bob.id: bob}
    for _ in range(3):
        record = await bot.service.get(game_id)
        await dm_turn(by_id[record.current_user], rng, game_id)
    refused = f"Game #{game_id} is still being played."
    for member in (alice, bob):
        for command, options in (("schotten replay", {"step": 2}), ("schotten export", {})):
            result = await member.slash(channel, command, game=game_id, **options)
            assert result.ephemeral
            assert result.response.content.startswith(refused)
            assert cards_in(result.response.content) == set()
            assert result.response.components == [] and result.response.attachments == []
    # Not finished, so not in anyone's history either.
    history = await alice.slash(channel, "schotten history")
    assert history.ephemeral and history.response.content == "You haven't finished a game in this server yet."
    assert (await bot.service.get(game_id)).is_active


async def test_only_players_and_members_of_the_server(simcord_env, simcord_bot):
    env = simcord_env
    guild, channel, (alice, bob, dave) = setup_members(env, ("alice", "bob", "dave"))
    elsewhere = env.create_guild()
    far = elsewhere.create_text_channel("general")
    carol = elsewhere.add_member(env.create_user("carol"))
    dave_far = elsewhere.add_member(dave.user)
    finished = await resigned_game(env, channel, alice, bob)
    running = await challenge_and_accept(env, channel, alice, bob)

    # A stranger learns nothing: a finished game, a running one and no game at all
    # get the same answer.
    for game_id in (finished, running, 99999):
        for command in ("schotten replay", "schotten export"):
            result = await carol.slash(far, command, game=game_id)
            assert result.ephemeral and result.response.content == NOT_FOUND
    # A member of the game's server may look, here or from another server.
    assert "Replay of game" in (await dave.slash(channel, "schotten replay", game=finished)).response.content
    assert "Replay of game" in (await dave_far.slash(far, "schotten replay", game=finished)).response.content
    # A player may look from anywhere.
    alice_far = elsewhere.add_member(alice.user)
    assert (await alice_far.slash(far, "schotten export", game=finished)).response.attachments

    # A practice game in DMs: its player only.
    practice = await alice.user.slash("schotten practice", difficulty="random")
    found = re.search(r"Game #(\d+)", practice.response.content if practice.response else "")
    assert found is not None
    dm_game = int(found.group(1))
    await alice.user.slash("schotten resign", game=dm_game)
    assert (await dave.slash(channel, "schotten replay", game=dm_game)).response.content == NOT_FOUND
    mine = await alice.slash(channel, "schotten replay", game=dm_game)
    assert "Replay of game" in mine.response.content
    history = await alice.slash(channel, "schotten history")
    assert f"`#{dm_game}`" in history.response.content and "(in DMs)" in history.response.content
    assert "unrated" in history.response.content
    assert guild.id != elsewhere.id


async def test_history_names_are_escaped(simcord_env, simcord_bot):
    env = simcord_env
    _, channel, (alice, evil) = setup_members(env, ("alice", "**evil**@everyone`"))
    await resigned_game(env, channel, alice, evil)
    history = await alice.slash(channel, "schotten history")
    text = history.response.content
    assert "@everyone" not in text and "**evil**" not in text
    assert r"\*\*evil\*\*@" in text
    own = await evil.slash(channel, "schotten history")
    assert own.response.content.startswith(r"**Finished games of \*\*evil\*\*@")


async def test_history_and_replay_buttons_after_a_restart(tmp_path):
    path = tmp_path / "records.sqlite"
    first = create_bot(database=path)
    async with simcord.run(first) as env:
        _, channel, (alice, bob) = setup_members(env)
        ids = [await resigned_game(env, channel, alice, bob) for _ in range(12)]
        history = await alice.slash(channel, "schotten history")
        text = history.response.content
        assert "Finished games of alice** (12)" in text and "Page 1 of 2" in text
        assert [int(x) for x in re.findall(r"`#(\d+)`", text)] == ids[::-1][:10]
        assert buttons(history.response)["Next"]["custom_id"] == f"st:hist:{alice.id}:{channel.guild.id}:1:n"
        replay = await bob.slash(channel, "schotten replay", game=ids[0])

        second = create_bot(database=path)
        await env.restart_bot(second)
        await first.db.close()
        await alice.click(history.response, label="Next")  # a private reply: hers to turn
        page2 = ephemeral_of(channel, alice, history.response.id)
        assert "Page 2 of 2" in page2.content
        assert [int(x) for x in re.findall(r"`#(\d+)`", page2.content)] == ids[1::-1]
        assert buttons(page2)["Next"].get("disabled") and not buttons(page2)["Previous"].get("disabled")
        await bob.click(replay.response, label="Forward")
        stepped = ephemeral_of(channel, bob, replay.response.id)
        assert "Step 1 of 1: bob resigned" in stepped.content
        await second.db.close()
