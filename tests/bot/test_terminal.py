"""The terminal game: full games through the prompt, short forms, bad input, end of input."""

from __future__ import annotations

import io
import random
import subprocess
import sys

import pytest

from bot.terminal import Terminal, main, parse_input
from rules.cards import parse_card
from rules.game import Game, GameOptions
from rules.moves import Claim, Draw, Pass, PlayCard, Scout


class ScriptedPlayer(io.StringIO):
    """Stdin that types a legal move (in short form where there is one) at every prompt,
    with a typo now and then, so a whole game goes through the real input path."""

    def __init__(self, game: Game, seed: int) -> None:
        super().__init__()
        self.game, self.rng, self.typos = game, random.Random(seed), 0

    def readline(self, size: int | None = -1) -> str:
        if self.rng.random() < 0.05:
            self.typos += 1
            return "play Z9 12\n"
        moves = self.game.legal_moves()
        move = moves[self.rng.randrange(len(moves))]
        if isinstance(move, PlayCard):
            return f"{move.card} {move.stone}\n"
        if isinstance(move, Claim):
            return f"c{move.stone}\n"
        return f"{move}\n"


@pytest.mark.parametrize(("humans", "tactics"), [({0}, False), ({0, 1}, False), ({0}, True)])
def test_a_scripted_game_finishes(humans: set[int], tactics: bool) -> None:
    game = Game.new(5, GameOptions(tactics=tactics))
    inp, out = ScriptedPlayer(game, 1), io.StringIO()
    assert Terminal(game, humans, ("You", "AI"), "medium", 5, inp, out).run() == 0
    assert game.is_over and game.result is not None
    text = out.getvalue()
    assert "Stone 1" not in text or "goes to" in text
    assert text.count("I don't understand") + text.count("Not allowed") >= inp.typos > 0
    assert "wins" in text.lower() or "draw" in text.lower()


def test_short_forms() -> None:
    game = Game.new(1, GameOptions(tactics=True))
    assert parse_input("R7 3", game) == PlayCard(parse_card("R7"), 3)
    assert parse_input("  play r7 3 ", game) == PlayCard(parse_card("R7"), 3)
    assert parse_input("leader 5", game) == PlayCard(parse_card("Leader"), 5)
    assert parse_input("c3", game) == Claim(3)
    assert parse_input("claim 3", game) == Claim(3)
    assert parse_input("p", game) == Pass()
    assert parse_input("scout", game) == Scout()
    assert parse_input("d t", game) == Draw("tactic")


def run_cli(stdin: str, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "bot.terminal", "--seed", "3", "--first", "me", *args],
        input=stdin,
        capture_output=True,
        text=True,
        timeout=60,
    )


def test_bad_input_gets_a_message_and_a_new_prompt_then_eof_exits() -> None:
    proc = run_cli("foo\nZ9 3\nc1\nhelp\n", "--level", "random")
    assert proc.returncode == 0, proc.stderr
    out = proc.stdout
    assert "I don't understand 'foo'" in out
    assert "I don't understand 'Z9 3'" in out
    assert "Not allowed:" in out  # c1: nothing to claim yet
    assert "Moves (stones are 1-9)" in out
    assert out.count("You> ") == 5  # a new prompt after each line, and one at EOF
    assert out.rstrip().endswith("Bye.")
    assert "Traceback" not in proc.stderr


def test_quit_resigns_and_shows_the_result() -> None:
    out = io.StringIO()
    assert main(["--seed", "2", "--level", "easy"], stdin=io.StringIO("quit\n"), stdout=out) == 0
    assert "You resigned." in out.getvalue()


def test_hint_suggests_a_legal_move_and_says_why() -> None:
    from bot.terminal import describe_hint
    from rules.ai import REASONS, Hint

    game = Game.new(3)
    human = game.current_player
    inp = io.StringIO("hint\nquit\n")
    out = io.StringIO()
    Terminal(game, {human}, ("You", "AI"), "easy", 3, inp, out).run()
    line = next(x for x in out.getvalue().splitlines() if "Hint: " in x)
    assert any(f"Hint: {m} - " in line for m in Game.new(3).legal_moves())
    for reason, params in REASONS.items():  # every reason code has a sentence
        text = describe_hint(Hint(Pass(), reason, {p: 1 for p in params}))
        assert not text.split(" - ", 1)[1].startswith(reason)  # a sentence, not the code
