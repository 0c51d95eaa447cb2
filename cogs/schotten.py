"""The ``/schotten`` commands, and the extension that puts the table together.

Every command is a thin adapter: it reads its options, finds the game the caller means
(``game`` defaults to the caller's game in this channel, else their only active game)
and hands a typed request to the table's request side (:mod:`cogs.table.requests`),
the lobby or the services. Text is parsed here, where it is typed (``/schotten play``,
``/schotten move``); buttons and selects carry ``Move`` values in their ids and answer
their own clicks, next to the code they call. Every command works in a server channel
and in the bot's DM; replies that show a hand are ephemeral; errors are answered
privately by the tree's error handler (:mod:`cogs.errors`).

:func:`setup` builds the :class:`~cogs.table.publisher.Publisher`, installs it as the
bot's publishing side (for the requests, the lobby and the AI opponent), registers
every component and adds this cog and the timers.
"""

from __future__ import annotations

from functools import partial

import discord
from discord import app_commands
from discord.ext import commands

from bot.app import SchottenBot
from bot.community.styles import STYLES, parse_style
from bot.games.errors import ServiceError
from bot.games.live import LiveGame
from bot.games.opponent import DEFAULT_LEVEL
from bot.text import i18n
from bot.text.catalogue import t
from cogs import choices, tournaments
from cogs.history import (
    audience_of,
    export_file,
    history_message,
    require_member,
    send_replay,
)
from cogs.leaderboard import leaderboard_message, leaderboard_page, stats_text
from cogs.settings import settings_command
from cogs.table import activity_lobby, lobby, overview, requests
from cogs.table.publisher import Publisher
from cogs.timers import Timers
from cogs.ui import Interaction
from cogs.ui.components import every
from cogs.ui.links import with_link
from cogs.ui.replies import (
    answer,
    answer_public,
    committed,
    defer_early,
    defer_public,
    public_language,
)
from cogs.ui.translator import CatalogueTranslator
from cogs.ui.translator import name as _name
from cogs.ui.translator import text as ls
from rules.ai import LEVELS
from rules.game import GameOptions
from rules.moves import Claim, Draw, Move, Pass

RULES_TOPICS = ("overview", "turn", "formations", "claims", "end", "tactics", "decisions")
# One topic per tactic card; their texts are "rules.<topic>" in bot/text/catalogue.py.
TACTIC_TOPICS = (
    "leader",
    "reinforcement",
    "shield-bearer",
    "fog",
    "mud",
    "scout",
    "redeploy",
    "deserter",
    "traitor",
)


_CLAIMS = [
    app_commands.Choice(name=ls("choice.claims.anytime"), value="anytime"),
    app_commands.Choice(name=ls("choice.claims.turn_start"), value="turn-start"),
]
_RULESETS = [
    app_commands.Choice(name=ls("choice.ruleset.schotten_totten"), value="schotten-totten"),
    app_commands.Choice(name=ls("choice.ruleset.battle_line"), value="battle-line"),
]


def cmd(command: str) -> app_commands.locale_str:
    return _name(f"cmd.name.{command}")


def opt(option: str) -> app_commands.locale_str:
    return _name(f"opt.{option}")


def _options(ruleset: str, tactics: bool, claims: str) -> GameOptions:
    """The options a challenge or practice command chose (Discord sends only its choices)."""
    return GameOptions(
        ruleset=ruleset, tactics=tactics, claim_timing="turn-start" if claims == "turn-start" else "anytime"
    )


@app_commands.allowed_contexts(guilds=True, dms=True, private_channels=False)
@app_commands.allowed_installs(guilds=True, users=False)
class Schotten(commands.GroupCog, group_name=cmd("schotten"), group_description=ls("cmd.group")):
    def __init__(self, bot: SchottenBot, publisher: Publisher) -> None:
        self.bot = bot
        self.publisher = publisher
        super().__init__()

    async def _game(self, interaction: Interaction, game: int | None) -> LiveGame:
        return await self.bot.service.find_game_for(interaction.user.id, interaction.channel_id, game)

    @commands.Cog.listener()
    async def on_ready(self) -> None:
        # After a restart the AI moves on where it is to move. Idempotent on reconnects.
        await self.bot.opponent.resume()

    # ------------------------------------------------------------ new games

    @app_commands.command(name=cmd("challenge"), description=ls("cmd.challenge"))
    @app_commands.rename(
        opponent=opt("opponent"),
        tactics=opt("tactics"),
        claims=opt("claims"),
        ruleset=opt("ruleset"),
        points=opt("points"),
    )
    @app_commands.describe(
        opponent=ls("cmd.challenge.opponent"),
        tactics=ls("cmd.challenge.tactics"),
        claims=ls("cmd.challenge.claims"),
        ruleset=ls("cmd.challenge.ruleset"),
        points=ls("cmd.challenge.points"),
    )
    @app_commands.choices(claims=_CLAIMS, ruleset=_RULESETS)
    async def challenge(
        self,
        interaction: Interaction,
        opponent: discord.User,
        tactics: bool = False,
        claims: str = "anytime",
        ruleset: str = "schotten-totten",
        points: app_commands.Range[int, 5, 100] | None = None,
    ) -> None:
        await lobby.challenge(interaction, opponent, _options(ruleset, tactics, claims), points=points)

    @app_commands.command(name=cmd("practice"), description=ls("cmd.practice"))
    @app_commands.rename(
        difficulty=opt("difficulty"), tactics=opt("tactics"), claims=opt("claims"), ruleset=opt("ruleset")
    )
    @app_commands.describe(
        difficulty=ls("cmd.practice.difficulty"),
        tactics=ls("cmd.challenge.tactics"),
        claims=ls("cmd.challenge.claims"),
        ruleset=ls("cmd.challenge.ruleset"),
    )
    @app_commands.choices(
        difficulty=[app_commands.Choice(name=ls(f"choice.level.{level}"), value=level) for level in LEVELS],
        claims=_CLAIMS,
        ruleset=_RULESETS,
    )
    async def practice(
        self,
        interaction: Interaction,
        difficulty: str = DEFAULT_LEVEL,
        tactics: bool = False,
        claims: str = "anytime",
        ruleset: str = "schotten-totten",
    ) -> None:
        await lobby.practice(interaction, _options(ruleset, tactics, claims), difficulty)

    @app_commands.command(name=cmd("hint"), description=ls("cmd.hint"))
    @app_commands.rename(game=opt("game"))
    @app_commands.describe(game=ls("cmd.game"))
    @app_commands.autocomplete(game=choices.games)
    async def hint(self, interaction: Interaction, game: int | None = None) -> None:
        """The hard AI's suggestion with a one-line reason, privately (games against
        the AI only; the Hint button of the DM controls does the same)."""
        await defer_early(interaction)  # before the database: answered within 3 s
        await requests.hint(interaction, await self._game(interaction, game))

    # ---------------------------------------------------------------- moves

    @app_commands.command(name=cmd("play"), description=ls("cmd.play"))
    @app_commands.rename(card=opt("card"), stone=opt("stone"), game=opt("game"))
    @app_commands.describe(card=ls("cmd.play.card"), stone=ls("cmd.play.stone"), game=ls("cmd.game"))
    @app_commands.autocomplete(card=choices.cards)
    @app_commands.autocomplete(game=choices.games)
    async def play(
        self,
        interaction: Interaction,
        card: str,
        stone: app_commands.Range[int, 1, 9],
        game: int | None = None,
    ) -> None:
        await defer_early(interaction)  # before the database: answered within 3 s
        record = await self._game(interaction, game)
        await requests.make_move(
            interaction,
            record.id,
            None,
            requests.typed_move(record, f"play {card.strip()[: requests.MAX_TYPED]} {stone}"),
        )

    @app_commands.command(name=cmd("claim"), description=ls("cmd.claim"))
    @app_commands.rename(stone=opt("stone"), game=opt("game"))
    @app_commands.describe(stone=ls("cmd.claim.stone"), game=ls("cmd.game"))
    @app_commands.autocomplete(game=choices.games)
    async def claim(
        self, interaction: Interaction, stone: app_commands.Range[int, 1, 9], game: int | None = None
    ) -> None:
        await defer_early(interaction)  # before the database: answered within 3 s
        record = await self._game(interaction, game)
        await requests.make_move(interaction, record.id, None, Claim(stone))

    @app_commands.command(name=cmd("pass"), description=ls("cmd.pass"))
    @app_commands.rename(game=opt("game"))
    @app_commands.describe(game=ls("cmd.game"))
    @app_commands.autocomplete(game=choices.games)
    async def pass_(self, interaction: Interaction, game: int | None = None) -> None:
        await defer_early(interaction)  # before the database: answered within 3 s
        record = await self._game(interaction, game)
        move: Move = Pass()
        if record.game.phase == "draw" and record.player_of(interaction.user.id) == record.current_player:
            # After playing, with a stone still claimable, "pass" means "end my turn".
            draws = [m for m in record.game.legal_moves() if isinstance(m, Draw)]
            move = draws[0] if draws else move
        await requests.make_move(interaction, record.id, None, move)

    @app_commands.command(name=cmd("move"), description=ls("cmd.move"))
    @app_commands.rename(text=opt("text"), game=opt("game"))
    @app_commands.describe(text=ls("cmd.move.text"), game=ls("cmd.game"))
    @app_commands.autocomplete(text=choices.moves)
    @app_commands.autocomplete(game=choices.games)
    async def move(self, interaction: Interaction, text: str, game: int | None = None) -> None:
        await defer_early(interaction)  # before the database: answered within 3 s
        record = await self._game(interaction, game)
        await requests.make_move(interaction, record.id, None, requests.typed_move(record, text))

    @app_commands.command(name=cmd("draw"), description=ls("cmd.draw"))
    @app_commands.rename(deck=opt("deck"), game=opt("game"))
    @app_commands.describe(deck=ls("cmd.draw.deck"), game=ls("cmd.game"))
    @app_commands.choices(
        deck=[
            app_commands.Choice(name=ls("choice.deck.clan"), value="clan"),
            app_commands.Choice(name=ls("choice.deck.tactic"), value="tactic"),
        ]
    )
    @app_commands.autocomplete(game=choices.games)
    async def draw(self, interaction: Interaction, deck: str = "clan", game: int | None = None) -> None:
        await defer_early(interaction)  # before the database: answered within 3 s
        record = await self._game(interaction, game)
        await requests.make_move(interaction, record.id, None, Draw("tactic" if deck == "tactic" else "clan"))

    @app_commands.command(name=cmd("resign"), description=ls("cmd.resign"))
    @app_commands.rename(game=opt("game"))
    @app_commands.describe(game=ls("cmd.game"))
    @app_commands.autocomplete(game=choices.games)
    async def resign(self, interaction: Interaction, game: int | None = None) -> None:
        await defer_early(interaction)  # before the database: answered within 3 s
        record = await self._game(interaction, game)
        outcome = await self.bot.service.resign(record.id, interaction.user.id)
        committed(interaction, t("saved.resign", game_id=record.id))
        await self.publisher.publish(outcome)
        await answer(interaction, t("ok.resigned", game_id=record.id))

    # ----------------------------------------------------------- tournaments

    tournament = app_commands.Group(name=cmd("tournament"), description=ls("cmd.tournament"))

    @tournament.command(name=cmd("create"), description=ls("cmd.tournament.create"))
    @app_commands.rename(
        name=opt("name"),
        format=opt("format"),
        rounds=opt("rounds"),
        best_of=opt("best_of"),
        tactics=opt("tactics"),
        ruleset=opt("ruleset"),
        claims=opt("claims"),
        turn_time=opt("turn_time"),
        max_players=opt("max_players"),
    )
    @app_commands.describe(
        name=ls("cmd.tournament.name"),
        format=ls("cmd.tournament.format"),
        rounds=ls("cmd.tournament.rounds"),
        best_of=ls("cmd.tournament.best_of"),
        tactics=ls("cmd.challenge.tactics"),
        ruleset=ls("cmd.challenge.ruleset"),
        claims=ls("cmd.challenge.claims"),
        turn_time=ls("cmd.tournament.turn_time"),
        max_players=ls("cmd.tournament.max_players"),
    )
    @app_commands.choices(
        format=[
            app_commands.Choice(name=ls(f"choice.format.{f}"), value=f)
            for f in ("swiss", "round-robin", "knockout")
        ],
        claims=_CLAIMS,
        ruleset=_RULESETS,
    )
    async def tournament_create(
        self,
        interaction: Interaction,
        name: str,
        format: str,
        rounds: int | None = None,
        best_of: int | None = None,
        tactics: bool = False,
        ruleset: str = "schotten-totten",
        claims: str = "anytime",
        turn_time: int | None = None,
        max_players: int | None = None,
    ) -> None:
        await tournaments.create(
            interaction,
            name=name,
            format=format,
            rounds=rounds,
            best_of=best_of,
            options=_options(ruleset, tactics, claims),
            turn_time=None if turn_time is None else turn_time * 60.0,
            max_players=max_players,
        )

    @tournament.command(name=cmd("start"), description=ls("cmd.tournament.start"))
    @app_commands.rename(tournament=opt("tournament"))
    @app_commands.describe(tournament=ls("cmd.tournament.id"))
    @app_commands.autocomplete(tournament=tournaments.tournament_choices)
    async def tournament_start(self, interaction: Interaction, tournament: int | None = None) -> None:
        await tournaments.start(interaction, tournament)

    @tournament.command(name=cmd("standings"), description=ls("cmd.tournament.standings"))
    @app_commands.rename(tournament=opt("tournament"))
    @app_commands.describe(tournament=ls("cmd.tournament.id"))
    @app_commands.autocomplete(tournament=tournaments.tournament_choices)
    async def tournament_standings(self, interaction: Interaction, tournament: int | None = None) -> None:
        await tournaments.standings_command(interaction, tournament)

    @tournament.command(name=cmd("leave"), description=ls("cmd.tournament.leave"))
    @app_commands.rename(tournament=opt("tournament"))
    @app_commands.describe(tournament=ls("cmd.tournament.id"))
    @app_commands.autocomplete(tournament=tournaments.tournament_choices)
    async def tournament_leave(self, interaction: Interaction, tournament: int | None = None) -> None:
        await tournaments.leave(interaction, tournament)

    @tournament.command(name=cmd("kick"), description=ls("cmd.tournament.kick"))
    @app_commands.rename(member=opt("member"), tournament=opt("tournament"))
    @app_commands.describe(member=ls("cmd.tournament.member"), tournament=ls("cmd.tournament.id"))
    @app_commands.autocomplete(tournament=tournaments.tournament_choices)
    async def tournament_kick(
        self, interaction: Interaction, member: discord.User, tournament: int | None = None
    ) -> None:
        await tournaments.leave(interaction, tournament, member=member.id)

    @tournament.command(name=cmd("cancel"), description=ls("cmd.tournament.cancel"))
    @app_commands.rename(tournament=opt("tournament"))
    @app_commands.describe(tournament=ls("cmd.tournament.id"))
    @app_commands.autocomplete(tournament=tournaments.tournament_choices)
    async def tournament_cancel(self, interaction: Interaction, tournament: int | None = None) -> None:
        await tournaments.cancel(interaction, tournament)

    @app_commands.command(name=cmd("tournaments"), description=ls("cmd.tournaments"))
    async def tournaments_(self, interaction: Interaction) -> None:
        await tournaments.list_command(interaction)

    # ----------------------------------------------------------------- info

    @app_commands.command(name=cmd("hand"), description=ls("cmd.hand"))
    @app_commands.rename(game=opt("game"))
    @app_commands.describe(game=ls("cmd.game"))
    @app_commands.autocomplete(game=choices.games)
    async def hand(self, interaction: Interaction, game: int | None = None) -> None:
        await defer_early(interaction)  # before the database: answered within 3 s
        record = await self._game(interaction, game)
        await requests.show_hand(interaction, record.id)

    @app_commands.command(name=cmd("board"), description=ls("cmd.board"))
    @app_commands.rename(game=opt("game"))
    @app_commands.describe(game=ls("cmd.game"))
    @app_commands.autocomplete(game=choices.games)
    async def board(self, interaction: Interaction, game: int | None = None) -> None:
        await defer_early(interaction)  # before the database: answered within 3 s
        await overview.show_board(interaction, await self._game(interaction, game))

    @app_commands.command(name=cmd("games"), description=ls("cmd.games"))
    async def games(self, interaction: Interaction) -> None:
        await defer_early(interaction)  # before the database: answered within 3 s
        await overview.list_games(interaction)

    @app_commands.command(name=cmd("rules"), description=ls("cmd.rules"))
    @app_commands.rename(topic=opt("topic"))
    @app_commands.describe(topic=ls("cmd.rules.topic"))
    @app_commands.choices(
        topic=[
            app_commands.Choice(name=ls(f"choice.topic.{topic}"), value=topic)
            for topic in RULES_TOPICS + TACTIC_TOPICS
        ]
    )
    async def rules(self, interaction: Interaction, topic: str = "overview") -> None:
        await interaction.response.send_message(t(f"rules.{topic}", topics=t("rules.topics")), ephemeral=True)

    @app_commands.command(name=cmd("language"), description=ls("cmd.language"))
    @app_commands.rename(language=opt("language"), server=opt("server"))
    @app_commands.describe(language=ls("cmd.language.language"), server=ls("cmd.language.server"))
    @app_commands.choices(
        language=[
            app_commands.Choice(name=ls(f"choice.language.{code}"), value=code)
            for code in ("auto", *i18n.LANGUAGES)
        ]
    )
    async def language(self, interaction: Interaction, language: str, server: bool = False) -> None:
        chosen = None if language == "auto" else i18n.normalize(language)
        if server:
            if interaction.guild_id is None:
                raise ServiceError("language_server_dm")
            if not interaction.permissions.manage_guild:
                raise ServiceError("language_manage_server")
            await defer_early(interaction)  # before the database: answered within 3 s
            effective = await self.bot.languages.choose("guild", interaction.guild_id, chosen)
            committed(interaction, t("saved.choice"))
            key = "language.set_server" if chosen else "language.set_server_auto"
        else:
            await defer_early(interaction)  # before the database: answered within 3 s
            effective = await self.bot.languages.choose("user", interaction.user.id, chosen)
            committed(interaction, t("saved.choice"))
            i18n.set_language(effective)  # the answer already in the new language
            key = "language.set_me" if chosen else "language.set_me_auto"
        await answer(interaction, t(key, language=t(f"language.name.{effective}")))

    @app_commands.command(name=cmd("style"), description=ls("cmd.style"))
    @app_commands.rename(board=opt("board"), server=opt("server"))
    @app_commands.describe(board=ls("cmd.style.board"), server=ls("cmd.style.server"))
    @app_commands.choices(
        board=[app_commands.Choice(name=ls(f"choice.style.{style}"), value=style) for style in STYLES]
    )
    async def style(self, interaction: Interaction, board: str, server: bool = False) -> None:
        """Text or picture boards: the member's own (DMs, private replies) or, with
        ``server`` and Manage Server, the server's channel boards."""
        chosen = parse_style(board)
        if server:
            if interaction.guild_id is None:
                raise ServiceError("style_server_dm")
            if not interaction.permissions.manage_guild:
                raise ServiceError("style_manage_server")
            await defer_early(interaction)  # before the database: answered within 3 s
            await self.bot.styles.choose("guild", interaction.guild_id, chosen)
            committed(interaction, t("saved.choice"))
            key = f"style.set_server.{chosen}"
        else:
            await defer_early(interaction)  # before the database: answered within 3 s
            await self.bot.styles.choose("user", interaction.user.id, chosen)
            committed(interaction, t("saved.choice"))
            key = f"style.set_me.{chosen}"
        await answer(interaction, t(key))

    # -------------------------------------------------------------- ratings

    @app_commands.command(name=cmd("leaderboard"), description=ls("cmd.leaderboard"))
    @app_commands.rename(scope=opt("scope"))
    @app_commands.describe(scope=ls("cmd.leaderboard.scope"))
    @app_commands.choices(
        scope=[
            app_commands.Choice(name=ls("choice.scope.server"), value="server"),
            app_commands.Choice(name=ls("choice.scope.global"), value="global"),
        ]
    )
    async def leaderboard(self, interaction: Interaction, scope: str | None = None) -> None:
        if scope is None:
            scope = "global" if interaction.guild_id is None else "server"
        if scope == "server" and interaction.guild_id is None:
            raise ServiceError("leaderboard_server_dm")
        scope_id = "global" if scope == "global" else str(interaction.guild_id)
        # The one read before the (public) defer, bounded by DATABASE_TIMEOUT (under
        # Discord's 3 s), so that an empty leaderboard is answered privately.
        found = await leaderboard_page(self.bot, scope_id, 0)
        await defer_public(interaction)
        with i18n.use(await public_language(interaction)):
            text, view = await leaderboard_message(self.bot, scope_id, 0, found)
            if scope == "server" and interaction.guild_id is not None:
                view = await with_link(view, self.bot, "ladder", interaction.guild_id, interaction.guild_id)
        await answer_public(interaction, text, view=view)

    @app_commands.command(name=cmd("stats"), description=ls("cmd.stats"))
    @app_commands.rename(member=opt("member"))
    @app_commands.describe(member=ls("cmd.stats.member"))
    async def stats(self, interaction: Interaction, member: discord.User | None = None) -> None:
        """Privately: the member's ratings, and what the asker may see of their games
        here (this server's, and the asker's own in DMs)."""
        target = member or interaction.user
        await defer_early(interaction)  # before the database: answered within 3 s
        await require_member(interaction, target)
        text = await stats_text(self.bot, target, audience=audience_of(interaction))
        await answer(interaction, text)

    # --------------------------------------------------------- game records

    @app_commands.command(name=cmd("history"), description=ls("cmd.history"))
    @app_commands.rename(member=opt("member"))
    @app_commands.describe(member=ls("cmd.history.member"))
    async def history(self, interaction: Interaction, member: discord.User | None = None) -> None:
        """Privately: the member's finished games that the asker may see here (this
        server's, and the asker's own in DMs)."""
        target = member or interaction.user
        await defer_early(interaction)  # before the database: answered within 3 s
        await require_member(interaction, target)
        self.bot.names.remember(target)
        text, view = await history_message(self.bot, target.id, 0, audience=audience_of(interaction))
        await answer(interaction, text, view=view)

    @app_commands.command(name=cmd("replay"), description=ls("cmd.replay"))
    @app_commands.rename(game=opt("game"), step=opt("step"))
    @app_commands.describe(game=ls("cmd.replay.game"), step=ls("cmd.replay.step"))
    async def replay(
        self, interaction: Interaction, game: app_commands.Range[int, 1], step: app_commands.Range[int, 0] = 0
    ) -> None:
        await defer_early(interaction)  # before the database: answered within 3 s
        await send_replay(interaction, game, step)

    @app_commands.command(name=cmd("web"), description=ls("cmd.web"))
    @app_commands.rename(links=opt("links"))
    @app_commands.describe(links=ls("cmd.web.links"))
    @app_commands.default_permissions(manage_guild=True)
    @app_commands.checks.has_permissions(manage_guild=True)
    async def web(self, interaction: Interaction, links: bool) -> None:
        """Turn this server's links to the web pages on or off (Manage Server)."""
        if interaction.guild_id is None:
            await interaction.response.send_message(t("web.links_guild_only"), ephemeral=True)
            return
        web = self.bot.web
        if web is None or web.links is None:
            await interaction.response.send_message(t("web.links_unavailable"), ephemeral=True)
            return
        await defer_early(interaction)  # before the database: answered within 3 s
        await web.links.set_enabled(interaction.guild_id, links)
        committed(interaction, t("saved.choice"))
        await answer(interaction, t("web.links_on" if links else "web.links_off"))

    @app_commands.command(name=cmd("export"), description=ls("cmd.export"))
    @app_commands.rename(game=opt("game"))
    @app_commands.describe(game=ls("cmd.replay.game"))
    async def export(self, interaction: Interaction, game: app_commands.Range[int, 1]) -> None:
        await defer_early(interaction)  # before the database: answered within 3 s
        text, file = await export_file(interaction, game)
        await answer(interaction, text, file=file)


async def setup(bot: SchottenBot) -> None:
    publisher = Publisher(bot)
    requests.install(bot, publisher)
    await bot.tree.set_translator(CatalogueTranslator())
    bot.opponent.publish = publisher.publish
    if bot.web is not None:  # a move from the table is published like one from Discord
        bot.web.table.publish = publisher.publish
    activity_lobby.install(bot)  # games started from the Activity, shown as the commands' are
    # A tournament's next round (or its podium) once a game of it has ended.
    publisher.after_end.append(partial(tournaments.after_game, bot, publisher))
    # A click on any of these ids, in any message, ever, reaches its class: that is what
    # makes buttons survive restarts. Registered before the gateway connects. Every
    # component's module is imported by now (this one imports them all).
    bot.add_dynamic_items(*every())
    cog = Schotten(bot, publisher)
    group = cog.app_command
    assert group is not None  # a GroupCog's
    group.add_command(settings_command())  # /schotten settings (cogs/settings.py)
    await bot.add_cog(cog)
    await bot.add_cog(Timers(bot, publisher))


async def teardown(bot: SchottenBot) -> None:
    bot.remove_dynamic_items(*every())
