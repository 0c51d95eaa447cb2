"""A replay steps a turn at a time without reloading: a turn (a card played and the card
drawn, the claims around it) is one step, a move in the list jumps to its turn, the
address names the position (?step=N), the arrow keys still work, and without the script
the ?step links still step the replay on the server."""

from __future__ import annotations

import json
import random

from playwright.async_api import expect

from bot.web.replay_steps import neighbours, turn_ends, turn_of
from tests.cogs.helpers import challenge_and_accept, setup_members
from tests.web.browser import browser, screenshot_path
from tests.web.helpers import get
from tests.web.test_pages import HOSTILE, scan
from tests.web.test_phone_widths import play_to_the_end

__all__ = ["browser"]  # the fixture


def test_a_turn_is_one_players_moves_in_a_row():
    players = [0, 0, 1, 1, 1, 0, 1]
    assert turn_ends(players) == [0, 2, 5, 6, 7]
    assert turn_ends([]) == [0]
    ends = turn_ends(players)
    assert [turn_of(ends, step) for step in range(8)] == [0, 0, 1, 1, 1, 2, 3, 4]
    assert neighbours(ends, 0) == (0, 2)
    assert neighbours(ends, 3) == (2, 5)  # a link inside a turn: to the turns around it
    assert neighbours(ends, 5) == (2, 6)
    assert neighbours(ends, 7) == (6, 7)


async def test_a_replay_steps_by_turn_without_reloading(simcord_env, simcord_bot, browser):
    env, bot = simcord_env, simcord_bot
    _, channel, (alice, bob) = setup_members(env, HOSTILE)
    game_id = await challenge_and_accept(env, channel, alice, bob)
    await play_to_the_end(bot, {alice.id: alice, bob.id: bob}, game_id, random.Random(5))
    log = (await bot.service.get(game_id)).game.log
    ends = turn_ends([player for player, _ in log])
    turns = len(ends) - 1
    assert turns < len(log)  # draws are no steps of their own
    url = bot.web.links.replay(game_id)

    # The positions the script steps through: public at the end of a game, names as JSON.
    status, body, headers = await get(f"{url}/positions.json")
    assert status == 200 and headers["Content-Type"].startswith("application/json")
    positions = json.loads(body)
    assert positions["ends"] == ends and len(positions["positions"]) == turns + 1
    scan([(f"{url}/positions.json", body)], set(), ())

    context = await browser.new_context(locale="en-GB", viewport={"width": 390, "height": 844})
    page = await context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    await page.goto(url + "?step=0")
    await expect(page.locator("body")).to_have_attribute("data-stepping", "1")
    await expect(page.locator("#moves li")).to_have_count(turns)
    # A turn is one line: no line is only a draw.
    lines = await page.locator("#moves li").all_inner_texts()
    assert not [line for line in lines if line.endswith("drew a card") and ";" not in line]
    assert any("drew a card" in line and "played" in line for line in lines)
    await page.evaluate("window.notReloaded = true")
    await page.evaluate("window.scrollTo(0, 200)")

    await page.keyboard.press("ArrowRight")
    await expect(page.locator("#step")).to_have_text(f"Step 1 of {turns}")
    assert page.url.endswith(f"?step={ends[1]}")
    path = url[url.index("/replay/") :]
    assert await page.locator("#board").get_attribute("src") == f"{path}/board/{ends[1]}.png"
    await page.keyboard.press("ArrowRight")
    await expect(page.locator("#step")).to_have_text(f"Step 2 of {turns}")
    await page.keyboard.press("ArrowLeft")
    await expect(page.locator("#step")).to_have_text(f"Step 1 of {turns}")
    assert await page.evaluate("window.scrollY") == 200  # no jump to the top
    await page.locator("#moves li a").nth(4).click()  # the fifth turn
    await expect(page.locator("#step")).to_have_text(f"Step 5 of {turns}")
    await expect(page.locator("#moves li.current")).to_have_text(lines[4])
    assert page.url.endswith(f"?step={ends[5]}")
    await page.locator("#forward").click()
    await expect(page.locator("#step")).to_have_text(f"Step 6 of {turns}")
    await page.keyboard.press("End")
    await expect(page.locator("#step")).to_have_text(f"Step {turns} of {turns}")
    await expect(page.locator("#status")).to_contain_text("wins")
    assert page.url.endswith(f"?step={len(log)}")
    assert await page.evaluate("window.notReloaded") is True
    await page.screenshot(path=str(screenshot_path("replay-stepped")), full_page=True)

    # The address names the position: opened again, it shows the same turn.
    await page.goto(url + f"?step={ends[5]}")
    await expect(page.locator("#step")).to_have_text(f"Step 5 of {turns}")
    await context.close()

    # Without the script the links step on the server, a turn at a time.
    plain = await browser.new_context(locale="en-GB", java_script_enabled=False)
    page = await plain.new_page()
    await page.goto(url + "?step=0")
    await page.locator("#forward").click()
    await expect(page.locator("#step")).to_have_text(f"Step 1 of {turns}")
    assert page.url.endswith(f"?step={ends[1]}")
    await page.locator("#moves li a").nth(2).click()
    await expect(page.locator("#step")).to_have_text(f"Step 3 of {turns}")
    await plain.close()
    assert errors == []
