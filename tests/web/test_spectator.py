"""The watch page is the spectator's table: everything it serves (the page with its data
block, its JSON, its event stream) shows both hands as counts only and never a card of
a hand or of a deck, in a base game and in a tactics game played with every kind of
move; the tactic cards in each hand are counted, as their backs show."""

from __future__ import annotations

import json
import random
import re
from typing import Any

import pytest

from bot.app import SchottenBot
from bot.text.notation import card_text
from rules.cards import CARDS_BY_ID
from rules.moves import Deserter, PlayCard, Redeploy, Scout, Traitor
from tests.cogs.helpers import challenge_and_accept, setup_members
from tests.web.helpers import everything_served
from tests.web.test_pages import CARD, HOSTILE, TOKEN

BY_ID = {str(card): card for card in CARDS_BY_ID if card is not None}
RUSES = (Scout, Redeploy, Deserter, Traitor)
DATA = re.compile(r'<script type="application/json" id="watch-data">(.*?)</script>', re.S)


def public_ids(game: Any) -> set[str]:
    """The cards everybody sees: the stones' sides, their terrain and the discards."""
    public = game.public_view()
    shown = {str(card) for stone in public.stones for side in stone.sides for card in side}
    shown |= {str(card) for stone in public.stones for card, _ in stone.terrain}
    shown |= {str(card) for _, card in public.discards}
    return shown


def card_ids(value: Any) -> set[str]:
    """Every card a JSON value names (a card is an object with an ``id``)."""
    if isinstance(value, dict):
        found = {value["id"]} if isinstance(value.get("id"), str) else set()
        return found.union(*(card_ids(item) for item in value.values()))
    if isinstance(value, list):
        return set().union(*(card_ids(item) for item in value))
    return set()


def states_served(served: list[tuple[str, bytes]]) -> list[tuple[str, dict[str, Any]]]:
    """The spectator's states: the page's data block, the JSON, the stream's first event."""
    found = []
    for url, data in served:
        if url.split("?")[0].endswith(".png"):
            continue
        text = data.decode()
        if url.endswith("/events"):
            found.append((url, json.loads(text.split("\n\n", 1)[0].split("data: ", 1)[1])))
        elif url.endswith("/state"):
            found.append((url, json.loads(text)["state"]))
        elif block := DATA.search(text):
            found.append((url, json.loads(block.group(1))["state"]))
    return found


async def check_watch(bot: SchottenBot, game_id: int) -> None:
    game = (await bot.service.get(game_id)).game
    hands = [set(map(str, game.hand(seat))) for seat in (0, 1)]
    decks = [str(card) for card in game._clan_deck + game._tactic_deck]  # their order is hidden too
    public = public_ids(game)
    hidden = (hands[0] | hands[1] | set(decks)) - public  # two Leaders share a name
    assert hidden
    served = await everything_served(bot.web.links.watch(game_id))
    assert any(url.endswith("/state") for url, _ in served) and any(u.endswith("/events") for u, _ in served)
    # The clan cards, wherever they are written (a page, a description, a move's text).
    clan = {card for card in hidden if CARD.fullmatch(card)}
    for url, data in served:
        if url.split("?")[0].endswith(".png"):
            continue  # the picture: the public view's (test_pages)
        leaked = clan & set(CARD.findall(TOKEN.sub("", data.decode())))
        assert not leaked, f"{leaked} of a hand or a deck at {url}"
    # Every card a state names, and the tactic cards' names in its texts.
    shown_names = {card_text(card) for card in CARDS_BY_ID if card is not None and str(card) in public}
    hidden_names = {card_text(BY_ID[card]) for card in hidden if not CARD.fullmatch(card)}
    hidden_names -= shown_names  # a name two cards share (Leader) is out once one is
    states = states_served(served)
    assert {url.rsplit("/", 1)[1] for url, _ in states} >= {"state", "events"} and len(states) >= 3
    for url, state in states:
        assert card_ids(state) <= public, (url, card_ids(state) - public)
        words = set(re.findall(r"[A-Za-z]+", json.dumps(state, ensure_ascii=False)))
        assert not hidden_names & words, (url, hidden_names & words)
        assert "hand" not in state  # no hand at all: both as counts
        assert [p["hand"] for p in state["players"]] == [len(game.hand(0)), len(game.hand(1))]
        tactics = [sum(card.is_tactic for card in game.hand(seat)) for seat in (0, 1)]
        assert [p["tactics"] for p in state["players"]] == tactics


@pytest.mark.parametrize("tactics", [False, True], ids=["base", "tactics"])
async def test_the_watch_page_never_shows_a_hand_or_the_deck(simcord_env, simcord_bot, tactics):
    env, bot = simcord_env, simcord_bot
    _, channel, (alice, bob) = setup_members(env, HOSTILE)
    game_id = await challenge_and_accept(env, channel, alice, bob, tactics=tactics)
    rng = random.Random(21)
    tactic_moves = 0
    for _ in range(60):
        record = await bot.service.get(game_id)
        await check_watch(bot, game_id)
        if record.game.is_over:
            break
        moves = record.game.legal_moves()
        # A tactic card half the time when there is one: its moves get shown too.
        tactic = [m for m in moves if isinstance(m, RUSES) or (isinstance(m, PlayCard) and m.card.is_tactic)]
        move = rng.choice(tactic if tactic and rng.random() < 0.5 else moves)
        tactic_moves += move in tactic
        await bot.service.apply(game_id, record.current_user, move, expected_version=record.version)
    assert (tactic_moves > 0) == tactics
