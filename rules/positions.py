"""Build a game in a given position: for tests, puzzles and AI experiments.

    g = position(hands=("R7 R8", "B1"), sides={1: ("R1 R2 R3", "G4")}, current=0)

Cards are given as text. Every card of the ruleset not placed anywhere goes to the
bottom of its deck (in a fixed order) unless ``fill=False``, in which case the game holds
only the cards named (a deliberately short deck).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from rules.cards import Card, TacticCard, parse_cards
from rules.game import Game, GameOptions

Cards = str | list[str] | tuple[str, ...]


def position(
    *,
    options: GameOptions | None = None,
    hands: tuple[Cards, Cards] = ("", ""),
    sides: Mapping[int, tuple[Cards, Cards]] | None = None,
    owners: Mapping[int, int] | None = None,
    first: Mapping[int, int] | None = None,
    fog: Mapping[int, int] | None = None,
    mud: Mapping[int, int] | None = None,
    discards: tuple[tuple[int, str], ...] = (),
    clan_deck: Cards = "",
    tactic_deck: Cards = "",
    fill: bool = True,
    current: int = 0,
    phase: str = "play",
    passes: int = 0,
    tactics_played: tuple[int, int] | None = None,
    seed: int | str = 0,
) -> Game:
    """A game in the given position. Decks are given top first. ``first`` names who
    completed first where both sides are complete (default: the side of player 0)."""
    options = options or GameOptions()
    rules = options.rules
    sides = sides or {}

    def cards(texts: Cards) -> list[Card]:
        return parse_cards(texts, max_value=rules.max_value)

    hand_cards = [cards(hands[0]), cards(hands[1])]
    side_cards: list[list[list[Card]]] = [
        [cards(sides[n][0]), cards(sides[n][1])] if n in sides else [[], []] for n in range(1, 10)
    ]
    disc = [(p, rules.parse_card(c)) for p, c in discards]
    clan_top = cards(clan_deck)
    tactic_top = cards(tactic_deck)
    terrain = {"fog": dict(fog or {}), "mud": dict(mud or {})}
    placed: list[Card] = [c for h in hand_cards for c in h] + [
        c for s in side_cards for side in s for c in side
    ]
    placed += [c for _, c in disc] + clan_top + tactic_top
    placed += [rules.parse_card(name) for name, at in terrain.items() for _ in at]
    clan_rest: list[Card] = list(rules.clan_deck())
    tactic_rest: list[Card] = list(rules.tactic_deck()) if options.tactics else []
    for card in placed:
        pool = tactic_rest if card.is_tactic else clan_rest
        if card not in pool:
            raise ValueError(f"{card} is placed twice or is not in this game")
        pool.remove(card)
    if not fill:
        clan_rest, tactic_rest = [], []
    # Decks are stored bottom first.
    clan = [*clan_rest, *reversed(clan_top)]
    tactic = [*tactic_rest, *reversed(tactic_top)]

    def count(p: int, pred: Callable[[Card], bool]) -> int:
        on_sides = sum(1 for s in side_cards for c in s[p] if pred(c))
        return on_sides + sum(1 for q, c in disc if q == p and pred(c))

    if tactics_played is None:
        tactics_played = (
            count(0, lambda c: c.is_tactic) + sum(1 for t in terrain.values() for q in t.values() if q == 0),
            count(1, lambda c: c.is_tactic) + sum(1 for t in terrain.values() for q in t.values() if q == 1),
        )
    leaders = [count(p, lambda c: isinstance(c, TacticCard) and c.tactic.text == "Leader") for p in (0, 1)]
    first = dict(first or {})
    stones = []
    for i, (a, b) in enumerate(side_cards):
        n = i + 1
        needed = 4 if n in terrain["mud"] else 3
        c0, c1 = len(a) >= needed, len(b) >= needed
        f = first.get(n, 0) if c0 and c1 else (0 if c0 else 1 if c1 else None)
        stones.append(
            {
                "sides": [[str(c) for c in a], [str(c) for c in b]],
                "owner": (owners or {}).get(n),
                "first_complete": f,
                "fog": terrain["fog"].get(n),
                "mud": terrain["mud"].get(n),
            }
        )
    d: dict[str, Any] = {
        "format": 1,
        "seed": seed,
        "options": options.to_dict(),
        "first_player": current,
        "log": [],
        "current_player": current,
        "phase": phase,
        "hands": [[str(c) for c in h] for h in hand_cards],
        "decks": {"clan": [str(c) for c in clan], "tactic": [str(c) for c in tactic]},
        "stones": stones,
        "discards": [[p, str(c)] for p, c in disc],
        "consecutive_passes": passes,
        "tactics_played": list(tactics_played),
        "leaders_played": leaders,
        "scout_draws_left": 0,
        "known_deck_cards": [[], []],
        "known_hand_cards": [[], []],
        "result": None,
    }
    return Game.from_dict(d)
