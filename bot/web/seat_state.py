"""What a seat at the table is sent: one player's state of one game as JSON, built from
that player's :class:`~rules.view.PlayerView` only (:func:`seat_state`), and the page's
texts in the member's language (:func:`table_texts`).

A seat's state holds its own hand and the table everybody sees: the stones with both
sides' cards, terrain and owners, both decks' sizes, the opponent's hand size and how
many of those are tactic cards (their backs differ), the discards, whose turn it is,
the deadline, the last moves and the seat's legal moves. It never holds the opponent's
hand, the order of a deck, nor what the player alone knows of either through Scout (the
cards they put back): a scan of it finds no hidden card.

The legal moves come from the engine, each with its text notation (what the page posts
back) and the parts the page needs to guide it step by step; the page never decides
legality itself.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from bot.games.live import LiveGame
from bot.text.catalogue import t
from bot.text.notation import card_text, short_card
from bot.text.render import describe_move, render_move, render_result, sort_hand
from rules.cards import Card, ClanCard
from rules.moves import Claim, Deserter, Draw, Move, Pass, PlayCard, Redeploy, Scout, ScoutReturn, Traitor
from rules.view import PlayerView, StoneView

LAST_MOVES = 12  # the moves a seat is shown, newest last


def card_data(card: Card) -> dict[str, Any]:
    """A card: ``id`` in the engine's notation (what moves name), ``label`` as the text
    board writes it in the reader's language, ``short`` for a narrow column."""
    if isinstance(card, ClanCard):
        return {"id": str(card), "label": card_text(card), "short": short_card(card), "colour": card.colour}
    return {
        "id": str(card),
        "label": card_text(card),
        "short": short_card(card),
        "tactic": card.tactic.name.lower(),
        "kind": card.kind.value,
    }


def move_data(move: Move) -> dict[str, Any]:
    """A legal move: ``move`` (its notation, posted back as is), ``label`` (a sentence for
    the confirmation step) and its parts by name."""
    data: dict[str, Any] = {"move": str(move), "label": describe_move(move)}
    if isinstance(move, PlayCard):
        data.update(kind="play", card=str(move.card), stone=move.stone)
    elif isinstance(move, Claim):
        data.update(kind="claim", stone=move.stone)
    elif isinstance(move, Pass):
        data.update(kind="pass")
    elif isinstance(move, Draw):
        data.update(kind="draw", deck=move.deck)
    elif isinstance(move, Scout):
        data.update(kind="scout", card="Scout")
    elif isinstance(move, ScoutReturn):
        data.update(kind="return", cards=[str(card) for card in move.cards])
    elif isinstance(move, Redeploy):
        data.update(kind="redeploy", card="Redeploy", target=str(move.card), source=move.from_stone)
        data["to"] = move.to_stone  # None: the discard
    elif isinstance(move, Deserter):
        data.update(kind="deserter", card="Deserter", target=str(move.card), source=move.stone)
    elif isinstance(move, Traitor):
        data.update(kind="traitor", card="Traitor", target=str(move.card), source=move.from_stone)
        data["to"] = move.to_stone
    return data


def stones_data(stones: Sequence[StoneView]) -> list[dict[str, Any]]:
    """The stones as everybody sees them (a seat's and a spectator's state alike)."""
    return [
        {
            "number": stone.number,
            "sides": [[card_data(card) for card in side] for side in stone.sides],
            "owner": stone.owner,
            "fog": stone.fog,
            "mud": stone.mud,
            "needed": stone.needed,
        }
        for stone in stones
    ]


def seat_state(
    record: LiveGame,
    view: PlayerView,
    names: Sequence[str],
    *,
    replay: str | None = None,
) -> dict[str, Any]:
    """``view``'s player's state of ``record`` (``view`` is ``record.game.view(seat)``),
    texts in the current language. ``replay``: the replay page's path once it is over."""
    seat = view.player
    public = view.public()
    current = view.current_player
    if view.result is not None:
        status = render_result(view.result, names, you=seat)
    elif current == seat:
        status = t("table.your_turn")
    elif current is not None:
        status = t("web.to_play", name=names[current])
    else:
        status = ""
    stones_won = [sum(1 for stone in view.stones if stone.owner == player) for player in (0, 1)]
    return {
        "game": record.id,
        "seat": seat,
        "version": view.version,
        "over": view.is_over,
        "tactics": view.options.tactics,
        "vs_ai": record.vs_ai,
        "title": t("web.game_title", game_id=record.id, name0=names[0], name1=names[1]),
        "status": status,
        "players": [
            {
                "name": names[player],
                "hand": public.hand_sizes[player],
                "tactics": public.hand_tactics[player],  # their backs differ: public
                "stones": stones_won[player],
            }
            for player in (0, 1)
        ],
        "hand": [card_data(card) for card in sort_hand(view.hand)],  # as the DM shows it
        "stones": stones_data(view.stones),
        "decks": {"clan": view.deck_sizes[0], "tactic": view.deck_sizes[1]},
        "discards": [{"player": player, "card": card_data(card)} for player, card in view.discards],
        "current": current,
        "phase": view.phase,
        "scout_draws_left": view.scout_draws_left,
        "deadline": None if view.is_over else record.deadline,
        "moves": [render_move(who, move, names, you=seat) for who, move in public.last_moves[-LAST_MOVES:]],
        "legal": [move_data(move) for move in view.legal_moves()],
        "replay": replay,
    }


#: The page's own texts (``table.*`` and a few shared ones), sent with the page in the
#: member's language: the catalogue stays their one source.
TEXT_KEYS = (
    "table.your_hand",
    "table.your_side",
    "table.their_side",
    "table.cards_in_hand",
    "table.tactics_in_hand",
    "table.stone",
    "table.claim",
    "table.won_by",
    "table.clan_deck",
    "table.tactic_deck",
    "table.deck_left",
    "table.pass",
    "table.end_turn",
    "table.confirm",
    "table.cancel",
    "table.put_back",
    "table.discard",
    "table.play_here",
    "table.target",
    "table.chosen",
    "table.step.card",
    "table.step.stone",
    "table.step.draw",
    "table.step.scout_draw",
    "table.step.return",
    "table.step.target",
    "table.step.dest",
    "table.step.confirm",
    "table.step.wait",
    "table.step.over",
    "table.deadline",
    "table.last_moves",
    "table.discards",
    "table.stale",
    "table.offline",
    "table.reconnected",
    "table.sending",
    "table.hint",
    "table.fog",
    "table.mud",
    "table.needs_script",
    "web.open_replay",
    "web.no_moves",
)


def table_texts(keys: Sequence[str] = TEXT_KEYS) -> dict[str, str]:
    """The texts of ``keys`` (the seat's: :data:`TEXT_KEYS`) in the current language,
    keyed without ``table.`` or ``web.``; placeholders (``{number}``) are filled in by
    the page."""
    # ``t`` without parameters formats nothing: the placeholders stay for the page.
    return {key.removeprefix("table.").removeprefix("web."): t(key) for key in keys}
