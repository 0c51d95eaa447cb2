"""Challenges: ``/schotten challenge``, its Accept/Decline buttons, and expiry.

A challenge is a row in the ``challenges`` table (so it survives a restart) and a public
message with two DynamicItem buttons keyed by the challenge id. Only the challenged
member can answer; an expired challenge is refused and its message updated by the
timer loop (:mod:`cogs.timers`).
"""

from __future__ import annotations

import asyncio
import logging
from datetime import UTC, datetime
from typing import Any

import discord

from bot.errors import ServiceError
from bot.text import t
from cogs.controls import challenge_view
from cogs.table import table_for
from rules.game import GameOptions

log = logging.getLogger(__name__)

_locks: dict[int, asyncio.Lock] = {}


def now() -> float:
    """Wall-clock seconds as discord.py sees them (simulated time in tests)."""
    return discord.utils.utcnow().timestamp()


def _variant(options: GameOptions) -> str:
    if options.tactics and options.claim_timing == "turn-start":
        return t("challenge.variant.both")
    if options.tactics:
        return t("challenge.variant.tactics")
    if options.claim_timing == "turn-start":
        return t("challenge.variant.turn_start")
    return ""


def challenge_text(
    challenger_id: int,
    opponent_id: int,
    options: GameOptions,
    expires_at: float,
    *,
    points: int | None = None,
    rematch_of: int | None = None,
) -> str:
    from rules.rulesets import get_ruleset

    variant = _variant(options)
    if points:
        variant += t("challenge.variant.match", points=points)
    return t(
        "challenge.message" if rematch_of is None else "rematch.message",
        challenger=f"<@{challenger_id}>",
        opponent=f"<@{opponent_id}>",
        ruleset=get_ruleset(options.ruleset).title,
        variant=variant,
        game_id=rematch_of,
        expires=discord.utils.format_dt(datetime.fromtimestamp(expires_at, tz=UTC), "R"),
    )


async def _has_game_here(bot: Any, a: int, b: int, channel_id: int) -> bool:
    for record in await bot.service.active_games_for(a):
        if record.channel_id == channel_id and b in record.players:
            return True
    return False


async def create_challenge(
    interaction: discord.Interaction,
    opponent: discord.abc.User,
    options: GameOptions,
    *,
    points: int | None = None,
    rematch_of: int | None = None,
) -> None:
    """``points``: a match to that many points (issue 6); ``rematch_of``: the game whose
    Rematch button made this challenge (only the message differs)."""
    bot: Any = interaction.client
    user = interaction.user
    if interaction.guild is None or interaction.channel_id is None:
        raise ServiceError("challenge_guild_only")
    if opponent.id == user.id:
        raise ServiceError("challenge_self")
    if bot.user is not None and opponent.id == bot.user.id:
        # Challenging the bot itself: a practice game against the AI, at once (issue 7).
        from cogs.practice import start_practice

        await start_practice(interaction, options)
        return
    if opponent.bot:
        raise ServiceError("challenge_bot")
    if not isinstance(opponent, discord.Member):
        raise ServiceError("not_a_member")
    if await _has_game_here(bot, user.id, opponent.id, interaction.channel_id):
        raise ServiceError("challenge_existing", opponent=opponent.display_name)
    for pending in await bot.db.pending_challenges(user_id=user.id):
        if (
            pending.channel_id == interaction.channel_id
            and {pending.challenger_id, pending.opponent_id} == {user.id, opponent.id}
            and pending.expires_at > now()
        ):
            raise ServiceError("challenge_pending", opponent=opponent.display_name)
    table = table_for(bot)
    table.remember_name(user)
    table.remember_name(opponent)
    created = now()
    expires_at = created + bot.settings.challenge_timeout
    row = await bot.db.create_challenge(
        guild_id=interaction.guild.id,
        channel_id=interaction.channel_id,
        challenger_id=user.id,
        opponent_id=opponent.id,
        options={**options.to_dict(), **({"points": points} if points else {})},
        now=created,
        expires_at=expires_at,
    )
    await interaction.response.send_message(
        challenge_text(user.id, opponent.id, options, expires_at, points=points, rematch_of=rematch_of),
        view=challenge_view(row.id),
        allowed_mentions=discord.AllowedMentions(users=[opponent], roles=False, everyone=False),
    )
    message = await interaction.original_response()
    await bot.db.set_challenge_message(row.id, message.id)


async def answer_challenge(interaction: discord.Interaction, challenge_id: int, *, accept: bool) -> None:
    bot: Any = interaction.client
    lock = _locks.setdefault(challenge_id, asyncio.Lock())
    async with lock:
        row = await bot.db.get_challenge(challenge_id)
        if row is None or row.status != "pending":
            raise ServiceError("challenge_gone")
        if interaction.user.id != row.opponent_id:
            raise ServiceError("challenge_not_yours", opponent=f"<@{row.opponent_id}>")
        if row.expires_at <= now():
            await expire(bot, row)
            raise ServiceError("challenge_gone")
        names = {"challenger": f"<@{row.challenger_id}>", "opponent": f"<@{row.opponent_id}>"}
        if not accept:
            if await bot.db.resolve_challenge(challenge_id, "declined"):
                await interaction.response.edit_message(
                    content=t("challenge.declined", **names),
                    view=challenge_view(challenge_id, disabled=True),
                    allowed_mentions=discord.AllowedMentions.none(),
                )
            return
        if await _has_game_here(bot, row.challenger_id, row.opponent_id, row.channel_id):
            await bot.db.resolve_challenge(challenge_id, "cancelled")
            raise ServiceError("challenge_existing", opponent=f"<@{row.challenger_id}>")
        # Creating the game and sending DMs may take a moment: answer within 3 s.
        await interaction.response.defer()
        table = table_for(bot)
        table.remember_name(interaction.user)
        match_id = None
        if row.options.get("points"):
            from cogs.matches import remember_match

            match = await bot.db.insert_match(
                guild_id=row.guild_id,
                channel_id=row.channel_id,
                players=(row.challenger_id, row.opponent_id),
                options=GameOptions.from_dict(row.options).to_dict(),
                target=int(row.options["points"]),
                now=now(),
            )
            remember_match(bot, match)
            match_id = match.id
        record = await bot.service.create_game(
            guild_id=row.guild_id,
            channel_id=row.channel_id,
            players=(row.challenger_id, row.opponent_id),
            options=GameOptions.from_dict(row.options),
            match_id=match_id,
        )
        await bot.db.resolve_challenge(challenge_id, "accepted", game_id=record.id)
    _locks.pop(challenge_id, None)
    await interaction.edit_original_response(
        content=t("challenge.accepted", game_id=record.id, **names),
        view=challenge_view(challenge_id, disabled=True),
        allowed_mentions=discord.AllowedMentions.none(),
    )
    await table.start(record)
    if await table._take_dm_tip(record.id, interaction.user.id):
        await interaction.followup.send(t("dm.closed"), ephemeral=True)


async def expire(bot: Any, row: Any) -> None:
    """Mark a pending challenge expired and say so on its message."""
    if not await bot.db.resolve_challenge(row.id, "expired"):
        return
    _locks.pop(row.id, None)
    if row.message_id is None:
        return
    channel = bot.get_channel(row.channel_id) or bot.get_partial_messageable(row.channel_id)
    try:
        await channel.get_partial_message(row.message_id).edit(
            content=t(
                "challenge.expired", challenger=f"<@{row.challenger_id}>", opponent=f"<@{row.opponent_id}>"
            ),
            view=challenge_view(row.id, disabled=True),
            allowed_mentions=discord.AllowedMentions.none(),
        )
    except discord.HTTPException:
        log.info("could not update expired challenge %s", row.id)


async def expire_due(bot: Any) -> int:
    rows = await bot.db.expired_challenges(now())
    for row in rows:
        await expire(bot, row)
    return len(rows)
