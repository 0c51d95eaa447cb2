"""A whole tactics game at the table in Chromium, the other player in simcord: every kind
of tactic card (the morale cards, Fog and Mud, Scout's draws and return, Redeploy,
Deserter and Traitor) is played by tapping, each guided step by step from the seat's
legal moves. Before a turn the test may put the next tactic card into the seat's hand
(``arrange``, as the tactics table tests do); every move is made through the table."""

from __future__ import annotations

import random

import pytest
from playwright.async_api import expect

from tests.cogs.helpers import dm_message, dm_turn, hand_in
from tests.cogs.test_tactics_table import SEED, arrange, start
from tests.web.browser import browser, screenshot_path
from tests.web.table_player import TACTIC_NAMES, WAIT, open_seat, settled, shows, table_step

__all__ = ["browser"]  # the fixture

MAX_MOVES = 600


@pytest.fixture(autouse=True)
def fixed_seed(monkeypatch):
    monkeypatch.setattr("bot.games.service.secrets.randbits", lambda bits: SEED)


def uses(move, card: str) -> bool:
    """Whether ``move`` plays the tactic card named ``card``."""
    kind = type(move).__name__
    return kind == card or (kind == "PlayCard" and str(move.card) == card)


def played_by(game, seat: int) -> set[str]:
    """The tactic cards ``seat`` played."""
    return {name for who, move in game.log if who == seat for name in TACTIC_NAMES if uses(move, name)}


async def put_in_hand(bot, page, game_id: int, seat: int, card: str) -> bool:
    """Put ``card`` into ``seat``'s hand (for a clan card of it) and let the seat play a
    tactic card now; reload the page (the same version, changed in place). False if the
    card is nowhere to take it from (played already) or its move is not legal now."""
    record = await bot.service.get(game_id)
    hand = [str(c) for c in record.game.hand(seat)]
    if card not in hand:
        clan = [c for c in hand if c[0] in "ROYGBP" and c[1:].isdigit()]
        if not clan:
            return False
        hand.remove(clan[-1])
        hand.append(card)
    try:
        record = await arrange(bot, game_id, current=seat, hands={seat: hand}, tactics_played=(0, 0))
    except AssertionError:
        return False
    await page.reload()
    await shows(page, record.version)
    return any(uses(move, card) for move in record.game.legal_moves())


async def test_every_tactic_card_at_the_table(simcord_env, simcord_bot, browser):
    env, bot = simcord_env, simcord_bot
    _, members, game_id = await start(env, bot)
    seat = 0
    errors: list[str] = []
    page = await open_seat(browser, bot.web.links.seat(game_id, seat), errors)
    rng = random.Random(6)
    for _ in range(MAX_MOVES):
        record = await bot.service.get(game_id)
        if record.game.is_over:
            break
        await shows(page, record.version)
        if record.current_player != seat:
            await dm_turn(members[1 - seat], rng, game_id)
            await settled(bot, page)
            continue
        prefer: tuple[str, ...] = ()
        missing = [name for name in TACTIC_NAMES if name not in played_by(record.game, seat)]
        if record.game.phase == "play" and missing:
            for name in missing:
                if await put_in_hand(bot, page, game_id, seat, name):
                    prefer = (name,)
                    break
        done = await table_step(bot, page, rng, prefer=prefer)
        if (
            prefer
            and done.startswith(prefer[0])
            and prefer[0] in ("Redeploy", "Traitor", "Deserter", "Scout")
        ):
            await page.screenshot(path=str(screenshot_path(f"table-{prefer[0].lower()}")), full_page=True)
        now = await bot.service.get(game_id)
        if not now.game.is_over:  # Discord follows: the seat's DM shows the table's hand
            shown = [
                await card.get_attribute("aria-label") for card in await page.locator("#hand button").all()
            ]
            assert hand_in(dm_message(members[seat], game_id).content) == shown
    else:
        raise AssertionError("the game did not end")
    game = (await bot.service.get(game_id)).game
    assert played_by(game, seat) == set(TACTIC_NAMES), played_by(game, seat)
    await expect(page.locator("#replay")).to_be_visible(timeout=WAIT)
    assert errors == [], errors
