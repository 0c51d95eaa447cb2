"""The two rulesets the engine plays: the same game with another deck."""

from __future__ import annotations

from dataclasses import dataclass

from rules.cards import COLOURS, Card, ClanCard, Tactic, TacticCard, tactic_card
from rules.errors import NotationError


@dataclass(frozen=True)
class Ruleset:
    name: str  # "schotten-totten" or "battle-line"
    title: str
    max_value: int  # highest clan card value
    hand_size: int
    reinforcement_value: int  # Reinforcement / Companion Cavalry
    stones: int = 9

    def clan_deck(self) -> tuple[ClanCard, ...]:
        """Every clan card of this ruleset, in a fixed order (shuffled by the game)."""
        return tuple(ClanCard(c, v) for c in COLOURS for v in range(1, self.max_value + 1))

    def tactic_deck(self) -> tuple[TacticCard, ...]:
        """The ten tactic cards: Leader twice, every other tactic once."""
        return (tactic_card(Tactic.LEADER), *(tactic_card(t) for t in Tactic))

    def parse_card(self, text: str | Card) -> Card:
        from rules.cards import parse_card

        return parse_card(text, max_value=self.max_value)


SCHOTTEN_TOTTEN = Ruleset(
    "schotten-totten", "Schotten-Totten", max_value=9, hand_size=6, reinforcement_value=7
)
BATTLE_LINE = Ruleset("battle-line", "Battle Line", max_value=10, hand_size=7, reinforcement_value=8)
RULESETS = {r.name: r for r in (SCHOTTEN_TOTTEN, BATTLE_LINE)}


def get_ruleset(name: str | Ruleset) -> Ruleset:
    if isinstance(name, Ruleset):
        return name
    try:
        return RULESETS[name.strip().lower().replace("_", "-").replace(" ", "-")]
    except (KeyError, AttributeError):
        raise NotationError(str(name), what="ruleset") from None
