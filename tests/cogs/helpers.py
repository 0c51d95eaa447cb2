"""Drive the bot like two members would: through slash commands, buttons and selects.

Tests learn a hand only the way a player does: from their own DM or an ephemeral
reply. They read the game's true state from ``bot.service`` only to check the bot.
"""

from __future__ import annotations

import random
import re
from typing import Any

import simcord

CARD = re.compile(r"(?<![A-Za-z0-9])([ROYGBP](?:10|[1-9]))(?![0-9])")
HAND = re.compile(r"Your hand: (.*)")


def setup_members(env: simcord.Env, names: tuple[str, ...] = ("alice", "bob")) -> tuple[Any, Any, list[Any]]:
    guild = env.create_guild()
    channel = guild.create_text_channel("general")
    members = [guild.add_member(env.create_user(name)) for name in names]
    return guild, channel, members


def private_text(result: Any) -> str:
    """What only the member who acted sees: an ephemeral reply and ephemeral follow-ups
    (a click that edits its own message, or a public acknowledgement, is refused in an
    ephemeral follow-up)."""
    shown = [result.response] if result.ephemeral and result.response is not None else []
    shown += [f for f in result.followups if f.ephemeral]
    return "".join(m.content for m in shown)


def flat_components(message: Any) -> list[dict[str, Any]]:
    rows = message.components
    out: list[dict[str, Any]] = []
    for row in rows:
        row = row if isinstance(row, dict) else row.to_dict()
        out.extend(row.get("components", [row]))
    return out


def dm_message(member: Any, game_id: int | None = None) -> Any:
    """The bot's latest message in the member's DM, for ``game_id`` if given."""
    messages = [m for m in member.user.dm_channel.history() if m.author.bot]
    if game_id is not None:
        messages = [m for m in messages if f"Game #{game_id} against" in m.content]
    return messages[-1] if messages else None


def hand_in(text: str) -> list[str]:
    match = HAND.search(text)
    return match.group(1).split() if match else []


def cards_in(text: str) -> set[str]:
    return set(CARD.findall(text))


async def challenge_and_accept(env: simcord.Env, channel: Any, a: Any, b: Any, **options: Any) -> int:
    result = await a.slash(channel, "schotten challenge", opponent=b, **options)
    assert result.response is not None and not result.ephemeral
    accepted = await b.click(result.response, label="Accept")
    text = accepted.response.content
    found = re.search(r"Game #(\d+)", text)
    assert found is not None, text
    return int(found.group(1))


async def dm_turn(member: Any, rng: random.Random, game_id: int | None = None) -> str:
    """One turn through the DM controls: claim if a Claim button is there (usually),
    else pick a card and a stone and press Play, else Pass. Returns what was done."""
    message = dm_message(member, game_id)
    comps = flat_components(message)
    claims = [c for c in comps if c.get("custom_id", "").startswith("st:claim:")]
    if claims and rng.random() < 0.9:
        button = rng.choice(claims)
        result = await member.user.click(message, custom_id=button["custom_id"])
        _no_public(result)
        return f"claim via {button['label']}"
    selects = [c for c in comps if c.get("type") == 3 and c["custom_id"].startswith("st:card:")]
    if selects:
        card = rng.choice(selects[0]["options"])["value"]
        _no_public(await member.user.select(message, [card], custom_id=selects[0]["custom_id"]))
        message = dm_message(member, game_id)
        stone_select = next(c for c in flat_components(message) if c["custom_id"].startswith("st:stone:"))
        stone = rng.choice(stone_select["options"])["value"]
        _no_public(await member.user.select(message, [stone], custom_id=stone_select["custom_id"]))
        message = dm_message(member, game_id)
        play = next(c for c in flat_components(message) if c["custom_id"].startswith("st:play:"))
        assert not play.get("disabled")
        _no_public(await member.user.click(message, custom_id=play["custom_id"]))
        return f"play {card} {stone}"
    for prefix, done in (("st:draw:", "end turn"), ("st:pass:", "pass")):
        buttons = [c for c in comps if c.get("custom_id", "").startswith(prefix)]
        if buttons:
            _no_public(await member.user.click(message, custom_id=buttons[0]["custom_id"]))
            return done
    raise AssertionError(f"no control to use: {comps}")


def _no_public(result: Any) -> None:
    for followup in result.followups:
        assert followup.ephemeral, followup.content


async def slash_turn(member: Any, channel: Any, rng: random.Random) -> str:
    """One turn through slash commands, learning the hand from ``/schotten hand``."""
    shown = await member.slash(channel, "schotten hand")
    assert shown.ephemeral
    text = shown.response.content
    comps = flat_components(shown.response)
    claims = [c for c in comps if c.get("custom_id", "").startswith("st:claim:")]
    if claims and rng.random() < 0.9:
        stone = int(rng.choice(claims)["custom_id"].rsplit(":", 1)[1])
        result = await member.slash(channel, "schotten claim", stone=stone)
        assert result.ephemeral
        return f"claim {stone}"
    selects = [c for c in comps if c.get("type") == 3 and c["custom_id"].startswith("st:card:")]
    if selects:
        card = rng.choice(selects[0]["options"])["value"]
        assert card in hand_in(text)
        stones = next(c for c in comps if c["custom_id"].startswith("st:stone:"))
        stone = int(rng.choice(stones["options"])["value"])
        result = await member.slash(channel, "schotten play", card=card, stone=stone)
        assert result.ephemeral
        return f"play {card} {stone}"
    if any(c.get("custom_id", "").startswith("st:draw:") for c in comps):
        # No slash command draws: the button in the ephemeral reply ends the turn.
        button = next(c for c in comps if c["custom_id"].startswith("st:draw:"))
        result = await member.click(shown.response, custom_id=button["custom_id"])
        _no_public(result)
        return "end turn"
    result = await member.slash(channel, "schotten pass")
    assert result.ephemeral
    return "pass"
