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

import pytest

from bot.render import WIDTH, render_board
from cogs.table import table_for
from rules.cards import CARDS_BY_ID, parse_card
from rules.game import Game
from tests.cogs.helpers import (
    cards_in,
    challenge_and_accept,
    dm_message,
    flat_components,
    hand_in,
    setup_members,
)
from tests.cogs.test_full_game import log_tap, public_text  # noqa: F401 (fixture)

SEED = 20261122


@pytest.fixture(autouse=True)
def fixed_seed(monkeypatch):
    monkeypatch.setattr("bot.service.secrets.randbits", lambda bits: SEED)


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
    game = Game.from_dict(d)
    record = dataclasses.replace(record, game=game)
    await bot.db.save_game_state(
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
    bot.service._cache[game_id] = record
    table = table_for(bot)
    getattr(table, "_views", {}).clear()  # views memoised by version: this one changed in place
    await table._publish(record, [], turn_changed=False)
    return record


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
    channel, (p0, p1), game_id = await start(simcord_env, simcord_bot)
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
    back = [drawn[1], drawn[2]]
    dm = await pick(p0, "st:ret:", back, game_id)
    dm = await press(p0, "st:mv:", game_id, label="Put back")
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
