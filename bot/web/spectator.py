"""The table as a spectator sees it: the watch page's state and page.

:func:`public_state` builds what a spectator of a live game is sent (the watch page's
JSON and every event of its stream) from the game's ``PublicView`` only: the stones,
both hands as counts (and how many of each are tactic cards: their backs differ), the
decks as counts, the discards, whose turn, the deadline, the moves a turn at a time,
the board in words. No hand and no deck order can be in it: the public view holds
neither.

The page draws it with the same board a seat sees (``ui/src/spectator.ts``,
``mountSpectator``). Both are meant to be reused: the Discord Activity shows a game the
member watches by mounting the spectator into its own frame and serving
``server.live_payload`` (which calls :func:`public_state`) under its own, differently
authorised, routes; nothing here depends on how a request was authorised.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from bot.games.live import LiveGame
from bot.text.catalogue import t
from bot.text.render import render_result
from bot.web import pages
from bot.web.describe import describe_board
from bot.web.replay_steps import turns_of
from bot.web.seat_state import card_data, stones_data, table_texts
from rules.view import PublicView

NAME_CHARS = 100  # a name longer than this is cut: the page stays readable

#: The spectator's texts, keyed without ``table.`` or ``web.`` as the seat's are.
TEXT_KEYS = (
    "table.their_side",
    "table.cards_in_hand",
    "table.tactics_in_hand",
    "table.stone",
    "table.won_by",
    "table.clan_deck",
    "table.tactic_deck",
    "table.deck_left",
    "table.deadline",
    "table.discards",
    "table.fog",
    "table.mud",
    "web.rating",
    "web.stones",
    "web.moves",
    "web.no_moves",
    "web.open_replay",
    "web.describe",
    "web.live_note",
    "web.connection.live",
    "web.connection.reconnecting",
    "web.connection.refused",
    "web.connection.over",
)


def spectator_texts() -> dict[str, str]:
    """The spectator's texts in the current language, placeholders left for the page."""
    return table_texts(TEXT_KEYS)


def bounded(name: str) -> str:
    return name if len(name) <= NAME_CHARS else name[: NAME_CHARS - 1] + "…"


def _status(public: PublicView, names: Sequence[str]) -> str:
    if public.result is not None:
        return render_result(public.result, names)
    if public.current_player is not None:
        return t("web.to_play", name=names[public.current_player])
    return ""


def public_state(
    record: LiveGame,
    public: PublicView,
    names: Sequence[str],
    ratings: Sequence[str],
    *,
    replay: str | None,
) -> dict[str, Any]:
    """A spectator's state of ``record`` at ``public`` (``record.game.public_view()``),
    texts in the current language. ``replay``: the replay's path once the game is over
    (each turn then links to its position there), else None."""
    names = [bounded(name) for name in names]
    status = _status(public, names)
    stones_won = [sum(1 for stone in public.stones if stone.owner == player) for player in (0, 1)]
    ends, turns = turns_of(public.last_moves, names)
    return {
        "game": record.id,
        "version": public.version,
        "over": public.is_over,
        "tactics": public.options.tactics,
        "title": t("web.game_title", game_id=record.id, name0=names[0], name1=names[1]),
        "status": status,
        "players": [
            {
                "name": names[player],
                "rating": ratings[player],
                "hand": public.hand_sizes[player],
                "tactics": public.hand_tactics[player],
                "stones": stones_won[player],
            }
            for player in (0, 1)
        ],
        "stones": stones_data(public.stones),
        "decks": {"clan": public.deck_sizes[0], "tactic": public.deck_sizes[1]},
        "discards": [{"player": player, "card": card_data(card)} for player, card in public.discards],
        "current": public.current_player,
        "deadline": None if public.is_over else record.deadline,
        "turns": [{"text": text, "step": ends[k]} for k, text in enumerate(turns, start=1)],
        "replay": replay,
        "description": describe_board(public, names, status),
    }


def watch_page(state: dict[str, Any], *, urls: dict[str, str], og: pages.OpenGraph) -> str:
    """The watch page: the spectator's table, drawn by ``watch.js`` from the state in
    its data block and kept up to date from ``urls["events"]``. Without the script the
    board in words is still there."""
    e = pages.e
    data = pages.script_json({"texts": spectator_texts(), "state": state})
    lines = "".join(f"<li>{e(line)}</li>" for line in state["description"])
    body = (
        f'<div id="watch"><h1>{e(state["title"])}</h1>'
        f'<noscript><ul id="description">{lines}</ul>'
        f"<p>{e(t('web.needs_script'))}</p></noscript></div>"
        f'<script type="application/json" id="watch-data">{data}</script>'
    )
    return pages.document(
        str(state["title"]),
        body,
        page="watch",
        og=og,
        data=pages.attrs(events=urls["events"], state=urls["state"]),
        script="/static/table/watch.js",
        style="/static/table/table.css",
    )
