"""The texts of a game's messages: the public board, a player's private hand message,
claim and end announcements, a match's score. Pure functions of a view or a record.

Names are what members call themselves, so they are hostile: every function here takes
them as they are and escapes them for where they go (:func:`in_text` for markdown,
:func:`in_code` inside a code block), so that a name can neither format a message,
close its code block, nor show as a mention.
"""

from __future__ import annotations

import io
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime

import discord

from bot.community.stats import RatingChange
from bot.community.tournament_labels import GameLabel
from bot.games.live import LiveGame
from bot.storage import MatchRow
from bot.text.catalogue import t
from bot.text.render import (
    card_text,
    code_block,
    last_turn,
    render_board,
    render_hand,
    render_last,
    render_result,
)
from rules.cards import Card
from rules.moves import Claim
from rules.view import PlayerView

Names = tuple[str, str]  # the display names of engine players 0 and 1


@dataclass(frozen=True)
class Picture:
    """A PNG to attach to a message (a ``discord.File`` is read once, so it is made
    anew for each call). ``description`` is its alt text, for screen readers."""

    data: bytes
    filename: str
    description: str

    def file(self) -> discord.File:
        return discord.File(io.BytesIO(self.data), filename=self.filename, description=self.description)


def upload(picture: Picture | None) -> discord.File:
    """A send's ``file``: the picture, or nothing (``MISSING``)."""
    return discord.utils.MISSING if picture is None else picture.file()


def attachments(picture: Picture | None) -> list[discord.File]:
    """An edit's ``attachments``: the picture, replacing what the message had, or none
    (a message once a picture and now text loses it)."""
    return [] if picture is None else [picture.file()]


def in_text(names: Names) -> Names:
    def escape(name: str) -> str:
        return discord.utils.escape_mentions(discord.utils.escape_markdown(name))

    return escape(names[0]), escape(names[1])


def in_code(names: Names) -> Names:
    return names[0].replace("`", "'"), names[1].replace("`", "'")


def turn_mention(user_id: int) -> str:
    return t("board.your_turn", mention=f"<@{user_id}>")


def duration(seconds: float) -> str:
    """A turn time in the largest whole unit: ``1 day``, ``5 hours``, ``90 minutes``."""
    minutes = max(1, round(seconds / 60))
    if minutes % 1440 == 0:
        return t("duration.days", n=minutes // 1440)
    if minutes % 60 == 0:
        return t("duration.hours", n=minutes // 60)
    return t("duration.minutes", n=minutes)


def tournament_lines(record: LiveGame, label: GameLabel | None) -> list[str]:
    """A tournament game's lines above its board and in its DMs: the tournament and
    the round, and while it goes on the deadline of the turn (a Discord timestamp,
    shown in each reader's own time zone) and the turn time."""
    if label is None:
        return []
    row = label.tournament
    name = discord.utils.escape_mentions(discord.utils.escape_markdown(row.name))
    title = t("tournament.title", id=row.id, name=name, format=t(f"tournament.format.{row.format}"))
    lines = [t("tournament.label", title=title, round=label.round, rounds=row.rounds or "?")]
    if record.is_active and record.deadline is not None:
        deadline = discord.utils.format_dt(datetime.fromtimestamp(record.deadline, tz=UTC), "R")
        lines.append(t("tournament.deadline", deadline=deadline, turn_time=duration(row.turn_time)))
    return lines


def announce_claim(names: Names, owner: int, stone: int) -> str:
    return t("announce.claim", name=in_text(names)[owner], stone=stone)


def board_text(record: LiveGame, view: PlayerView, names: Names, match: MatchRow | None) -> str:
    """The public board (player 0 at the bottom), under a match's score if any."""
    text = code_block(render_board(view, in_code(names), bottom=0, game_id=record.id))
    if match is not None:
        text = score_text(match, record, names) + "\n" + text
    return text


def board_message(
    record: LiveGame,
    view: PlayerView,
    names: Names,
    match: MatchRow | None,
    *,
    mention: int | None,
    board: bool = True,
    header: Sequence[str] = (),
) -> str:
    """The board as it stands in the channel: the mention of the player to move
    (``mention``, a user id), the stones claimed in the latest turn, the first board of
    a match's next game says so, then :func:`board_text`. Everything comes from the
    stored game, so a publication made again after a crash says the same as the first.
    ``board`` False: the lines above the board only (and a match's score), for a board
    shown as a picture. ``header``: a tournament game's lines (:func:`tournament_lines`),
    after the mention."""
    lines = [] if mention is None else [turn_mention(mention)]
    lines.extend(header)
    latest = last_turn(view.last_moves)
    if latest is not None:
        player, moves = latest
        lines.extend(announce_claim(names, player, move.stone) for move in moves if isinstance(move, Claim))
    if match is not None and match.games > 0 and not view.last_moves and view.current_player is not None:
        name = in_text(names)[view.current_player]
        lines.append(t("match.next", match_id=match.id, game_id=record.id, name=name))
    if board:
        lines.append(board_text(record, view, names, match))
    elif match is not None:
        lines.append(score_text(match, record, names))
    return "\n".join(lines)


def hand_text(
    record: LiveGame,
    view: PlayerView,
    names: Names,
    drawn: Sequence[Card] = (),
    *,
    board: bool = True,
    header: Sequence[str] = (),
) -> str:
    """What a player sees privately: the opponent's last turn, the board from their
    side, their hand and whose turn it is. ``board`` False: all but the board, the
    caption of a picture that shows it. ``header``: a tournament game's lines, under
    the title."""
    player = view.player
    text_names = in_text(names)
    opponent = text_names[1 - player]
    lines = [f"**{t('hand.title', game_id=record.id, opponent=opponent)}**", *header]
    if view.last_moves and view.last_moves[-1][0] == 1 - player:
        last = render_last(view.last_moves, text_names)
        if last:
            lines.append(last)
    if drawn:
        lines.append(t("hand.drew", card=" ".join(card_text(c) for c in drawn)))
    if board:
        lines.append(code_block(render_board(view, in_code(names))))
    hand = render_hand(view)
    lines.append(t("hand.cards", cards=hand) if hand else t("hand.empty"))
    lines.extend(tactic_lines(view))
    if view.result is not None:
        lines.append(t("hand.over", result=render_result(view.result, text_names)))
    elif view.current_player == player:
        lines.append(t("hand.your_turn"))
    else:
        lines.append(t("hand.their_turn", opponent=opponent))
    return "\n".join(lines)


def tactic_lines(view: PlayerView) -> list[str]:
    """Private lines of the tactics variant: Scout's progress and the cards the player
    put back on the decks (which only they know)."""
    lines = []
    if view.current_player == view.player and view.phase == "scout_draw":
        lines.append(t("tactics.scout_draw", n=view.scout_draws_left))
    elif view.current_player == view.player and view.phase == "scout_return":
        lines.append(t("tactics.scout_return"))
    if view.known_deck_cards:
        parts = [
            t(
                "tactics.known_top" if depth == 0 else "tactics.known_below",
                card=card_text(c),
                deck=deck,
                depth=depth,
            )
            for deck, depth, c in sorted(view.known_deck_cards, key=lambda k: (k[0], k[1]))
        ]
        lines.append(t("tactics.known", cards="; ".join(parts)))
    if view.opponent_known_cards:
        lines.append(
            t("tactics.opponent_known", cards=" ".join(card_text(c) for c in view.opponent_known_cards))
        )
    return lines


def score_text(match: MatchRow, record: LiveGame, names: Names) -> str:
    """``Match #1 to 12: alice 5 - 3 bob`` (names in the match's player order)."""
    by_user = dict(zip(record.players, in_text(names), strict=True))
    name0, name1 = (by_user.get(user_id, f"#{user_id}") for user_id in match.players)
    return t(
        "match.score",
        match_id=match.id,
        target=match.target,
        name0=name0,
        score0=match.scores[0],
        score1=match.scores[1],
        name1=name1,
    )


def end_text(record: LiveGame, names: Names, changes: Sequence[RatingChange], match: MatchRow | None) -> str:
    """The end announcement: the result, rating changes, and a match's score or winner."""
    assert record.result is not None
    text_names = in_text(names)
    lines = [t("announce.end", game_id=record.id, result=render_result(record.result, text_names))]
    by_user = dict(zip(record.players, text_names, strict=True))
    if changes:
        parts = [
            t("ratings.change", name=by_user[user_id], after=round(after), delta=round(after) - round(before))
            for user_id, before, after in sorted(changes, key=lambda c: record.players.index(c[0]))
        ]
        lines.append(t("ratings.changes", changes=", ".join(parts)))
    if match is not None:
        lines.append(score_text(match, record, names))
        if match.status == "finished" and match.winner_id is not None:
            lines.append(
                t(
                    "match.won",
                    name=by_user[match.winner_id],
                    match_id=match.id,
                    score0=max(match.scores),
                    score1=min(match.scores),
                )
            )
    return "\n".join(lines)


__all__ = [
    "Names",
    "Picture",
    "announce_claim",
    "attachments",
    "board_message",
    "board_text",
    "duration",
    "end_text",
    "hand_text",
    "in_code",
    "in_text",
    "score_text",
    "tactic_lines",
    "tournament_lines",
    "turn_mention",
    "upload",
]
