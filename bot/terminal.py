"""Play Schotten-Totten in the terminal: against the AI, or two people on one keyboard.

    python -m bot.terminal                       # you against the AI (hard)
    python -m bot.terminal --level easy --seed 7
    python -m bot.terminal --vs human --tactics  # hot seat, tactics variant

No token, no network: the board is the bot's own rendering (``bot.render``). Moves use
the log notation (``play R7 3``, ``claim 3``, ``draw clan``, ...) or short forms
(``R7 3``, ``c3``, ``p``, ``d``); ``help`` lists them. Bad input gets a message and a new
prompt; ``quit`` or end of input leaves.
"""

from __future__ import annotations

import argparse
import random
import re
import sys
from typing import TextIO

from bot.render import render_board, render_hand, render_move
from rules.ai import LEVELS, Hint, choose_move, hint
from rules.errors import IllegalMove, NotationError
from rules.game import Game, GameOptions
from rules.moves import Claim, Draw, Move, PlayCard, parse_move
from rules.rulesets import RULESETS

HELP = """\
Moves (stones are 1-9):
  R7 3  or  play R7 3      play a card at a stone (Leader 5, Fog 2 ...)
  c3  or  claim 3          claim a stone
  d  or  draw [clan|tactic] draw (end of turn)
  p  or  pass              pass when you cannot play
  scout / return R7 Fog / redeploy R7 3 5 / deserter R7 3 / traitor R7 3 5
Other: board, hand, moves (your legal moves), hint (the hard AI's suggestion), help, quit"""

_SHORT_PLAY = re.compile(r"^\s*([a-z]+\d*|[a-z]+-?[a-z]*)\s+(\d+)\s*$", re.IGNORECASE)
_SHORT_CLAIM = re.compile(r"^\s*c(?:laim)?\s*(\d+)\s*$", re.IGNORECASE)


def parse_input(text: str, game: Game) -> Move:
    """A move from what a person typed: the log notation or a short form."""
    words = text.strip().lower().split()
    max_value = game.ruleset.max_value
    if words in (["p"], ["pass"]):
        return parse_move("pass")
    if words and words[0] in ("d", "draw") and len(words) <= 2:
        draws = [m for m in game.legal_moves() if isinstance(m, Draw)]
        if len(words) == 2:
            deck = {"c": "clan", "t": "tactic"}.get(words[1], words[1])
            return parse_move(f"draw {deck}")
        if len(draws) == 1:
            return draws[0]
        if draws:
            raise NotationError(text, what="move (say 'draw clan' or 'draw tactic')")
        return parse_move("draw clan")  # not the draw phase: the game says why
    claim = _SHORT_CLAIM.match(text)
    if claim:
        return Claim(int(claim.group(1)))
    play = _SHORT_PLAY.match(text)
    if play and play.group(1).lower() not in ("claim", "deserter", "return"):
        return parse_move(f"play {play.group(1)} {play.group(2)}", max_value=max_value)
    return parse_move(text, max_value=max_value)


def describe_moves(moves: list[Move]) -> str:
    """The legal moves, plays grouped by card: ``play R7 at 1 2 5; claim 3; ...``."""
    plays: dict[str, list[str]] = {}
    others: list[str] = []
    for m in moves:
        if isinstance(m, PlayCard):
            plays.setdefault(str(m.card), []).append(str(m.stone))
        else:
            others.append(str(m))
    parts = [f"play {card} at {' '.join(stones)}" for card, stones in plays.items()]
    return "Legal moves: " + "; ".join(parts + others)


_REASON_TEXT = {
    "claim": "stone {stone} is provably yours",
    "completes_colour_run": "it completes a colour run at stone {stone}",
    "completes_three_of_a_kind": "it completes three of a kind at stone {stone}",
    "completes_colour": "it completes a colour at stone {stone}",
    "completes_run": "it completes a run at stone {stone}",
    "completes_sum": "it completes stone {stone}",
    "builds_colour_run": "it builds towards a colour run at stone {stone}",
    "builds_three_of_a_kind": "it builds towards three of a kind at stone {stone}",
    "builds_colour": "it builds towards a colour at stone {stone}",
    "builds_run": "it builds towards a run at stone {stone}",
    "opens_stone": "it opens stone {stone}",
    "dumps_card": "stone {stone} is where a weak card costs least",
    "plays_joker": "{card} is worth most at stone {stone}",
    "fog": "under Fog only the sum counts at stone {stone}",
    "mud": "Mud makes stone {stone} a four-card fight",
    "traitor": "{card} is worth more on your side at stone {to_stone}",
    "deserter": "without {card} stone {stone} turns",
    "redeploy": "{card} does more elsewhere",
    "scout": "a look at three cards is worth a turn",
    "scout_return": "you need those cards least",
    "draw_clan": "you need clan cards",
    "draw_tactic": "a tactic card is worth more now",
    "pass": "you have nothing to play",
    "only_move": "there is nothing else",
}


def describe_hint(h: Hint) -> str:
    """A hint as one line of English (the codes are for translations)."""
    why = _REASON_TEXT.get(h.reason, h.reason).format(**h.params)
    chance = "" if h.win_chance is None else f" (your chances after it: about {h.win_chance:.0%})"
    return f"Hint: {h.move} - {why}{chance}."


class Terminal:
    def __init__(self, game: Game, humans: set[int], names: tuple[str, str], level: str, seed: int,
                 inp: TextIO, out: TextIO) -> None:  # fmt: skip
        self.game, self.humans, self.names, self.level, self.seed = game, humans, names, level, seed
        self.inp, self.out = inp, out

    def say(self, text: str = "") -> None:
        print(text, file=self.out, flush=True)

    def show(self, player: int) -> None:
        view = self.game.view(player)
        self.say()
        self.say(render_board(view, self.names))
        self.say(f"Your hand: {render_hand(view)}")
        claims = [str(m.stone) for m in view.legal_moves() if isinstance(m, Claim)]
        if claims:
            self.say(f"You can claim: {', '.join(claims)}")

    def run(self) -> int:
        game = self.game
        shown_for: tuple[int, int] | None = None
        while not game.is_over:
            p = game.current_player
            assert p is not None
            forced = game.forced_move()
            if forced is not None:
                self.apply(forced, p)
                continue
            if p not in self.humans:
                move = choose_move(game.view(p), level=self.level, seed=self.seed * 1_000_003 + game.version)
                self.apply(move, p)
                continue
            if shown_for != (p, game.version):
                self.show(p)
                shown_for = (p, game.version)
            self.out.write(f"{self.names[p]}> ")
            self.out.flush()
            line = self.inp.readline()
            if not line:  # end of input
                self.say("\nBye.")
                return 0
            text = line.strip()
            word = text.lower()
            if not text:
                continue
            if word in ("quit", "exit", "q", "resign"):
                game.resign(p)
                self.say(f"{self.names[p]} resigned.")
                break
            if word in ("help", "h", "?"):
                self.say(HELP)
                continue
            if word in ("board", "b", "hand"):
                shown_for = None
                continue
            if word in ("moves", "m"):
                self.say(describe_moves(game.legal_moves()))
                continue
            if word == "hint":
                self.say(describe_hint(hint(game.view(p), seed=self.seed * 1_000_003 + game.version)))
                continue
            try:
                move = parse_input(text, game)
                self.apply(move, p)
            except NotationError:
                self.say(f"I don't understand {text!r}. Try 'R7 3', 'c3', 'd', or 'help'.")
            except IllegalMove as error:
                self.say(f"Not allowed: {error}")
        self.say()
        view = game.view(min(self.humans) if self.humans else 0)
        self.say(render_board(view, self.names))  # ends with the result
        return 0

    def apply(self, move: Move, player: int) -> None:
        applied = self.game.apply(move, player)
        if isinstance(move, Draw):
            if applied.drawn is not None and player in self.humans and len(self.humans) == 1:
                self.say(f"You drew {applied.drawn}.")
        elif player not in self.humans or isinstance(move, Claim) or not isinstance(move, PlayCard):
            self.say(render_move(player, move, self.names))
        for stone, owner in applied.decided:
            if not isinstance(move, Claim):
                self.say(f"Stone {stone} goes to {self.names[owner]}.")


def main(argv: list[str] | None = None, *, stdin: TextIO | None = None, stdout: TextIO | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bot.terminal", description="Play Schotten-Totten.")
    parser.add_argument("--vs", choices=("ai", "human"), default="ai")
    parser.add_argument("--level", choices=LEVELS, default="hard")
    parser.add_argument("--seed", type=int, default=None, help="deal and AI seed (default: random)")
    parser.add_argument("--tactics", action="store_true", help="play with the tactic cards")
    parser.add_argument("--ruleset", choices=sorted(RULESETS), default="schotten-totten")
    parser.add_argument("--claim-timing", choices=("anytime", "turn-start"), default="anytime")
    parser.add_argument("--first", choices=("me", "ai", "random"), default="random", help="who starts")
    args = parser.parse_args(argv)
    out = stdout or sys.stdout
    seed = args.seed if args.seed is not None else random.randrange(1 << 31)
    first = {"me": 0, "ai": 1, "random": None}[args.first]
    options = GameOptions(ruleset=args.ruleset, tactics=args.tactics, claim_timing=args.claim_timing)
    game = Game.new(seed, options, first_player=first)
    if args.vs == "ai":
        humans, names = {0}, ("You", f"AI ({args.level})")
    else:
        humans, names = {0, 1}, ("Player 1", "Player 2")
    print(f"Schotten-Totten, seed {seed}. Type 'help' for the commands.", file=out)
    return Terminal(game, humans, names, args.level, seed, stdin or sys.stdin, out).run()


if __name__ == "__main__":
    sys.exit(main())
