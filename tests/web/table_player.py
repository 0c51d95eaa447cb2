"""Playing at the table in Chromium the way a member would: by tapping the buttons the
page offers, found by their accessible names and states (what a screen reader reads).
The page decides nothing; these helpers only choose among what it lights up."""

from __future__ import annotations

import random
from typing import Any

from playwright.async_api import Locator, Page, expect

from bot.app import SchottenBot

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
WAIT = 10_000  # ms a page may take to show a change (a wait, not a measure)


async def open_seat(browser: Any, url: str, errors: list[str], **context: Any) -> Page:
    options = {"locale": "en-GB", "viewport": {"width": 1100, "height": 1200}, **context}
    page = await (await browser.new_context(**options)).new_page()
    page.on("dialog", lambda dialog: errors.append(f"dialog: {dialog.message}"))
    page.on("pageerror", lambda error: errors.append(f"script error: {error}"))
    page.on(
        "console",
        lambda message: (
            errors.append(f"console: {message.text}") if "Content Security Policy" in message.text else None
        ),
    )
    response = await page.goto(url)
    assert response is not None and response.status == 200, url
    return page


async def shows(page: Page, version: int) -> None:
    """Wait until the page shows the game at ``version`` or later (a move from anywhere;
    the stream sends the latest state, so a page may skip a version the AI moved past)."""
    await page.wait_for_function("v => Number(document.body.dataset.version) >= v", arg=version, timeout=WAIT)


async def settled(bot: SchottenBot, page: Page) -> None:
    """The page shows the game as stored, and what its last move owes Discord is shown."""
    assert bot.web is not None
    await bot.web.table.settled()
    await shows(page, (await bot.service.get(await _game_of(page))).version)


async def _game_of(page: Page) -> int:
    """The game a table shows: from its link, or (the Activity's frame) from the page."""
    if "/table/" in page.url:
        return int(page.url.split("/table/", 1)[1].split("/", 1)[0])
    return int(await page.locator("body").get_attribute("data-game") or 0)


def button(page: Page, name: str) -> Locator:
    return page.get_by_role("button", name=name, exact=True)


async def enabled(locator: Locator) -> list[Locator]:
    found = []
    for i in range(await locator.count()):
        item = locator.nth(i)
        if await item.is_enabled():
            found.append(item)
    return found


async def name_of(locator: Locator) -> str:
    return (await locator.get_attribute("aria-label")) or ""


async def tap_and_wait(bot: SchottenBot, page: Page, target: Locator) -> None:
    """Tap a control that makes a move; wait for the page to show the committed move."""
    before = await page.locator("body").get_attribute("data-version")
    await target.click()
    await expect(page.locator("body")).not_to_have_attribute("data-version", before or "", timeout=WAIT)
    await expect(page.locator("body")).to_have_attribute("data-busy", "0", timeout=WAIT)
    await settled(bot, page)


async def finish_ruse(bot: SchottenBot, page: Page, rng: random.Random) -> str:
    """After a ruse card was tapped: a lit card on the table, a lit stone or Discard,
    then Confirm."""
    targets = await enabled(page.locator("#board .slot, #board .terrain"))
    assert targets, "a ruse lights up its targets"
    target = rng.choice(targets)
    chosen = await name_of(target)
    await target.click()
    if not await button(page, "Confirm").count():
        stones = await enabled(page.locator("#board .stone-button"))
        discard = await enabled(button(page, "Discard"))
        choice = rng.choice(stones + discard)
        chosen += " -> " + await name_of(choice)
        await choice.click()
    await tap_and_wait(bot, page, button(page, "Confirm"))
    return chosen


async def table_step(bot: SchottenBot, page: Page, rng: random.Random, prefer: tuple[str, ...] = ()) -> str:
    """One move at the table: a claim (usually), Scout's return, a draw, a card (tactic
    cards named in ``prefer`` first) and where it goes, or Pass. Returns what was done."""
    body = page.locator("body")
    await expect(body).to_have_attribute("data-turn", "mine", timeout=WAIT)
    phase = await body.get_attribute("data-phase")
    claims = await enabled(page.locator("button.claim"))
    if claims and rng.random() < 0.9:
        claim = rng.choice(claims)
        name = await name_of(claim)
        await tap_and_wait(bot, page, claim)
        return name
    if phase == "scout_return":
        cards = await enabled(page.locator("#hand button"))
        for card in rng.sample(cards, 2):
            await card.click()
        await tap_and_wait(bot, page, button(page, "Put back"))
        return "put back"
    hand = await enabled(page.locator("#hand button"))
    if phase == "play" and hand:
        preferred = [card for card in hand if await name_of(card) in prefer]
        card = rng.choice(preferred or hand)
        name = await name_of(card)
        await card.click()
        if name == "Scout":
            await tap_and_wait(bot, page, button(page, "Confirm"))
            return "Scout"
        if name in ("Redeploy", "Deserter", "Traitor"):
            return f"{name}: " + await finish_ruse(bot, page, rng)
        stones = await enabled(page.locator("#board .stone-button"))
        assert stones, f"{name} lights up stones"
        stone = stones[0] if rng.random() < 0.7 else rng.choice(stones)
        where = await name_of(stone)
        await tap_and_wait(bot, page, stone)
        return f"{name} at {where}"
    decks = await enabled(page.locator("#decks button"))
    if decks:
        deck = rng.choice(decks)
        name = await name_of(deck)
        await tap_and_wait(bot, page, deck)
        return name
    for control in ("End turn", "Pass"):
        if await enabled(button(page, control)):
            await tap_and_wait(bot, page, button(page, control))
            return control
    raise AssertionError(f"nothing to tap: {await page.locator('#actions').inner_text()}")
