"""The board in words next to its picture (live page, its events, the replay): every
stone's cards of both sides, the owner, the decks and whose turn, in the viewer's
language, and never a card of a hand or the deck."""

from __future__ import annotations

import html
import json
import random
import re

from bot.text import i18n
from bot.text.notation import card_text
from tests.cogs.helpers import challenge_and_accept, dm_turn, setup_members
from tests.web.helpers import everything_served, first_event, get
from tests.web.test_pages import HOSTILE, hidden_cards, scan

ITEM = re.compile(r"<li>(.*?)</li>")
FORMATION = re.compile(r"\((sum|run|colour|three of a kind|colour run), \d+\)")


def described(page: str) -> list[str]:
    block = page.split('<ul id="description">', 1)[1].split("</ul>", 1)[0]
    return [html.unescape(item) for item in ITEM.findall(block)]


def check_stones(lines: list[str], public, names, word: str = "Stone") -> None:
    for stone in public.stones:
        line = next(line for line in lines if line.startswith(f"{word} {stone.number}:"))
        for seat in (0, 1):
            for card in stone.sides[seat]:
                assert card_text(card) in line, (card, line)
            assert names[seat] in line
        if stone.owner is not None:
            assert names[stone.owner] in line.rsplit(";", 1)[1]


async def test_the_board_is_described_in_words_and_hides_the_hands(simcord_env, simcord_bot):
    env, bot = simcord_env, simcord_bot
    _, channel, (alice, bob) = setup_members(env, HOSTILE)
    game_id = await challenge_and_accept(env, channel, alice, bob)  # dm_turn plays no tactics
    by_id = {alice.id: alice, bob.id: bob}
    rng = random.Random(13)
    watch = bot.web.links.watch(game_id)
    formations = 0
    while not (record := await bot.service.get(game_id)).game.is_over:
        public = record.game.public_view()
        served = await everything_served(watch)
        scan(served, await hidden_cards(bot, game_id), HOSTILE)  # the description included
        lines = described(served[0][1].decode())
        check_stones(lines, public, HOSTILE)
        to_play = HOSTILE[public.current_player]
        assert lines[0] == f"{to_play} to play"
        assert any(line.startswith("Deck: ") for line in lines)
        formations += sum(bool(FORMATION.search(line)) for line in lines)
        event = json.loads((await first_event(watch + "/events")).split("data: ", 1)[1])
        assert event["description"] == lines
        await dm_turn(by_id[record.current_user], rng, game_id)
    assert formations > 0  # complete sides name their formation

    # In German, on the replay: the last position's board, stone by stone.
    status, body, _ = await get(bot.web.links.replay(game_id), **{"Accept-Language": "de"})
    assert status == 200
    public = record.game.public_view()
    with i18n.use("de"):
        check_stones(described(body.decode()), public, HOSTILE, word="Stein")
