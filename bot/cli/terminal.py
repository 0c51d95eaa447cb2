"""Play Schotten-Totten in the terminal: against the AI, or two people on one keyboard.

    python -m bot.cli.terminal                       # you against the AI (hard)
    python -m bot.cli.terminal --level easy --seed 7
    python -m bot.cli.terminal --vs human --tactics  # hot seat, tactics variant
    python -m bot.cli.terminal --replay game.txt     # step through a game record

No token, no network: the board is the bot's own rendering (``bot.text.render``). Moves use
the log notation (``play R7 3``, ``claim 3``, ``draw clan``, ...) or short forms
(``R7 3``, ``c3``, ``p``, ``d``); ``help`` lists them. Bad input gets a message and a new
prompt; ``quit`` resigns; end of input or Ctrl+C leaves.

Status and narration lines use the terminal's width (40 to 120 columns, ``COLUMNS``
or the terminal's own size) and break between names, never inside one; the stone
columns keep the Discord board's 36. ``help`` also explains the board's marks and
abbreviations, and a line under the board names the abbreviated cards on it.

``--replay FILE`` steps through a finished game saved with ``/schotten export`` (the
``schotten-record`` format, ``docs/game-records.md``): Enter goes forward, ``b`` back,
``q`` quits (``replay`` below). The game is over, so both hands are shown.
"""

from __future__ import annotations

import argparse
import os
import random
import re
import shutil
import sys
from typing import TextIO

from bot.archive.record_file import RecordError, RecordFile, parse_record
from bot.text import i18n
from bot.text.catalogue import t
from bot.text.notation import move_text, read_move, refusal_text
from bot.text.render import (
    card_text,
    describe_hint,
    render_abbreviations,
    render_board,
    render_hand,
    render_legend,
    render_move,
    sort_hand,
    wrap,
)
from rules.ai import LEVELS, choose_move, hint
from rules.errors import IllegalMove, NotationError
from rules.game import Game, GameOptions
from rules.moves import Claim, Draw, Move, PlayCard, ScoutReturn, parse_move
from rules.rulesets import RULESETS
from rules.view import PlayerView


def _you() -> str:
    """The name of the one player at the keyboard against the AI."""
    return t("terminal.you")


MIN_WIDTH, MAX_WIDTH = 40, 120  # the board's stone columns need 36; longer lines are hard to read


def terminal_width() -> int:
    """The columns the status lines may use: the terminal's, within 40..120."""
    return max(MIN_WIDTH, min(MAX_WIDTH, shutil.get_terminal_size().columns))


ECHO_LIMIT = 40  # characters of the player's input repeated in a message


def _clip(text: str, limit: int = 3 * ECHO_LIMIT) -> str:
    """A message that may repeat part of the input (a stone number), cut short."""
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _echo(text: str, limit: int = ECHO_LIMIT) -> str:
    """``text`` quoted for a message, cut short: a pasted page is not printed back."""
    return repr(text if len(text) <= limit else text[: limit - 1] + "…")


def system_language() -> str:
    """The language of the terminal's locale (``LANG`` and friends), if the bot speaks it."""
    for variable in ("LC_ALL", "LC_MESSAGES", "LANG", "LANGUAGE"):
        value = os.environ.get(variable)
        if value:
            return i18n.normalize(value.split(":", 1)[0].split(".", 1)[0])
    return i18n.ENGLISH


# Stone numbers as in the notation: at most 3 ASCII digits (int() refuses thousands).
_SHORT_PLAY = re.compile(r"^\s*([a-z]+[0-9]*|[a-z]+-?[a-z]*)\s+([0-9]{1,3})\s*$", re.IGNORECASE)
_SHORT_CLAIM = re.compile(r"^\s*c(?:laim)?\s*([0-9]{1,3})\s*$", re.IGNORECASE)


class WhichDeck(NotationError):
    """``d`` when both decks may be drawn from: the player must say which."""

    def __init__(self, text: str) -> None:
        super().__init__(text, what="deck")


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
            raise WhichDeck(text)
        return parse_move("draw clan")  # not the draw phase: the game says why
    claim = _SHORT_CLAIM.match(text)
    if claim:
        return Claim(int(claim.group(1)))
    play = _SHORT_PLAY.match(text)
    if play and play.group(1).lower() not in ("claim", "deserter", "return"):
        return read_move(f"play {play.group(1)} {play.group(2)}", max_value=max_value)
    return read_move(text, max_value=max_value)


def describe_moves(moves: list[Move]) -> str:
    """The legal moves, plays grouped by card: ``play R7 at 1 2 5; claim 3; ...``."""
    plays: dict[str, list[str]] = {}
    others: list[str] = []
    returns = sorted({card_text(c) for m in moves if isinstance(m, ScoutReturn) for c in m.cards})
    if returns:  # after Scout: every ordered pair of the hand, i.e. dozens of moves
        others.append(t("terminal.return_any", cards=" ".join(returns)))
    for m in moves:
        if isinstance(m, ScoutReturn):
            continue
        if isinstance(m, PlayCard):
            plays.setdefault(card_text(m.card), []).append(str(m.stone))
        else:
            others.append(move_text(m))
    parts = [t("terminal.play_at", card=card, stones=" ".join(stones)) for card, stones in plays.items()]
    return t("terminal.legal_moves", moves="; ".join(parts + others))


class Terminal:
    def __init__(self, game: Game, humans: set[int], names: tuple[str, str], level: str, seed: int,
                 inp: TextIO, out: TextIO, width: int | None = None) -> None:  # fmt: skip
        self.game, self.humans, self.names, self.level, self.seed = game, humans, names, level, seed
        self.inp, self.out = inp, out
        self.width = terminal_width() if width is None else width
        # That player reads "You win", "Your ruses" and "Du hast R7 an 3 gespielt" rather
        # than "You wins", "You's ruses" and "Du spielte R7 an 3".
        self.you = names.index(_you()) if _you() in names else None

    def say(self, text: str = "") -> None:
        print(text, file=self.out, flush=True)

    def tell(self, text: str) -> None:
        """A status or narration line, wrapped at the terminal's width between names."""
        self.say(wrap(text, self.width, self.names))

    def board(self, view: PlayerView) -> str:
        return render_board(view, self.names, you=self.you, width=self.width, whole_names=True)

    def show(self, player: int) -> None:
        view = self.game.view(player)
        self.say()
        self.say(self.board(view))
        abbreviations = render_abbreviations(view)
        if abbreviations:
            self.tell(abbreviations)
        self.tell(t("terminal.hand", cards=render_hand(view)))
        claims = [str(m.stone) for m in view.legal_moves() if isinstance(m, Claim)]
        if claims:
            self.tell(t("terminal.can_claim", stones=", ".join(claims)))

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
                if any(isinstance(m, ScoutReturn) for m in game.legal_moves()):
                    self.tell(t("terminal.scout_return"))
            self.out.write(f"{self.names[p]}> ")
            self.out.flush()
            line = self.inp.readline()
            if not line:  # end of input
                self.say("\n" + t("terminal.bye"))
                return 0
            text = line.strip()
            word = text.lower()
            if not text:
                continue
            if word in ("quit", "exit", "q", "resign"):
                game.resign(p)
                if p == self.you:
                    self.tell(t("terminal.resigned.you"))
                else:
                    self.tell(t("terminal.resigned", name=self.names[p]))
                break
            if word in ("help", "h", "?"):
                self.say(t("terminal.help"))
                self.say(render_legend())
                continue
            if word in ("board", "b", "hand"):
                shown_for = None
                continue
            if word in ("moves", "m"):
                self.tell(describe_moves(game.legal_moves()))
                continue
            if word == "hint":
                self.tell(describe_hint(hint(game.view(p), seed=self.seed * 1_000_003 + game.version)))
                continue
            try:
                move = parse_input(text, game)
                self.apply(move, p)
            except WhichDeck:
                self.tell(t("terminal.which_deck"))
            except NotationError:
                self.tell(t("terminal.unknown", text=_echo(text)))
            except IllegalMove as error:
                self.tell(t("terminal.not_allowed", reason=_clip(refusal_text(error))))
        self.say()
        view = game.view(min(self.humans) if self.humans else 0)
        self.say(self.board(view))  # ends with the result
        return 0

    def apply(self, move: Move, player: int) -> None:
        applied = self.game.apply(move, player)
        if isinstance(move, Draw):
            if applied.drawn is not None and player in self.humans and len(self.humans) == 1:
                self.tell(t("terminal.drew", card=card_text(applied.drawn)))
        elif player not in self.humans or isinstance(move, Claim) or not isinstance(move, PlayCard):
            self.tell(render_move(player, move, self.names, you=self.you))
        for stone, owner in applied.decided:
            if isinstance(move, Claim):
                continue
            if owner == self.you:
                self.tell(t("terminal.stone_to.you", stone=stone))
            else:
                self.tell(t("terminal.stone_to", stone=stone, name=self.names[owner]))


class Replay:
    """Steps through a finished game's record; every step is rebuilt from the seed."""

    def __init__(self, record: RecordFile, inp: TextIO, out: TextIO, width: int | None = None) -> None:
        self.record, self.inp, self.out = record, inp, out
        self.names = (record.players[0].name, record.players[1].name)
        self.bottom = 0
        self.width = terminal_width() if width is None else width

    def say(self, text: str = "") -> None:
        print(text, file=self.out, flush=True)

    def tell(self, text: str) -> None:
        """A status line, wrapped at the terminal's width between names."""
        self.say(wrap(text, self.width, self.names))

    def show(self, step: int) -> None:
        game = self.record.replay(step)
        steps = self.record.steps
        self.say()
        if step == 0:
            self.tell(t("replay.deal", steps=steps, name=self.names[game.first_player or 0]))
        else:
            player, move = game.log[-1]
            self.tell(t("replay.step", step=step, steps=steps, move=render_move(player, move, self.names)))
        top = 1 - self.bottom
        self.tell(self.hand_line(game, top))
        view = game.view(self.bottom)
        self.say(render_board(view, self.names, bottom=self.bottom, width=self.width, whole_names=True))
        self.tell(self.hand_line(game, self.bottom))

    def hand_line(self, game: Game, player: int) -> str:
        cards = " ".join(card_text(c) for c in sort_hand(game.hand(player)))
        return t("replay.hand", name=self.names[player], cards=cards or t("terminal.replay_empty"))

    def run(self) -> int:
        record, step = self.record, 0
        game_id = f" #{record.game_id}" if record.game_id is not None else ""
        self.say(
            t(
                "terminal.replay_title",
                game_id=game_id,
                name0=self.names[0],
                name1=self.names[1],
                steps=record.steps,
            )
        )
        self.say(t("terminal.replay_help"))
        shown: int | None = None
        while True:
            if shown != step:
                self.show(step)
                shown = step
            self.out.write("replay> ")
            self.out.flush()
            line = self.inp.readline()
            if not line:
                self.say()
                return 0
            word = line.strip().lower()
            if word in ("q", "quit", "exit"):
                return 0
            if word in ("", "n", "next"):
                if step == record.steps:
                    self.say(t("terminal.replay_last"))
                step = min(step + 1, record.steps)
            elif word in ("b", "back", "p"):
                step = max(step - 1, 0)
            elif word in ("s", "start", "first"):
                step = 0
            elif word in ("e", "end", "last"):
                step = record.steps
            elif word.isdigit():
                step = min(int(word), record.steps)
            elif word in ("f", "flip"):
                self.bottom, shown = 1 - self.bottom, None
            elif word in ("h", "help", "?"):
                self.say(t("terminal.replay_help"))
            else:
                help_line = t("terminal.replay_help").splitlines()[0]
                self.say(t("terminal.replay_unknown", text=_echo(line.strip()), help=help_line))


def replay_file(path: str, inp: TextIO, out: TextIO, err: TextIO) -> int:
    """``--replay FILE``: read and check the record, then step through it."""
    try:
        with open(path, encoding="utf-8") as file:
            text = file.read()
        record = parse_record(text)
    except OSError as error:
        print(t("terminal.cannot_read", path=path, reason=error.strerror), file=err)
        return 2
    except (RecordError, UnicodeDecodeError) as error:
        print(t("terminal.not_a_record", path=path, reason=error), file=err)
        return 2
    return Replay(record, inp, out).run()


def main(argv: list[str] | None = None, *, stdin: TextIO | None = None, stdout: TextIO | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m bot.cli.terminal",
        description="Play Schotten-Totten in the terminal, against the AI or two at one keyboard. "
        "At the prompt, 'help' lists the moves.",
    )
    parser.add_argument(
        "--vs",
        choices=("ai", "human"),
        default="ai",
        help="ai: you against the AI (default); human: two players taking turns, who see each other's hand",
    )
    parser.add_argument(
        "--level",
        choices=LEVELS,
        default="hard",
        help="the AI's strength: random, easy, medium or hard (default hard)",
    )
    parser.add_argument("--seed", type=int, default=None, help="deal and AI seed (default: random)")
    parser.add_argument("--tactics", action="store_true", help="play with the tactic cards")
    parser.add_argument(
        "--ruleset",
        choices=sorted(RULESETS),
        default="schotten-totten",
        help="schotten-totten (clan cards 1-9, hands of 6; default) or battle-line (cards 1-10, hands of 7)",
    )
    parser.add_argument(
        "--claim-timing",
        choices=("anytime", "turn-start"),
        default="anytime",
        help="anytime: claim a stone whenever you can prove it (default); "
        "turn-start: only at the start of your turn",
    )
    parser.add_argument("--first", choices=("me", "ai", "random"), default="random", help="who starts")
    parser.add_argument(
        "--replay", metavar="FILE", help="step through a finished game saved with /schotten export"
    )
    parser.add_argument(
        "--lang", choices=i18n.LANGUAGES, default=None, help="en, de or fr (default: the system's language)"
    )
    args = parser.parse_args(argv)
    with i18n.use(args.lang or system_language()):
        return _main(args, stdin, stdout)


def _main(args: argparse.Namespace, stdin: TextIO | None, stdout: TextIO | None) -> int:
    out = stdout or sys.stdout
    if args.replay is not None:
        return replay_file(args.replay, stdin or sys.stdin, out, sys.stderr)
    seed = args.seed if args.seed is not None else random.randrange(1 << 31)
    first = {"me": 0, "ai": 1, "random": None}[args.first]
    options = GameOptions(ruleset=args.ruleset, tactics=args.tactics, claim_timing=args.claim_timing)
    game = Game.new(seed, options, first_player=first)
    if args.vs == "ai":
        humans, names = {0}, (_you(), t("terminal.ai", level=t(f"level.{args.level}")))
    else:
        humans, names = {0, 1}, (t("terminal.player", n=1), t("terminal.player", n=2))
    print(t("terminal.welcome", seed=seed), file=out)
    try:
        return Terminal(game, humans, names, args.level, seed, stdin or sys.stdin, out).run()
    except KeyboardInterrupt:  # Ctrl+C leaves the game like end of input does
        print("\n" + t("terminal.bye"), file=out, flush=True)
        return 0


if __name__ == "__main__":
    sys.exit(main())
