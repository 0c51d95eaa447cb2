"""Command names, descriptions, option names and choices in Discord's command picker,
in each user's language: discord.py's ``app_commands.Translator`` fed by the catalogue.

Every such string is declared with :func:`text` or :func:`name` (a ``locale_str``
carrying its catalogue key); the translator answers for the languages the bot speaks
and leaves the rest to the English default. A translated name that Discord would refuse
(uppercase, a space, over 32 characters) is not used: the English name stays.
"""

from __future__ import annotations

import re

import discord
from discord import app_commands

from bot.text import i18n
from bot.text.catalogue import t_in

NAME = re.compile(r"^[-_\w]{1,32}$")  # Discord's rule for names, lowercase letters only
MAX_DESCRIPTION = 100
_NAMES = (
    app_commands.TranslationContextLocation.command_name,
    app_commands.TranslationContextLocation.group_name,
    app_commands.TranslationContextLocation.parameter_name,
)


def text(key: str) -> app_commands.locale_str:
    """A description or a choice: the English text, translated by ``key``."""
    return app_commands.locale_str(t_in(i18n.ENGLISH, key), key=key)


def name(key: str) -> app_commands.locale_str:
    """A command's (``cmd.name.*``) or an option's (``opt.*``) name."""
    return app_commands.locale_str(t_in(i18n.ENGLISH, key), key=key)


def valid_name(candidate: str) -> bool:
    return bool(NAME.match(candidate)) and candidate == candidate.lower()


class CatalogueTranslator(app_commands.Translator):
    async def translate(
        self,
        string: app_commands.locale_str,
        locale: discord.Locale,
        context: app_commands.TranslationContextTypes,
    ) -> str | None:
        key = string.extras.get("key")
        language = i18n.normalize(locale.value)
        if not isinstance(key, str) or language == i18n.ENGLISH or i18n.translated(key, language) is None:
            return None
        translated = t_in(language, key)
        if context.location in _NAMES:
            return translated if valid_name(translated) else None
        return translated[:MAX_DESCRIPTION]


__all__ = ["CatalogueTranslator", "name", "text", "valid_name"]
