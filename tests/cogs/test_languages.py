"""A whole game between a German- and a French-speaking player on a German server.

simcord sends every interaction with ``locale`` and ``guild_locale`` set to ``en-US``;
:func:`speaking` makes its payloads carry each user's and each server's locale instead,
as Discord does.
"""

from __future__ import annotations

import random
import re
import string
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import discord
import pytest
import simcord.interactions

from bot.text import i18n
from bot.text.catalogue import CATALOGUE, t_in
from bot.text.i18n import Plural
from bot.text.notation import card_text
from rules.cards import ClanCard
from tests.cogs.helpers import flat_components

MAX_TURNS = 200


@contextmanager
def speaking(users: dict[int, str], guilds: dict[int, str]) -> Iterator[None]:
    """Interactions carry these users' locales and these servers' locales."""
    original = simcord.interactions.base_payload

    def base_payload(backend: Any, **kwargs: Any) -> Any:
        record, payload = original(backend, **kwargs)
        payload["locale"] = users.get(kwargs["user_id"], "en-US")
        if kwargs.get("guild_id") is not None:
            payload["guild_locale"] = guilds.get(kwargs["guild_id"], "en-US")
        return record, payload

    simcord.interactions.base_payload = base_payload
    try:
        yield
    finally:
        simcord.interactions.base_payload = original


def english_fragments() -> set[str]:
    """Stretches of English text from the catalogue long enough to be telling (three
    words or more), except where a language keeps the English words."""
    fragments = set()
    for key, english in CATALOGUE.items():
        forms = [english.one, english.other] if isinstance(english, Plural) else [english]
        kept = " ".join(t_in(language, key) for language in ("de", "fr"))
        for form in forms:
            for literal, *_ in string.Formatter().parse(form):
                for piece in re.split(r"[*`\n()]+", literal):
                    piece = piece.strip(" .,:;!?-")
                    if len(piece.split()) >= 3 and piece not in kept:
                        fragments.add(piece)
    return fragments


def dm_of(member: Any, message_id: int | None) -> Any:
    return next((m for m in member.user.dm_channel.history() if m.id == message_id), None)


async def dm_turn(bot: Any, member: Any, game_id: int, rng: random.Random) -> None:
    """One turn through the DM controls, found by their custom ids only."""
    record = await bot.service.get(game_id)
    message = dm_of(member, record.dm_message_ids[record.player_of(member.id)])
    assert message is not None
    comps = flat_components(message)
    ids = [c.get("custom_id", "") for c in comps]
    claims = [i for i in ids if i.startswith("st:claim:")]
    if claims:
        await member.user.click(message, custom_id=rng.choice(claims))
        return
    select = next((c for c in comps if c.get("custom_id", "").startswith("st:card:")), None)
    if select is not None:
        await member.user.select(
            message, [rng.choice(select["options"])["value"]], custom_id=select["custom_id"]
        )
        message = dm_of(member, message.id)
        stones = next(c for c in flat_components(message) if c["custom_id"].startswith("st:stone:"))
        await member.user.select(
            message, [rng.choice(stones["options"])["value"]], custom_id=stones["custom_id"]
        )
        message = dm_of(member, message.id)
        play = next(c for c in flat_components(message) if c["custom_id"].startswith("st:play:"))
        await member.user.click(message, custom_id=play["custom_id"])
        return
    button = next(i for i in ids if i.startswith(("st:draw:", "st:pass:")))
    await member.user.click(message, custom_id=button)


def all_text(messages: Any) -> str:
    parts = []
    for message in messages:
        parts.append(message.content)
        parts.extend(str(row.to_dict()) for row in message.components)
    return "\n".join(parts)


@pytest.mark.filterwarnings("ignore::DeprecationWarning")
async def test_a_german_and_a_french_player_on_a_german_server(simcord_env: Any, simcord_bot: Any) -> None:
    env, bot = simcord_env, simcord_bot
    guild = env.create_guild(preferred_locale="de")
    channel = guild.create_text_channel("allgemein")
    anna = guild.add_member(env.create_user("anna"))
    louis = guild.add_member(env.create_user("louis"))
    rng = random.Random(4)
    with speaking({anna.id: "de", louis.id: "fr"}, {guild.id: "de"}):
        offer = await anna.slash(channel, "schotten challenge", opponent=louis)
        assert t_in("de", "challenge.accept") in str(flat_components(offer.response))
        accepted = await louis.click(offer.response, custom_id=next(
            c["custom_id"] for c in flat_components(offer.response) if c["custom_id"].endswith(":accept")
        ))  # fmt: skip
        game_id = int(re.search(r"#(\d+)", accepted.response.content)[1])

        shown_de = await anna.slash(channel, "schotten hand")
        shown_fr = await louis.slash(channel, "schotten hand")
        assert shown_de.ephemeral and t_in("de", "hand.title", game_id=game_id, opponent="louis") in (
            shown_de.response.content
        )
        assert shown_fr.ephemeral and t_in("fr", "hand.title", game_id=game_id, opponent="anna") in (
            shown_fr.response.content
        )
        by_id = {anna.id: anna, louis.id: louis}
        for _ in range(MAX_TURNS):
            record = await bot.service.get(game_id)
            if record.game.is_over:
                break
            await dm_turn(bot, by_id[record.current_user], game_id, rng)
            record = await bot.service.get(game_id)
            with i18n.use("de"):  # no card of a hand in the channel, as it shows cards
                secret = {card_text(c) for p in (0, 1) for c in record.game.hand(p)}
            public = all_text(channel.history())
            assert not {w for w in re.findall(r"[\w-]+", public) if w in secret}
        assert record.game.is_over

    public = all_text(channel.history())
    german_dm = all_text(m for m in anna.user.dm_channel.history() if m.author.bot)
    french_dm = all_text(m for m in louis.user.dm_channel.history() if m.author.bot)
    assert t_in("de", "board.show_hand") in public and f"#{game_id}" in public
    assert t_in("de", "hand.over", result="").strip() in german_dm
    assert t_in("fr", "hand.over", result="").strip() in french_dm
    english = english_fragments()
    for where, text in (("channel", public), ("German DMs", german_dm), ("French DMs", french_dm)):
        found = sorted(fragment for fragment in english if fragment in text)
        assert found == [], f"English in the {where}: {found[:5]}"
    for where, text in (("channel", public), ("German DMs", german_dm)):
        assert t_in("fr", "hand.your_turn") not in text, where


async def test_a_player_and_a_server_choose_their_language(simcord_env: Any, simcord_bot: Any) -> None:
    env, bot = simcord_env, simcord_bot
    guild = env.create_guild()
    channel = guild.create_text_channel("general")
    admins = guild.create_role("admins", permissions=discord.Permissions(manage_guild=True))
    owner = guild.add_member(env.create_user("olga"), roles=[admins])
    guest = guild.add_member(env.create_user("gus"))
    with speaking({}, {guild.id: "en-US"}):
        chosen = await guest.slash(channel, "schotten language", language="fr")
        assert chosen.ephemeral and chosen.response.content == t_in(
            "fr", "language.set_me", language=t_in("fr", "language.name.fr")
        )
        assert (await guest.slash(channel, "schotten games")).response.content == t_in("fr", "games.none")
        assert await bot.languages.for_user(guest.id) == "fr"
        refused = await guest.slash(channel, "schotten language", language="de", server=True)
        assert refused.ephemeral and t_in("fr", "error.language_manage_server") in refused.response.content
        assert await bot.languages.for_guild(guild.id) == "en"
        server = await owner.slash(channel, "schotten language", language="de", server=True)
        assert server.ephemeral and server.response.content == t_in(
            "en", "language.set_server", language="Deutsch"
        )
        assert await bot.languages.for_guild(guild.id) == "de"
        assert await bot.languages.for_user(owner.id) == "en"  # the server's language is not hers
        back = await guest.slash(channel, "schotten language", language="auto")
        english = t_in("en", "language.name.en")
        assert back.response.content == t_in("en", "language.set_me_auto", language=english)


async def test_a_refusal_names_a_card_as_typed_in_german(simcord_env: Any, simcord_bot: Any) -> None:
    # Was: "G1" (Gelb) typed in German answered "Du hast Y1 nicht auf der Hand".
    env, bot = simcord_env, simcord_bot
    guild = env.create_guild(preferred_locale="de")
    channel = guild.create_text_channel("allgemein")
    anna = guild.add_member(env.create_user("anna"))
    louis = guild.add_member(env.create_user("louis"))
    with speaking({anna.id: "de", louis.id: "de"}, {guild.id: "de"}):
        offer = await anna.slash(channel, "schotten challenge", opponent=louis)
        await louis.click(offer.response, custom_id=next(
            c["custom_id"] for c in flat_components(offer.response) if c["custom_id"].endswith(":accept")
        ))  # fmt: skip
        (record,) = await bot.service.active_games_for(anna.id)
        mover = {anna.id: anna, louis.id: louis}[record.current_user]
        hand = record.game.hand(record.game.current_player)
        value = next(v for v in range(1, 10) if ClanCard("Y", v) not in hand)
        refused = await mover.slash(channel, "schotten play", card=f"G{value}", stone=1)
    text = refused.response.content
    assert refused.ephemeral and f"G{value}" in text and f"Y{value}" not in text, text
    assert text == t_in("de", "error.card_not_in_hand", card=f"G{value}")
    assert (await bot.service.get(record.id)).version == record.version  # nothing changed
