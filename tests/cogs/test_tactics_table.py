"""The tactics variant at the table: every tactic card played through the bot's interface
(DM controls, the ephemeral "Show my hand" controls and slash commands), the board, the
rules help, and whole tactics games between two members.

A test may arrange a position (which cards are where) before it starts, by editing the
stored game the way a long game could have left it; every move is then made through
Discord only. Hands are learnt the way a player learns them: from their own DM.
"""

from __future__ import annotations

import dataclasses
import random
import time
from typing import Any

import discord
import pytest

from bot.text.render import WIDTH
from rules.cards import parse_card
from rules.game import Game
from tests.cogs import test_full_game
from tests.cogs.helpers import (
    cards_in,
    challenge_and_accept,
    dm_message,
    flat_components,
    hand_in,
    private_text,
    setup_members,
)

SEED = 20261122
log_tap = test_full_game.log_tap  # the fixture: every log line the bot writes
public_text = test_full_game.public_text


@pytest.fixture(autouse=True)
def fixed_seed(monkeypatch):
    monkeypatch.setattr("bot.games.service.secrets.randbits", lambda bits: SEED)


# ---------------------------------------------------------------------- helpers


async def start(env: Any, bot: Any, **options: Any) -> tuple[Any, tuple[Any, Any], int]:
    """A tactics game between alice and bob: (channel, members by engine player, game id)."""
    _, channel, (alice, bob) = setup_members(env)
    game_id = await challenge_and_accept(env, channel, alice, bob, tactics=True, **options)
    record = await bot.service.get(game_id)
    by_id = {alice.id: alice, bob.id: bob}
    return channel, (by_id[record.players[0]], by_id[record.players[1]]), game_id


async def arrange(
    bot: Any,
    game_id: int,
    *,
    current: int = 0,
    hands: dict[int, list[str]] | None = None,
    sides: dict[int, tuple[list[str], list[str]]] | None = None,
    fog: dict[int, int] | None = None,
    mud: dict[int, int] | None = None,
    tactics_played: tuple[int, int] | None = None,
) -> Any:
    """Put the named cards where a test wants them (taken from wherever they were; the
    rest of each hand topped up from the clan deck), make ``current`` the player to
    move, store it, and redraw the board and both DMs."""
    record = await bot.service.get(game_id)
    d = record.game.to_dict()
    hands = hands or {}
    sides = sides or {}
    wanted = [c for h in hands.values() for c in h] + [c for a, b in sides.values() for c in a + b]
    if fog:
        wanted.append("Fog")
    if mud:
        wanted.append("Mud")
    for player in hands:
        # The hand being replaced goes back under the decks.
        for card in d["hands"][player]:
            d["decks"]["tactic" if card[0] not in "ROYGBP" or len(card) > 3 else "clan"].insert(0, card)
        d["hands"][player] = []
    places = [*d["hands"], d["decks"]["clan"], d["decks"]["tactic"]]
    places += [side for stone in d["stones"] for side in stone["sides"]]
    for card in wanted:
        for place in places:
            if card in place:
                place.remove(card)
                break
        else:
            raise AssertionError(f"{card} is not available")
    for player, cards in hands.items():
        d["hands"][player] = list(cards)
    for player in (0, 1):
        if player not in hands:
            while len(d["hands"][player]) < 6:
                d["hands"][player].append(d["decks"]["clan"].pop())
    for stone, (a, b) in sides.items():
        d["stones"][stone - 1]["sides"] = [list(a), list(b)]
    for stone, owner in (fog or {}).items():
        d["stones"][stone - 1]["fog"] = owner
    for stone, owner in (mud or {}).items():
        d["stones"][stone - 1]["mud"] = owner
    for stone in d["stones"]:
        need = 4 if stone["mud"] is not None else 3
        complete = [len(side) >= need for side in stone["sides"]]
        stone["first_complete"] = 0 if complete[0] else (1 if complete[1] else None)
    d["current_player"] = current
    d["phase"] = "play"
    if tactics_played is not None:  # who may play a tactic card next (at most one ahead)
        d["tactics_played"] = list(tactics_played)
    # Cards moved in and out of the decks: what a Scout told either player of where its
    # cards lie no longer holds.
    d["known_deck_cards"] = [[], []]
    d["known_hand_cards"] = [[], []]
    game = Game.from_dict(d)
    record = dataclasses.replace(record, game=game)
    await bot.db.games.save_game_state(
        game_id,
        expected_version=record.version,
        version=record.version,
        state=d,
        status="active",
        turn_started_at=record.turn_started_at,
        deadline=record.deadline,
        reminded=False,
        now=time.time(),
    )
    cog = bot.get_cog("Schotten")
    await cog.publisher.refresh(game_id)  # the state changed in place, at the same version
    return await bot.service.get(game_id)


def comps(message: Any) -> list[dict[str, Any]]:
    return flat_components(message)


def component(message: Any, prefix: str) -> dict[str, Any]:
    found = [c for c in comps(message) if c.get("custom_id", "").startswith(prefix)]
    assert found, f"no {prefix} in {[c.get('custom_id') for c in comps(message)]}"
    return found[0]


def option_values(select: dict[str, Any]) -> list[str]:
    return [o["value"] for o in select["options"]]


def no_public(result: Any) -> None:
    for followup in result.followups:
        assert followup.ephemeral, followup.content


async def pick(member: Any, prefix: str, value: str | list[str], game_id: int) -> Any:
    """Choose ``value`` in the select whose custom id starts with ``prefix``, in the
    member's DM; returns the DM as it is afterwards."""
    message = dm_message(member, game_id)
    select = component(message, prefix)
    values = value if isinstance(value, list) else [value]
    for v in values:
        assert v in option_values(select), (v, option_values(select))
    no_public(await member.user.select(message, values, custom_id=select["custom_id"]))
    return dm_message(member, game_id)


async def press(member: Any, prefix: str, game_id: int, label: str | None = None) -> Any:
    message = dm_message(member, game_id)
    buttons = [c for c in comps(message) if c.get("custom_id", "").startswith(prefix)]
    if label is not None:
        buttons = [c for c in buttons if c.get("label") == label]
    assert buttons, f"no {prefix} {label} button in {[c.get('custom_id') for c in comps(message)]}"
    assert not buttons[0].get("disabled"), buttons[0]
    result = await member.user.click(message, custom_id=buttons[0]["custom_id"])
    no_public(result)
    return dm_message(member, game_id)


async def draw_from(member: Any, deck: str, game_id: int) -> Any:
    return await press(member, "st:draw:", game_id, label=f"Draw a {deck} card")


def board(channel: Any) -> str:
    boards = [m for m in channel.history() if "Show my hand" in str([r.to_dict() for r in m.components])]
    return boards[-1].content


def board_lines(channel: Any) -> list[str]:
    text = board(channel)
    return text.split("```")[1].strip("\n").split("\n")


async def state(bot: Any, game_id: int) -> Game:
    return (await bot.service.get(game_id)).game


# ------------------------------------------------------------------------ tests


async def test_challenge_with_tactics_starts_a_tactics_game(simcord_env, simcord_bot):
    channel, _, game_id = await start(simcord_env, simcord_bot)
    record = await simcord_bot.service.get(game_id)
    assert record.options.tactics
    lines = board_lines(channel)
    assert "Decks: clan 42, tactic 10" in lines
    assert any(line.endswith("tactics: 0") for line in lines)
    assert all(len(line) <= WIDTH for line in lines)


async def test_scout_from_the_dm(simcord_env, simcord_bot, log_tap):
    bot = simcord_bot
    channel, (p0, p1), game_id = await start(simcord_env, bot)
    await arrange(bot, game_id, current=0, hands={0: ["Scout", "R1", "R2", "R3", "O1", "O2"]})
    dm = await pick(p0, "st:card:", "Scout", game_id)
    assert "Ruse: draw 3, put 2 back" in str(component(dm, "st:card:")["options"])
    dm = await press(p0, "st:mv:", game_id, label="Play Scout")
    assert "Scout: draw 3 more" in dm.content
    dm = await draw_from(p0, "tactic", game_id)
    dm = await draw_from(p0, "clan", game_id)
    assert "Scout: draw 1 more" in dm.content
    dm = await draw_from(p0, "clan", game_id)
    game = await state(bot, game_id)
    assert game.phase == "scout_return" and len(game.hand(0)) == 8
    drawn = [str(c) for c in game.hand(0)[5:]]
    assert f"You drew {drawn[-1]}." in dm.content
    assert "choose two cards to put back" in dm.content
    # Choosing two cards, then "Put back".
    ret = component(dm, "st:ret:")
    assert ret["min_values"] == 2 and ret["max_values"] == 2
    back = [drawn[1], drawn[2]]  # two clan cards: she chooses which one ends on top
    dm = await pick(p0, "st:ret:", back, game_id)
    labels = [c["label"] for c in comps(dm) if c.get("custom_id", "").startswith("st:mv:")]
    assert sorted(labels) == sorted(f"Put back, {c} on top" for c in back)
    dm = await press(p0, "st:mv:", game_id, label=f"Put back, {back[0]} on top")
    game = await state(bot, game_id)
    assert game.current_player == 1 and len(game.hand(0)) == 6
    assert "You put back:" in dm.content
    for card in back:
        assert card not in hand_in(dm.content)
    # The board says what happened but not which cards went back.
    text = public_text(channel)
    assert "alice played Scout; alice put two cards back" in " ".join(board(channel).split())
    assert not set(back) & cards_in(text)
    assert not set(back) & cards_in("\n".join(log_tap.lines))
    # The opponent's DM says Scout was played and two cards went back, nothing more.
    other = dm_message(p1, game_id).content
    assert "put two cards back" in other and not set(back) & cards_in(other.split("```")[0])
    # Bob draws the top clan card: one Alice put back, so her DM tells her he holds it.
    dm = await pick(p1, "st:card:", option_values(component(dm_message(p1, game_id), "st:card:"))[0], game_id)
    await pick(p1, "st:stone:", "9", game_id)
    await press(p1, "st:play:", game_id)
    await draw_from(p1, "clan", game_id)
    game = await state(bot, game_id)
    top = str(game.hand(1)[-1])
    assert top == back[0]
    assert f"Your opponent drew what you put back and still holds: {top}" in dm_message(p0, game_id).content


async def test_morale_and_terrain_cards_go_to_a_stone_from_the_dm(simcord_env, simcord_bot):
    bot = simcord_bot
    channel, (p0, p1), game_id = await start(simcord_env, bot)
    await arrange(bot, game_id, current=0, hands={0: ["Leader", "Fog", "R1", "R2", "R3", "O1"]})
    dm = await pick(p0, "st:card:", "Leader", game_id)
    assert option_values(component(dm, "st:stone:")) == [str(s) for s in range(1, 10)]
    await pick(p0, "st:stone:", "4", game_id)
    await press(p0, "st:play:", game_id)
    await draw_from(p0, "clan", game_id)
    game = await state(bot, game_id)
    assert [str(c) for c in game.stone(4).sides[0]] == ["Leader"]
    # Bob plays a clan card; then Alice may play Fog: her second tactic is refused until
    # Bob has played one, so Fog is not offered yet.
    await arrange(bot, game_id, current=1, hands={1: ["B1", "B2", "B3", "B4", "B5", "B6"]})
    await pick(p1, "st:card:", "B5", game_id)
    await pick(p1, "st:stone:", "4", game_id)
    await press(p1, "st:play:", game_id)
    await draw_from(p1, "clan", game_id)
    dm = dm_message(p0, game_id)
    assert "Fog" not in option_values(component(dm, "st:card:"))
    # Once Bob has played a tactic card too, Fog is offered, for any unclaimed stone.
    await arrange(bot, game_id, current=1, hands={1: ["Mud", "B2", "B3", "B4", "B6", "B7"]})
    await pick(p1, "st:card:", "Mud", game_id)
    await pick(p1, "st:stone:", "6", game_id)
    await press(p1, "st:play:", game_id)
    await draw_from(p1, "tactic", game_id)
    dm = await pick(p0, "st:card:", "Fog", game_id)
    await pick(p0, "st:stone:", "4", game_id)
    await press(p0, "st:play:", game_id)
    await draw_from(p0, "clan", game_id)
    game = await state(bot, game_id)
    assert game.stone(4).fog == 0 and game.stone(6).mud == 1
    lines = board_lines(channel)
    stones = next(line for line in lines if line.lstrip().startswith("1 "))
    assert " 4F" in stones and " 6M" in stones, stones
    assert "M = Mud, F = Fog" in lines
    assert any("Ldr" in line for line in lines)
    assert all(len(line) <= WIDTH for line in lines)
    assert [line for line in lines if "tactics: 2" in line]  # alice: Leader and Fog


async def test_redeploy_to_another_stone(simcord_env, simcord_bot):
    bot = simcord_bot
    channel, (p0, _), game_id = await start(simcord_env, bot)
    await arrange(
        bot,
        game_id,
        current=0,
        hands={0: ["Redeploy", "R1", "R2", "R3", "O1", "O2"]},
        sides={2: (["G7", "G8"], ["P1"]), 5: (["Y9"], [])},
        fog={2: 0},
    )
    dm = await pick(p0, "st:card:", "Redeploy", game_id)
    targets = option_values(component(dm, "st:tgt:"))
    assert targets == ["2.G7", "2.G8", "2.Fog", "5.Y9"]  # own cards and own terrain only
    assert "st:dst:" not in str(comps(dm))
    play = component(dm, "st:mv:")
    assert play["disabled"] and play["label"] == "Play Redeploy"
    dm = await pick(p0, "st:tgt:", "2.G8", game_id)
    dests = option_values(component(dm, "st:dst:"))
    assert "2" not in dests and "5" in dests and dests[-1] == "discard"
    dm = await pick(p0, "st:dst:", "5", game_id)
    # The choices so far stay chosen (select defaults) and the Play button has the move.
    assert [o["value"] for o in component(dm, "st:tgt:")["options"] if o.get("default")] == ["2.G8"]
    assert component(dm, "st:mv:")["custom_id"].endswith(":redeploy_G8_2_5")
    await press(p0, "st:mv:", game_id, label="Play Redeploy")
    await draw_from(p0, "clan", game_id)
    game = await state(bot, game_id)
    assert [str(c) for c in game.stone(5).sides[0]] == ["Y9", "G8"]
    assert "alice redeployed G8 from 2 to 5" in " ".join(board(channel).split())
    assert "alice's ruses: Redeploy" in board_lines(channel)


@pytest.mark.parametrize(("target", "dest"), [("3.Mud", "7"), ("3.G7", "discard"), ("3.Mud", "discard")])
async def test_redeploy_terrain_or_to_the_discard(simcord_env, simcord_bot, target, dest):
    bot = simcord_bot
    channel, (p0, _), game_id = await start(simcord_env, bot)
    await arrange(
        bot,
        game_id,
        current=0,
        hands={0: ["Redeploy", "R1", "R2", "R3", "O1", "O2"]},
        sides={3: (["G7"], [])},
        mud={3: 0},
    )
    await pick(p0, "st:card:", "Redeploy", game_id)
    dm = await pick(p0, "st:tgt:", target, game_id)
    assert "3" not in option_values(component(dm, "st:dst:"))
    await pick(p0, "st:dst:", dest, game_id)
    await press(p0, "st:mv:", game_id)
    game = await state(bot, game_id)
    card = parse_card(target.split(".")[1])
    if dest == "discard":
        assert (0, card) in game.discards
        assert f"Discarded: {card}" in board_lines(channel)
    else:
        assert game.stone(3).mud is None and game.stone(7).mud == 0
        assert " 7M" in next(line for line in board_lines(channel) if line.lstrip().startswith("1 "))


@pytest.mark.parametrize("target", ["1.Leader", "8.Mud", "8.P9"])
async def test_deserter_discards_an_opponent_card_or_their_terrain(simcord_env, simcord_bot, target):
    bot = simcord_bot
    channel, (p0, _), game_id = await start(simcord_env, bot)
    await arrange(
        bot,
        game_id,
        current=0,
        hands={0: ["Deserter", "R1", "R2", "R3", "O1", "O2"]},
        sides={1: (["G1"], ["P7", "Leader"]), 8: (["Y9"], ["P9"])},
        mud={8: 1},
    )
    dm = await pick(p0, "st:card:", "Deserter", game_id)
    assert option_values(component(dm, "st:tgt:")) == ["1.P7", "1.Leader", "8.P9", "8.Mud"]
    assert "st:dst:" not in str(comps(dm))  # no destination: the card is discarded
    dm = await pick(p0, "st:tgt:", target, game_id)
    await press(p0, "st:mv:", game_id, label="Play Deserter")
    await draw_from(p0, "tactic", game_id)
    game = await state(bot, game_id)
    stone, card = int(target.split(".")[0]), parse_card(target.split(".")[1])
    assert (1, card) in game.discards
    assert card not in game.stone(stone).sides[1] and card not in [c for c, _ in game.stone(stone).terrain]
    text = " ".join(board(channel).split())
    assert f"Discarded: {card}" in text and "alice's ruses: Deserter" in text
    assert f"alice sent a Deserter: {card} at {stone} discarded" in text


async def test_traitor_takes_a_clan_card_to_own_side(simcord_env, simcord_bot):
    bot = simcord_bot
    channel, (p0, _), game_id = await start(simcord_env, bot)
    await arrange(
        bot,
        game_id,
        current=0,
        hands={0: ["Traitor", "R1", "R2", "R3", "O1", "O2"]},
        sides={2: (["G1", "G2", "G3"], ["P7", "Reinforcement"]), 6: ([], ["B9"])},
    )
    dm = await pick(p0, "st:card:", "Traitor", game_id)
    assert option_values(component(dm, "st:tgt:")) == ["2.P7", "6.B9"]  # clan cards only
    dm = await pick(p0, "st:tgt:", "6.B9", game_id)
    dests = option_values(component(dm, "st:dst:"))
    assert "2" not in dests and "6" in dests and "discard" not in dests  # side 2 is full
    await pick(p0, "st:dst:", "6", game_id)
    await press(p0, "st:mv:", game_id, label="Play Traitor")
    await draw_from(p0, "clan", game_id)
    game = await state(bot, game_id)
    assert [str(c) for c in game.stone(6).sides[0]] == ["B9"] and game.stone(6).sides[1] == ()
    assert "alice turned a Traitor: B9 from 6 to 6" in " ".join(board(channel).split())


async def test_switching_cards_and_stale_steps(simcord_env, simcord_bot):
    bot = simcord_bot
    channel, (p0, _), game_id = await start(simcord_env, bot)
    await arrange(
        bot,
        game_id,
        current=0,
        hands={0: ["Traitor", "R1", "R2", "R3", "O1", "O2"]},
        sides={6: ([], ["B9"])},
    )
    # Half a Traitor in an ephemeral "/schotten hand" reply...
    shown = await p0.slash(channel, "schotten hand")
    stale = shown.response
    await p0.select(stale, ["Traitor"], custom_id=component(stale, "st:card:")["custom_id"])
    await p0.select(stale, ["6.B9"], custom_id=component(stale, "st:tgt:")["custom_id"])
    assert component(stale, "st:dst:")
    # ... while in the DM she picks Traitor, then changes her mind: back to a clan card.
    await pick(p0, "st:card:", "Traitor", game_id)
    dm = await pick(p0, "st:card:", "R1", game_id)
    assert "st:tgt:" not in str(comps(dm)) and component(dm, "st:stone:")
    await pick(p0, "st:stone:", "1", game_id)
    await press(p0, "st:play:", game_id)
    # The Traitor step from before that move is refused and changes nothing.
    version = (await bot.service.get(game_id)).version
    result = await p0.select(stale, ["6"], custom_id=component(stale, "st:dst:")["custom_id"])
    assert "earlier turn" in private_text(result)
    assert (await bot.service.get(game_id)).version == version


async def test_tactics_with_slash_commands(simcord_env, simcord_bot):
    bot = simcord_bot
    channel, (p0, p1), game_id = await start(simcord_env, bot)
    await arrange(
        bot,
        game_id,
        current=0,
        hands={0: ["Scout", "Mud", "R1", "R2", "R3", "O1"], 1: ["Traitor", "B1", "B2", "B3", "B4", "B5"]},
        sides={3: (["G5"], [])},
    )
    # /schotten play still works for terrain (and morale) cards.
    result = await p0.slash(channel, "schotten play", card="Mud", stone=2)
    assert result.ephemeral
    result = await p0.slash(channel, "schotten draw", deck="tactic")
    assert result.ephemeral
    game = await state(bot, game_id)
    assert game.stone(2).mud == 0 and game.current_player == 1
    # /schotten move suggests the caller's own legal moves, filtered by what is typed.
    choices = await p1.autocomplete(channel, "schotten move", "text", "traitor")
    assert choices and all(c["value"].startswith("traitor G5 3 ") for c in choices)
    assert choices[0]["name"].startswith("Traitor: their G5 from stone 3")
    result = await p1.slash(channel, "schotten move", text="traitor G5 3 4")
    assert result.ephemeral
    result = await p1.slash(channel, "schotten move", text="draw clan")
    game = await state(bot, game_id)
    assert [str(c) for c in game.stone(4).sides[1]] == ["G5"] and game.current_player == 0
    # A bad notation gets a helpful error and changes nothing.
    result = await p0.slash(channel, "schotten move", text="spy R7")
    assert result.ephemeral and 'I don\'t know the move "spy R7"' in (
        result.response.content + "".join(f.content for f in result.followups)
    )
    # Scout through slash commands: the drawn cards appear only in ephemeral replies.
    result = await p0.slash(channel, "schotten move", text="scout")
    for deck in ("clan", "tactic", "clan"):
        result = await p0.slash(channel, "schotten draw", deck=deck)
        assert result.ephemeral and all(f.ephemeral for f in result.followups)
    choices = await p0.autocomplete(channel, "schotten move", "text", "return")
    assert len(choices) == 25 and all(c["value"].startswith("return ") for c in choices)
    hand = [str(c) for c in (await state(bot, game_id)).hand(0)]
    back = [c for c in hand if not c.startswith(("R", "O"))][:2] or hand[:2]
    result = await p0.slash(channel, "schotten move", text=f"return {back[0]} {back[1]}")
    assert result.ephemeral
    game = await state(bot, game_id)
    assert game.current_player == 1 and len(game.hand(0)) == 6
    assert not set(back) & cards_in(public_text(channel))


async def test_tactics_from_the_ephemeral_controls(simcord_env, simcord_bot):
    """A player without DMs: "Show my hand" under the board, then the same steps."""
    bot = simcord_bot
    channel, (p0, _), game_id = await start(simcord_env, bot)
    await arrange(
        bot,
        game_id,
        current=0,
        hands={0: ["Deserter", "R1", "R2", "R3", "O1", "O2"]},
        sides={5: ([], ["P4"])},
    )
    boards = [m for m in channel.history() if "Show my hand" in str([r.to_dict() for r in m.components])]
    shown = await p0.click(boards[-1], label="Show my hand")
    assert shown.ephemeral
    message = shown.response
    select = component(message, "st:card:")
    step = await p0.select(message, ["Deserter"], custom_id=select["custom_id"])
    message = step.response or message
    target = component(message, "st:tgt:")
    step = await p0.select(message, ["5.P4"], custom_id=target["custom_id"])
    message = step.response or message
    done = await p0.click(message, custom_id=component(message, "st:mv:")["custom_id"])
    assert all(f.ephemeral for f in done.followups)
    game = await state(bot, game_id)
    assert game.stone(5).sides[1] == () and game.phase == "draw"


@pytest.mark.parametrize(
    "topic",
    ["leader", "reinforcement", "shield-bearer", "fog", "mud", "scout", "redeploy", "deserter", "traitor"],
)
async def test_rules_explain_each_tactic_card(simcord_env, simcord_bot, topic):
    _, channel, (alice, _) = setup_members(simcord_env)
    result = await alice.slash(channel, "schotten rules", topic=topic)
    assert result.ephemeral
    title = {"shield-bearer": "Shield-bearer"}.get(topic, topic.capitalize())
    assert f"**{title}**" in result.response.content
    assert len(result.response.content) <= 2000


async def test_rules_tactics_overview_names_the_commands(simcord_env, simcord_bot):
    _, channel, (alice, _) = setup_members(simcord_env)
    result = await alice.slash(channel, "schotten rules", topic="tactics")
    text = result.response.content
    for word in ("/schotten move", "/schotten draw", "topic:", "Scout", "Traitor"):
        assert word in text


# ------------------------------------------------------------------ whole games

MAX_MOVES = 600
TACTIC_NAMES = (
    "Leader",
    "Reinforcement",
    "ShieldBearer",
    "Fog",
    "Mud",
    "Scout",
    "Redeploy",
    "Deserter",
    "Traitor",
)


async def dm_tactics_turn(member: Any, rng: random.Random, game_id: int) -> str:
    """One step through the DM controls, tactic cards preferred: a claim, a card (with a
    ruse's target and destination), a draw from a random deck, Scout's return, or Pass."""
    message = dm_message(member, game_id)
    found = comps(message)

    def with_prefix(prefix: str) -> list[dict[str, Any]]:
        return [c for c in found if c.get("custom_id", "").startswith(prefix) and not c.get("disabled")]

    if with_prefix("st:ret:"):
        values = rng.sample(option_values(with_prefix("st:ret:")[0]), 2)
        dm = await pick(member, "st:ret:", values, game_id)
        buttons = [c["label"] for c in comps(dm) if c.get("custom_id", "").startswith("st:mv:")]
        await press(member, "st:mv:", game_id, label=rng.choice(buttons))
        return "return"
    if with_prefix("st:claim:"):
        no_public(
            await member.user.click(message, custom_id=rng.choice(with_prefix("st:claim:"))["custom_id"])
        )
        return "claim"
    if with_prefix("st:card:"):
        cards = option_values(with_prefix("st:card:")[0])
        tactics = [c for c in cards if c in TACTIC_NAMES]
        card = rng.choice(tactics if tactics and rng.random() < 0.8 else cards)
        dm = await pick(member, "st:card:", card, game_id)
        if any(c.get("custom_id", "").startswith("st:tgt:") for c in comps(dm)):
            dm = await pick(member, "st:tgt:", rng.choice(option_values(component(dm, "st:tgt:"))), game_id)
            if any(c.get("custom_id", "").startswith("st:dst:") for c in comps(dm)):
                await pick(member, "st:dst:", rng.choice(option_values(component(dm, "st:dst:"))), game_id)
            await press(member, "st:mv:", game_id)
        elif any(c.get("custom_id", "").startswith("st:mv:") for c in comps(dm)):
            await press(member, "st:mv:", game_id, label="Play Scout")
        else:
            stones = option_values(component(dm, "st:stone:"))
            # Mostly the leftmost free stone: sides fill up, claims come, the game ends sooner.
            await pick(member, "st:stone:", stones[0] if rng.random() < 0.7 else rng.choice(stones), game_id)
            await press(member, "st:play:", game_id)
        return f"play {card}"
    if with_prefix("st:draw:"):
        no_public(
            await member.user.click(message, custom_id=rng.choice(with_prefix("st:draw:"))["custom_id"])
        )
        return "draw"
    if with_prefix("st:pass:"):
        no_public(await member.user.click(message, custom_id=with_prefix("st:pass:")[0]["custom_id"]))
        return "pass"
    raise AssertionError(f"no control to use: {found}")


async def slash_tactics_turn(member: Any, channel: Any, rng: random.Random) -> str:
    """One step with slash commands only: a random suggestion of ``/schotten move``."""
    choices = await member.autocomplete(channel, "schotten move", "text", "")
    assert choices, "a player to move always has a suggestion"
    claims = [c["value"] for c in choices if c["value"].startswith("claim ")]
    value = claims[0] if claims else rng.choice(choices)["value"]
    result = await member.slash(channel, "schotten move", text=value)
    assert result.ephemeral and all(f.ephemeral for f in result.followups)
    return value


async def secrets_of(bot: Any, game_id: int) -> set[str]:
    """Every clan card nobody may see publicly: both hands and both decks."""
    game = await state(bot, game_id)
    d = game.to_dict()
    return {c for c in d["hands"][0] + d["hands"][1] + d["decks"]["clan"] + d["decks"]["tactic"]}


async def play_tactics_game(env, bot, channel, members, game_id, rng, log_tap, *, slash_for=()) -> Game:
    """Play to the end. After every turn (and every step of a Scout), check that no hidden
    card is in the channel or in a new log line, that each DM shows exactly its player's
    hand, and that the board fits in 40 columns."""
    seen_log = len(log_tap.lines)
    for _ in range(MAX_MOVES):
        before = await bot.service.get(game_id)
        if before.game.is_over:
            return before.game
        member = members[before.current_player]
        if member in slash_for:
            await slash_tactics_turn(member, channel, rng)
        else:
            await dm_tactics_turn(member, rng, game_id)
        now = await bot.service.get(game_id)
        scouting = "scout" in before.game.phase or "scout" in now.game.phase
        if now.game.current_player == before.current_player and not scouting:
            continue
        secret = await secrets_of(bot, game_id)
        leaked = secret & cards_in(public_text(channel))
        assert not leaked, f"hidden cards {leaked} visible in the channel"
        new_lines = "\n".join(log_tap.lines[seen_log:])
        seen_log = len(log_tap.lines)
        assert not secret & cards_in(new_lines), new_lines
        for p, m in enumerate(members):
            if m not in slash_for:
                dm = dm_message(m, game_id).content
                assert sorted(hand_in(dm)) == sorted(str(c) for c in now.game.hand(p))
        assert all(len(line) <= WIDTH for line in board_lines(channel))
    raise AssertionError("game did not end")


def tactics_played(game: Game) -> set[str]:
    out = set()
    for _, move in game.log:
        card = getattr(move, "card", None)
        if getattr(card, "is_tactic", False) and type(move).__name__ == "PlayCard":
            out.add(str(card))
        elif type(move).__name__ in ("Scout", "Redeploy", "Deserter", "Traitor"):
            out.add(type(move).__name__)
    return out


async def test_full_tactics_game_through_dm_controls(simcord_env, simcord_bot, log_tap):
    bot = simcord_bot
    channel, members, game_id = await start(simcord_env, bot)
    game = await play_tactics_game(simcord_env, bot, channel, members, game_id, random.Random(4), log_tap)
    assert game.is_over and f"Game #{game_id} is over" in channel.last_message.content
    # Every kind of tactic card went through the controls in this game.
    assert tactics_played(game) == set(TACTIC_NAMES), tactics_played(game)
    for member in members:
        assert not [c for c in comps(dm_message(member, game_id)) if not c.get("disabled")]


async def test_full_tactics_game_with_slash_commands(simcord_env, simcord_bot, log_tap):
    bot = simcord_bot
    channel, members, game_id = await start(simcord_env, bot)
    game = await play_tactics_game(
        simcord_env, bot, channel, members, game_id, random.Random(4), log_tap, slash_for=(members[1],)
    )
    assert game.is_over and f"Game #{game_id} is over" in channel.last_message.content
    # The slash-command player played tactic cards and chose decks too.
    bobs = [str(move) for player, move in game.log if player == 1]
    assert any(m.split()[0] in ("scout", "redeploy", "deserter", "traitor") for m in bobs), bobs
    assert "draw tactic" in bobs and "draw clan" in bobs


def test_tactic_controls_fit_discord_limits_and_only_offer_legal_moves():
    """Random tactics games: at every position the hand controls (with every ruse, target,
    destination and return choice) stay within Discord's limits, and every move a control
    can make is legal."""
    from cogs.table.layouts import hand_controls
    from cogs.table.requests import Selection
    from rules.game import GameOptions
    from rules.moves import parse_move

    def check(view: Any, legal: set[str], **selection: Any) -> discord.ui.View | None:
        controls = hand_controls(7, view.version, view, Selection(**selection))
        if controls is None:
            return None
        rows: dict[int, int] = {}
        for item in controls.children:
            rows[item._rendered_row or 0] = rows.get(item._rendered_row or 0, 0) + item.width
            custom_id = item.item.custom_id
            assert len(custom_id) <= 100
            if isinstance(item.item, discord.ui.Select):
                assert 1 <= len(item.item.options) <= 25
            if custom_id.startswith("st:mv:") and not custom_id.endswith(":-"):
                assert custom_id.split(":", 4)[4].replace("_", " ") in legal, custom_id
        assert len(rows) <= 5 and all(width <= 5 for width in rows.values())
        return controls

    def options(controls: Any, prefix: str) -> list[str]:
        for item in controls.children:
            if item.item.custom_id.startswith(prefix):
                return [o.value for o in item.item.options]
        return []

    for seed in range(3):
        rng = random.Random(seed)
        game = Game.new(seed, GameOptions(tactics=True))
        while not game.is_over:
            player = game.current_player
            view = game.view(player)
            legal = {str(m) for m in view.legal_moves()}
            controls = check(view, legal)
            if controls is not None:
                for card in options(controls, "st:card:"):
                    chosen = check(view, legal, card=card)
                    for target in options(chosen, "st:tgt:"):
                        step = check(view, legal, card=card, target=target)
                        for dest in options(step, "st:dst:"):
                            check(view, legal, card=card, target=target, dest=dest)
                values = options(controls, "st:ret:")
                if values:
                    check(view, legal, returning=tuple(rng.sample(values, 2)))
            game.apply(parse_move(rng.choice(sorted(legal))), player)


def test_more_targets_than_a_select_holds_are_chosen_stone_first():
    from cogs.table.layouts import hand_controls
    from cogs.table.requests import Selection
    from rules.game import GameOptions

    d = Game.new(1, GameOptions(tactics=True), first_player=0).to_dict()
    clan = d["decks"]["clan"]
    for stone in d["stones"]:  # 27 cards of player 0 on the table: 27 Redeploy targets
        stone["sides"][0] = [clan.pop() for _ in range(3)]
    d["decks"]["clan"].append(d["hands"][0][0])
    d["hands"][0][0] = "Redeploy"
    d["decks"]["tactic"].remove("Redeploy")
    game = Game.from_dict(d)
    view = game.view(0)

    def target_options(**selection: Any) -> list[Any]:
        controls = hand_controls(1, game.version, view, Selection(card="Redeploy", **selection))
        select = next(i.item for i in controls.children if i.item.custom_id.startswith("st:tgt:"))
        return select.options

    first = target_options()
    assert [o.value for o in first] == [str(s) for s in range(1, 10)]
    assert first[2].label.startswith("Stone 3 (") and len(first[2].label) <= 100
    cards = [str(c) for c in game.stone(3).sides[0]]
    second = target_options(target="3")
    assert [o.value for o in second] == ["1", "2", *(f"3.{c}" for c in cards), *map(str, range(4, 10))]
    controls = hand_controls(1, game.version, view, Selection(card="Redeploy", target=f"3.{cards[0]}"))
    dest = next(i.item for i in controls.children if i.item.custom_id.startswith("st:dst:"))
    assert [o.value for o in dest.options] == ["discard"]  # every own side is full


async def test_a_half_made_ruse_survives_a_restart(tmp_path):
    import simcord

    from bot.app import create_bot

    path = tmp_path / "tactics.sqlite"
    first = create_bot(database=path)
    async with simcord.run(first) as env:
        _, (p0, _), game_id = await start(env, first)
        await arrange(
            first,
            game_id,
            current=0,
            hands={0: ["Traitor", "R1", "R2", "R3", "O1", "O2"]},
            sides={6: ([], ["B9"])},
        )
        await pick(p0, "st:card:", "Traitor", game_id)
        await pick(p0, "st:tgt:", "6.B9", game_id)
        second = create_bot(database=path)
        await env.restart_bot(second)
        await first.db.close()
        # The old DM's selects and button, handled by the new process.
        await pick(p0, "st:dst:", "2", game_id)
        await press(p0, "st:mv:", game_id, label="Play Traitor")
        game = await state(second, game_id)
        assert [str(c) for c in game.stone(2).sides[0]] == ["B9"]
        await second.db.close()
