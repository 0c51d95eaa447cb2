"""The spectator's table in Chromium, and what a seat and a spectator see of the hands
in a tactics game: each hand's size with how many of its cards are tactic cards (their
backs differ), in English, German and French; the decks named by their name alone, the
count their description. Screenshots of the watch page (docs/watch-*.png) go to
tests/output/web/."""

from __future__ import annotations

import random

import pytest
from playwright.async_api import expect

from tests.cogs.test_tactics_table import SEED, arrange, start
from tests.web.browser import browser, screenshot_path
from tests.web.table_player import WAIT, button, open_seat, shows

__all__ = ["browser"]  # the fixture

# Per language: the hand of seat 1, the decks' names, a deck's description.
TACTICS_IN_HAND = {
    "en-GB": ("{name}: 7 cards in hand, tactic cards among them: 2", "Clan deck", "Tactic deck", "{n} left"),
    "de-DE": (
        "{name}: 7 Karten auf der Hand, davon Taktikkarten: 2",
        "Clanstapel",
        "Taktikstapel",
        "noch {n}",
    ),
    "fr-FR": (
        "{name} : 7 cartes en main, dont cartes tactiques : 2",
        "Pioche Clan",
        "Pioche Tactique",
        "encore {n}",
    ),
}


@pytest.fixture(autouse=True)
def fixed_seed(monkeypatch):
    monkeypatch.setattr("bot.games.service.secrets.randbits", lambda bits: SEED)


async def test_both_views_count_the_tactic_cards_in_a_hand(simcord_env, simcord_bot, browser):
    env, bot = simcord_env, simcord_bot
    _, _, game_id = await start(env, bot)
    # Seat 1 holds two tactic cards; seat 0 none.
    dealt = [str(card) for card in (await bot.service.get(game_id)).game.hand(1) if not card.is_tactic]
    record = await arrange(bot, game_id, current=0, hands={1: [*dealt[:5], "Scout", "Fog"]})
    hands = [record.game.hand(seat) for seat in (0, 1)]
    assert [sum(card.is_tactic for card in hand) for hand in hands] == [0, 2] and len(hands[1]) == 7
    clan, tactic = record.game.deck_sizes
    names = await bot.web.sources.names.pair(record.players, record.guild_id)
    errors: list[str] = []
    for locale, (line, clan_name, tactic_name, left) in TACTICS_IN_HAND.items():
        # The seat follows its member's language; the watch page the browser's.
        await bot.languages.choose("user", record.players[0], locale[:2])
        expected = line.format(name=names[1])
        seat = await open_seat(browser, bot.web.links.seat(game_id, 0), errors, locale=locale)
        await shows(seat, record.version)
        await expect(seat.locator("#opponent-hand")).to_have_text(expected)
        # A deck's name is its name; its count is its description.
        await expect(button(seat, clan_name)).to_have_accessible_description(left.format(n=clan))
        await expect(button(seat, tactic_name)).to_have_accessible_description(left.format(n=tactic))
        watch = await open_seat(browser, bot.web.links.watch(game_id), errors, locale=locale)
        await shows(watch, record.version)
        await expect(watch.locator(".player[data-seat='1'] .hand")).to_have_text(expected)
        await expect(watch.locator(".player[data-seat='0'] .hand")).to_contain_text(names[0])
        deck = watch.get_by_role("group", name=tactic_name, exact=True)
        await expect(deck).to_have_accessible_description(left.format(n=tactic))
        assert await watch.locator("#hand").count() == 0
        await seat.context.close()
        await watch.context.close()

    # The docs' screenshots of the watch page, a few turns in: a phone and a desktop.
    rng = random.Random(5)
    for _ in range(24):
        now = await bot.service.get(game_id)
        move = rng.choice(now.game.legal_moves())
        await bot.service.apply(game_id, now.current_user, move, expected_version=now.version)
    for name, (width, height) in (("watch-phone", (360, 740)), ("watch-desktop", (1280, 900))):
        size = {"width": width, "height": height}
        watch = await open_seat(browser, bot.web.links.watch(game_id), errors, viewport=size)
        await expect(watch.locator("body")).to_have_attribute("data-connection", "live", timeout=WAIT)
        assert await watch.evaluate("document.documentElement.scrollWidth") <= width
        await watch.screenshot(path=str(screenshot_path(name)), full_page=name == "watch-phone")
        await watch.context.close()
    assert errors == [], errors
