"""Determinization: a full :class:`~rules.game.Game` consistent with a
:class:`~rules.view.PlayerView`, the cards the view hides dealt at random.

The AI's players sample such worlds to try moves on (``winning_move`` in
:mod:`rules.ai.mcts`, the sniper's decisive tactics in :mod:`rules.ai.baselines`); the
search's own playouts deal lighter worlds of their own (``mcts.Root.deal``).
"""

from __future__ import annotations

import random

from rules.cards import Card
from rules.game import Game
from rules.view import PlayerView

__all__ = ["sample_game"]


def sample_game(view: PlayerView, rng: random.Random) -> Game:
    """A full game consistent with ``view``: the unseen cards are dealt at random to the
    opponent's hand and the decks; the cards the viewer put back with Scout stay where
    the viewer knows them to be. The sample has no seed and an empty log.

    ``rng`` is used for two shuffles, clan then tactic cards (the AI's moves for a seed
    depend on this order)."""
    options = view.options
    rules = options.rules
    # Unseen cards: everything minus the table, the discards, my hand and known deck cards.
    unseen = list(rules.clan_deck()) + (list(rules.tactic_deck()) if options.tactics else [])
    seen: list[Card] = [c for st in view.stones for side in st.sides for c in side]
    seen += [c for st in view.stones for c, _ in st.terrain]
    seen += [c for _, c in view.discards] + list(view.hand) + [c for _, _, c in view.known_deck_cards]
    seen += view.opponent_known_cards
    for c in seen:
        unseen.remove(c)
    clan = [c for c in unseen if not c.is_tactic]
    tac = [c for c in unseen if c.is_tactic]
    rng.shuffle(clan)
    rng.shuffle(tac)
    # The opponent's hand: the cards the viewer knows it holds, then random ones of the
    # right backs (tactic cards look different, so their number is public).
    opp_hand = list(view.opponent_known_cards)
    n_tac = view.opponent_hand_tactics - sum(1 for c in opp_hand if c.is_tactic)
    n_clan = view.opponent_hand_size - len(opp_hand) - n_tac
    opp_hand += [tac.pop() for _ in range(n_tac)] + [clan.pop() for _ in range(n_clan)]
    # The known deck cards go back at their depth, deepest first: an insertion never
    # moves one made before.
    decks = {"clan": clan, "tactic": tac}
    for deck_name, depth, card in sorted(view.known_deck_cards, key=lambda k: (k[0], -k[1])):
        size = view.deck_sizes[0 if deck_name == "clan" else 1]
        decks[deck_name].insert(size - 1 - depth, card)
    return Game.from_view(view, opponent_hand=opp_hand, clan_deck=clan, tactic_deck=tac)
