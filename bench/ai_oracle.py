"""How much are the hidden cards worth to ``hard``? The same search, told the truth.

    python bench/ai_oracle.py --opponent medium --config st --games 60 --first-seed 8000 --out o.jsonl
    python bench/ai.py --compare design.jsonl o.jsonl     # paired with the honest search's games

A diagnostic, never a player: every playout of this ``hard`` deals the *real* opponent's
hand and the real order of both decks (read from the game it plays) instead of a random
sample of the unseen cards; with ``--hand-only``, only the real hand (what a perfect
inference of the hand from the opponent's plays could give). Everything else is the
search as it is (the same playouts, ranking and budget). Its score against an opponent
bounds what any inference of the hidden cards could add to the search; what it still
loses comes from the playouts, the search and the luck of the deal. Games are saved in
``bench/ai.py``'s format (with ``"set": {"ORACLE": true}``, or ``"hand"``), so
``--report`` and ``--compare`` read them.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:  # `python bench/ai_oracle.py` from anywhere, any interpreter
    sys.path.insert(0, str(ROOT))

from bench.ai import CONFIGS, apply_settings, parse_settings, play_game, wilson  # noqa: E402
from rules.ai import HARD_BUDGET, PLAYERS  # noqa: E402
from rules.ai.mcts import Root  # noqa: E402
from rules.ai.playout import World  # noqa: E402
from rules.game import Game  # noqa: E402

_playing: list[Game] = []  # the game the oracle is deciding in


def _true_world(self: Root, rng: object) -> World:
    game = _playing[-1]
    world = self.world.copy()
    world.hands[1] = list(game.hand(1 - self.view.player))
    world.clan = list(game._clan_deck)  # the decks' real order: the end is the top
    world.tac = list(game._tactic_deck)
    return world


def _true_hand(self: Root, rng: random.Random) -> World:
    """The real opponent's hand; the decks a random order of the rest (as the search
    would deal them): what a perfect inference of the hand alone could give."""
    game = _playing[-1]
    world = _honest_deal(self, rng)
    hand = list(game.hand(1 - self.view.player))
    sampled = world.hands[1]
    for deck in (world.clan, world.tac):
        for i, card in enumerate(deck):
            if card in hand:  # swap it with a sampled card of the same back
                swap = next(c for c in sampled if c not in hand and c.is_tactic == card.is_tactic)
                sampled.remove(swap)
                deck[i] = swap
    world.hands[1] = hand
    return world


_honest_deal = Root.deal


def _watch(game: Game) -> None:
    _playing[:] = [game]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--opponent", default="medium", choices=[p for p in PLAYERS if p != "hard"])
    parser.add_argument("--config", default="st", choices=sorted(CONFIGS))
    parser.add_argument("--games", type=int, default=60, help="deals (each played from both seats)")
    parser.add_argument("--first-seed", type=int, default=0)
    parser.add_argument("--budget", type=int, default=None, help="playouts (default: hard's)")
    parser.add_argument("--out", default=None, help="append every game as a JSON line")
    parser.add_argument(
        "--hand-only", action="store_true", help="tell only the opponent's hand, not the decks' order"
    )
    parser.add_argument("--set", action="append", default=[], metavar="NAME=VALUE", help="as in bench/ai.py")
    args = parser.parse_args(argv)
    try:
        settings = parse_settings(args.set)
    except ValueError as error:
        parser.error(str(error))
    apply_settings(settings)
    Root.deal = _true_hand if args.hand_only else _true_world  # type: ignore[method-assign]
    out = open(args.out, "a") if args.out else None  # noqa: SIM115
    score = 0.0
    n = 0
    for seed in range(args.first_seed, args.first_seed + args.games):
        for seat in (0, 1):
            row = play_game(("hard", args.opponent, args.config, seed, seat, args.budget), watch=_watch)
            told = {"ORACLE": "hand"} if args.hand_only else {"ORACLE": True}
            row["set"] = {**told, **row.get("set", {})}
            score += row["score"]
            n += 1
            if out:
                out.write(json.dumps(row) + "\n")
                out.flush()
    if out:
        out.close()
    lo, hi = wilson(score, n)
    print(
        f"hard told the hidden cards vs {args.opponent}, {args.config},"
        f" {args.budget or HARD_BUDGET.iterations} playouts:"
        f" {n} games, {100 * score / n:.1f}% [{100 * lo:.1f}, {100 * hi:.1f}]"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
