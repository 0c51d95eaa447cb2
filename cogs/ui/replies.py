"""One place that turns errors into ephemeral replies (Red-DiscordBot style).

Engine errors (``rules.errors.RulesError``) and service errors (``bot.games.errors.ServiceError``)
are the user's mistakes: they get their catalogue text, privately, and are not logged as
failures. A database that cannot be reached or used now
(``bot.storage.DatabaseUnavailable``: a timeout, a lost connection, a full disk) is no
bug either: the user is told plainly, and the log gets one WARNING line. Anything else
is a bug: the user gets a generic apology and the traceback goes to the log (never the
exception text to the user: it might name a card).
"""

from __future__ import annotations

import logging

import discord
from discord import app_commands

from bot.games.errors import AmbiguousGame, ServiceError, TypedText, UserRef
from bot.storage import DatabaseUnavailable, OutcomeUnknown
from bot.text import i18n
from bot.text.catalogue import t
from bot.text.notation import refusal_text
from cogs.ui import Interaction
from rules.errors import RulesError

log = logging.getLogger(__name__)

NO_MENTIONS = discord.AllowedMentions.none()
MAX_MESSAGE = 2000  # Discord refuses longer message content


class ComponentError(app_commands.AppCommandError):
    """A bug in a button or select, handed to the tree's error handler like a command's."""

    def __init__(self, original: Exception) -> None:
        self.original = original
        super().__init__(f"component failed: {type(original).__name__}")


def is_user_error(error: BaseException) -> bool:
    return isinstance(error, (RulesError, ServiceError, app_commands.CommandOnCooldown))


def is_database_error(error: BaseException) -> bool:
    """The database cannot be reached or used now: answered plainly, logged as a warning."""
    return isinstance(error, DatabaseUnavailable)


def unwrap(error: BaseException) -> BaseException:
    """The exception a command or component raised, without discord.py's wrapper."""
    if isinstance(error, app_commands.CommandInvokeError | app_commands.TransformerError):
        return error.__cause__ or error
    if isinstance(error, ComponentError):
        return error.original
    return error


def display_name(interaction: Interaction, user_id: int) -> str:
    """A member's name as a reply may show it: no markdown, no mention."""
    name = interaction.client.names.cached(user_id, interaction.guild_id)
    return discord.utils.escape_mentions(discord.utils.escape_markdown(name))


def message_for(error: BaseException, interaction: Interaction) -> str:
    if isinstance(error, AmbiguousGame):
        lines = []
        for record in error.games:
            opponent = record.opponent_of(interaction.user.id)
            name = display_name(interaction, opponent) if opponent is not None else ""
            lines.append(t("games.ambiguous_line", game_id=record.id, opponent=name).rstrip())
        return t("error.ambiguous_game", games="\n".join(lines))
    if isinstance(error, app_commands.CommandOnCooldown):
        return t("error.cooldown", seconds=round(error.retry_after, 1))
    if isinstance(error, OutcomeUnknown):  # the COMMIT may have happened: no "nothing changed"
        return t("error.database_outcome_unknown")
    if is_database_error(error):
        return t("error.database_unavailable")
    if is_user_error(error):

        def resolve(value: object) -> object:
            if isinstance(value, TypedText):
                return discord.utils.escape_mentions(discord.utils.escape_markdown(value.text))
            return display_name(interaction, value.id) if isinstance(value, UserRef) else value

        return refusal_text(error, resolve=resolve)
    return t("error.generic")


async def public_language(interaction: Interaction) -> str:
    """The language of a message everyone in the channel sees: the server's; in the
    bot's DM, the user's own."""
    if interaction.guild_id is None:
        return i18n.current()
    return await interaction.client.languages.for_guild(interaction.guild_id)


LOADING = "loading"  # interaction.extras: deferred by defer_early, nothing shown yet
PUBLIC = "public"  # interaction.extras: deferred by defer_public, its "thinking" seen by all
SAVED = "saved"  # interaction.extras: what a committed change made, told after any error


def committed(interaction: Interaction, text: str) -> None:
    """The interaction's change is committed: from here on an error (the database gone,
    Discord failing, a bug) is answered with ``text``, what was made and what may not
    show yet, never with "nothing was changed". What a commit owes the table is in the
    outbox and is published once the database answers again."""
    interaction.extras[SAVED] = text


async def defer_early(interaction: Interaction) -> None:
    """Acknowledge a command privately ("thinking...") before any database work, so
    that it is answered within Discord's 3 s however slow the database is. Its answer
    (:func:`answer`) or its error then fills that message."""
    if not interaction.response.is_done():
        await interaction.response.defer(ephemeral=True, thinking=True)
        interaction.extras[LOADING] = True


async def defer_public(interaction: Interaction) -> None:
    """Acknowledge a command whose answer everyone in the channel sees ("thinking..."
    in public) before any database work. An error after it is still answered
    privately (:func:`reply_error`: the public message is completed, the error sent as
    an ephemeral follow-up, the public message deleted)."""
    if not interaction.response.is_done():
        await interaction.response.defer(thinking=True)
        interaction.extras[LOADING] = True
        interaction.extras[PUBLIC] = True


async def defer_update(interaction: Interaction) -> None:
    """Acknowledge a click on a component that edits its own message (no "thinking"),
    before any database work; :func:`update` then edits the message, an error is a
    private follow-up."""
    if not interaction.response.is_done():
        await interaction.response.defer()


async def update(
    interaction: Interaction,
    *,
    content: str | None = None,
    view: discord.ui.View | None = None,
) -> None:
    """Edit the clicked component's message, whether or not :func:`defer_update` ran."""
    if interaction.response.is_done():
        if content is None:
            await interaction.edit_original_response(view=view, allowed_mentions=NO_MENTIONS)
        else:
            await interaction.edit_original_response(content=content, view=view, allowed_mentions=NO_MENTIONS)
    elif content is None:
        await interaction.response.edit_message(view=view, allowed_mentions=NO_MENTIONS)
    else:
        await interaction.response.edit_message(content=content, view=view, allowed_mentions=NO_MENTIONS)


async def answer_public(
    interaction: Interaction,
    content: str,
    *,
    view: discord.ui.View | None = None,
    allowed_mentions: discord.AllowedMentions = NO_MENTIONS,
) -> discord.Message:
    """A public answer: the message :func:`defer_public` made, else a new message
    (a follow-up after :func:`defer_update`); returns it (its id is kept by some)."""
    interaction.extras.pop(PUBLIC, None)
    if interaction.extras.pop(LOADING, False):
        return await interaction.edit_original_response(
            content=content, view=view, allowed_mentions=allowed_mentions
        )
    if interaction.response.is_done():
        return await interaction.followup.send(
            content, view=view or discord.utils.MISSING, allowed_mentions=allowed_mentions, wait=True
        )
    await interaction.response.send_message(
        content, view=view or discord.utils.MISSING, allowed_mentions=allowed_mentions
    )
    return await interaction.original_response()


async def answer(
    interaction: Interaction,
    content: str,
    *,
    view: discord.ui.View | None = None,
    file: discord.File = discord.utils.MISSING,
) -> discord.Message | None:
    """A private answer: the message :func:`defer_early` made, else a new reply;
    ``file`` a picture to attach. Returns the message when Discord gave it (always
    after a defer: its id binds the controls on it, see ``cogs/ui/checks.py``)."""
    if interaction.extras.pop(LOADING, False):
        if file is discord.utils.MISSING:
            return await interaction.edit_original_response(
                content=content, view=view, allowed_mentions=NO_MENTIONS
            )
        return await interaction.edit_original_response(
            content=content, view=view, attachments=[file], allowed_mentions=NO_MENTIONS
        )
    if interaction.response.is_done():
        return await interaction.followup.send(
            content,
            view=view or discord.utils.MISSING,
            file=file,
            ephemeral=True,
            allowed_mentions=NO_MENTIONS,
            wait=True,
        )
    await interaction.response.send_message(
        content,
        view=view or discord.utils.MISSING,
        file=file,
        ephemeral=True,
        allowed_mentions=NO_MENTIONS,
    )
    return None


async def reply_error(interaction: Interaction, error: BaseException, *, logged: bool = False) -> None:
    """Answer ``interaction`` ephemerally with the translated ``error`` or, after a
    commit (:func:`committed`), with what the commit made."""
    error = unwrap(error)
    saved = interaction.extras.pop(SAVED, None)
    if is_database_error(error):
        command = interaction.command.qualified_name if interaction.command else None
        custom_id = interaction.data.get("custom_id") if interaction.data else None
        log.warning("database unavailable (command=%s custom_id=%s): %s", command, custom_id, error)
    elif not logged and not is_user_error(error):
        command = interaction.command.qualified_name if interaction.command else None
        custom_id = interaction.data.get("custom_id") if interaction.data else None
        log.error("unexpected error (command=%s custom_id=%s)", command, custom_id, exc_info=error)
    text = (saved if saved is not None else message_for(error, interaction))[:MAX_MESSAGE]
    try:
        if interaction.extras.pop(PUBLIC, False) and interaction.extras.pop(LOADING, False):
            # A follow-up would fill the public "thinking" message: complete it with
            # nothing to read, answer privately, then delete it.
            await interaction.edit_original_response(content="\u2026", allowed_mentions=NO_MENTIONS)
            await interaction.followup.send(text, ephemeral=True, allowed_mentions=NO_MENTIONS)
            await interaction.delete_original_response()
        elif interaction.extras.pop(LOADING, False):
            await interaction.edit_original_response(content=text, allowed_mentions=NO_MENTIONS)
        elif interaction.response.is_done():
            await interaction.followup.send(text, ephemeral=True, allowed_mentions=NO_MENTIONS)
        else:
            await interaction.response.send_message(text, ephemeral=True, allowed_mentions=NO_MENTIONS)
    except discord.HTTPException:
        log.warning("could not deliver an error reply (interaction %s)", interaction.id)


async def report(interaction: Interaction, error: Exception) -> None:
    """A component's error: the user's mistake is answered here; a bug goes to the tree's
    error handler (which logs it and apologises), as a command's would."""
    if is_user_error(error) or is_database_error(error):
        await reply_error(interaction, error)
    else:
        await interaction.client.tree.on_error(interaction, ComponentError(error))


__all__ = [
    "NO_MENTIONS",
    "ComponentError",
    "answer",
    "answer_public",
    "committed",
    "defer_early",
    "defer_public",
    "defer_update",
    "display_name",
    "is_database_error",
    "is_user_error",
    "message_for",
    "public_language",
    "reply_error",
    "report",
    "unwrap",
    "update",
]
