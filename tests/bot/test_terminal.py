"""The terminal game: full games through the prompt, short forms, bad input, end of input."""

from __future__ import annotations

import io
import os
import random
import signal
import subprocess
import sys

import pytest

from bot.cli.terminal import Terminal, main, parse_input
from bot.text.catalogue import t
from rules.cards import parse_card
from rules.game import Game, GameOptions
from rules.moves import Claim, Draw, Pass, PlayCard, Scout
from rules.positions import position


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
    assert "Game over: " in text and ("win" in text.lower() or "draw" in text.lower())


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
        [sys.executable, "-m", "bot.cli.terminal", "--seed", "3", "--first", "me", *args],
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


def test_the_player_called_you_is_addressed_in_the_second_person() -> None:
    # "You" win and "Your ruses", not "You wins" and "You's ruses"; the AI keeps its name.
    game = position(
        options=GameOptions(tactics=True),
        hands=("R1 Y1", "G1 Y2"),
        sides={3: ("P7 P8 P9", "G4 G5")},
        owners={1: 0, 2: 0},
        discards=((0, "Scout"), (1, "Deserter")),
    )
    out = io.StringIO()
    assert Terminal(game, {0}, ("You", "AI (hard)"), "easy", 1, io.StringIO("c3\n"), out).run() == 0
    text = " ".join(out.getvalue().split())  # the board wraps its long lines
    assert game.result is not None and game.result.winner == 0
    assert "You win with three adjacent stones." in text
    assert "Your ruses: Scout" in text and "AI (hard)'s ruses: Deserter" in text
    assert "You wins" not in text and "You's" not in text


def test_hot_seat_names_keep_the_third_person() -> None:
    game = position(hands=("R1 Y1", "G1 Y2"), sides={3: ("P7 P8 P9", "G4 G5")}, owners={1: 0, 2: 0})
    out = io.StringIO()
    assert Terminal(game, {0, 1}, ("Player 1", "Player 2"), "easy", 1, io.StringIO("c3\n"), out).run() == 0
    assert "Player 1 wins with three adjacent stones." in " ".join(out.getvalue().split())


def test_a_very_long_line_is_not_echoed_whole() -> None:
    junk = "x" * 10_000
    proc = run_cli(f"{junk}\nplay R7 {'9' * 5000}\n", "--level", "random")
    assert proc.returncode == 0, proc.stderr
    assert "I don't understand 'xxxx" in proc.stdout
    assert max(len(line) for line in proc.stdout.splitlines()) <= 120
    assert "x" * 200 not in proc.stdout and "9" * 200 not in proc.stdout


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals")
def test_ctrl_c_at_the_prompt_exits_without_a_traceback() -> None:
    proc = subprocess.Popen(
        [sys.executable, "-m", "bot.cli.terminal", "--seed", "3", "--first", "me", "--level", "random"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        assert proc.stdout is not None
        seen = ""
        while not seen.endswith("You> "):  # the prompt has no newline: read by character
            char = proc.stdout.read(1)
            assert char, "the game ended before its first prompt"
            seen += char
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=30)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert "Traceback" not in err and "KeyboardInterrupt" not in err
    assert "Bye." in out
    assert proc.returncode == 0


# ------------------------------------------------------------------ --replay FILE


def _record_file(tmp_path, seed: int = 12, names: tuple[str, str] = ("Alice", "Bob")) -> tuple[str, Game]:
    from bot.archive.record_file import RecordFile, RecordPlayer, export_game

    game = Game.new(seed, GameOptions(tactics=True))
    rng = random.Random(seed)
    while not game.is_over:
        game.apply(game.forced_move() or rng.choice(game.legal_moves()))
    assert game.result is not None and game.first_player is not None
    record = RecordFile(
        options=game.options,
        seed=seed,
        players=(RecordPlayer(1, names[0]), RecordPlayer(2, names[1])),
        first_player=game.first_player,
        result=game.result,
        moves=tuple((p, str(m)) for p, m in game.log),
        game_id=42,
    )
    path = tmp_path / "game-42.txt"
    path.write_text(export_game(record), encoding="utf-8")
    return str(path), game


def _steps(text: str) -> list[str]:
    return [line for line in text.splitlines() if line.startswith("Step ")]


def test_replay_steps_through_a_record_with_both_hands(tmp_path) -> None:
    from bot.cli.terminal import terminal_width
    from bot.text.render import card_text, render_board, sort_hand

    path, game = _record_file(tmp_path)
    n = len(game.log)
    out = io.StringIO()
    keys = "\n\nb\nzzz\ne\n\nf\nq\n"  # forward twice, back, nonsense, end, past the end, flip
    assert main(["--replay", path], stdin=io.StringIO(keys), stdout=out) == 0
    text = out.getvalue()
    assert text.startswith(f"Replay of game #42: Alice against Bob, {n} steps.")
    first_player = ("Alice", "Bob")[game.first_player]
    drew = "a tactic card" if game.log[1][1].deck == "tactic" else "a card"
    assert _steps(text) == [
        f"Step 0 of {n}: the deal. {first_player} moves first.",
        f"Step 1 of {n}: {first_player} played {game.log[0][1].card} at {game.log[0][1].stone}",
        f"Step 2 of {n}: {first_player} drew {drew}",
        _steps(text)[1],  # back to step 1
        _steps(text)[4],  # the end
        _steps(text)[4],  # the same end, board turned round
    ]
    assert _steps(text)[4].startswith(f"Step {n} of {n}: ")
    assert "I don't understand 'zzz'" in text
    assert "That was the last move." in text
    # At the deal, both hands as dealt; at the end, the final board and both final hands.
    dealt = Game.new(12, GameOptions(tactics=True), first_player=game.first_player)
    for player, name in enumerate(("Alice", "Bob")):
        for state in (dealt, game):
            cards = " ".join(card_text(c) for c in sort_hand(state.hand(player)))
            assert f"{name}'s hand: {cards or '(empty)'}" in text
    # The board's status lines use the terminal's width.
    wide = {"width": terminal_width(), "whole_names": True}
    assert render_board(game.view(0), ("Alice", "Bob"), bottom=0, **wide) in text
    assert render_board(game.view(1), ("Alice", "Bob"), bottom=1, **wide) in text  # turned round


def test_replay_of_a_bad_file_says_why(tmp_path) -> None:
    path, _ = _record_file(tmp_path)
    with open(path, encoding="utf-8") as file:
        text = file.read()
    bad = tmp_path / "bad.txt"
    bad.write_text(text.replace("schotten-record 1", "schotten-record 9"), encoding="utf-8")
    proc = subprocess.run(
        [sys.executable, "-m", "bot.cli.terminal", "--replay", str(bad)],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert proc.returncode == 2
    assert "is not a game record we can replay: line 1: schotten-record version 9" in proc.stderr
    assert "Traceback" not in proc.stderr
    missing = main(["--replay", str(tmp_path / "nope.txt")], stdin=io.StringIO(""), stdout=io.StringIO())
    assert missing == 2


def test_make_play_replay_reads_the_file_until_end_of_input(tmp_path) -> None:
    path, game = _record_file(tmp_path, seed=13)
    proc = subprocess.run(
        [sys.executable, "-m", "bot.cli.terminal", "--replay", path],
        input="e\n",
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert proc.returncode == 0, proc.stderr
    assert f"Step {len(game.log)} of {len(game.log)}" in proc.stdout
    assert "Game over:" in proc.stdout


def test_hint_suggests_a_legal_move_and_says_why() -> None:
    from bot.text.render import describe_hint
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


def test_d_with_two_decks_asks_which_through_the_prompt() -> None:
    # Tactics variant: after a play both decks may be drawn from, so a bare `d` must say
    # how to name the deck rather than "I don't understand".
    from bot.text.notation import move_text

    options = GameOptions(tactics=True)
    game = Game.new(3, options, first_player=0)
    play = next(m for m in game.legal_moves() if isinstance(m, PlayCard))
    out = io.StringIO()
    lines = f"{move_text(play)}\nd\nquit\n"
    assert main(["--vs", "human", "--tactics", "--seed", "3", "--first", "me", "--lang", "en"],
                stdin=io.StringIO(lines), stdout=out) == 0  # fmt: skip
    text = out.getvalue()
    assert "Which deck? Say 'draw clan'" in text
    assert "I don't understand" not in text


def test_moves_after_scout_lists_the_cards_not_every_pair() -> None:
    from bot.cli.terminal import describe_moves
    from rules.moves import ScoutReturn

    cards = [parse_card(c) for c in ("R1", "B2", "G3", "Y4", "P5", "O6", "R7", "B8")]
    pairs = [ScoutReturn((a, b)) for a in cards for b in cards if a != b]
    assert len(pairs) == 56
    text = describe_moves(pairs)
    assert text.count("return") == 1 and "return any two of" in text
    assert len(text) < 120


def test_help_describes_every_option() -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "bot.cli.terminal", "--help"], capture_output=True, text=True, timeout=60
    )
    assert proc.returncode == 0
    for option in ("--vs", "--level", "--ruleset", "--claim-timing"):
        line = next(line for line in proc.stdout.splitlines() if line.strip().startswith(option))
        assert "{" in line  # the choices
    words = " ".join(proc.stdout.split())  # argparse wraps to the terminal's width
    assert "two players taking turns" in words and "start of your turn" in words
    assert "hands of 7" in words and "strength" in words


# ------------------------------------- the terminal's width, second person, abbreviations


def run_wide(stdin: str, *args: str, columns: int = 120) -> str:
    """The real prompt in a terminal of ``columns`` columns."""
    proc = subprocess.run(
        [sys.executable, "-m", "bot.cli.terminal", *args],
        input=stdin,
        capture_output=True,
        text=True,
        timeout=60,
        env={**os.environ, "COLUMNS": str(columns)},
    )
    assert proc.returncode == 0, proc.stderr
    assert "Traceback" not in proc.stderr
    return proc.stdout


def test_a_wide_terminal_shows_long_names_whole(tmp_path) -> None:
    # Was: status lines wrapped at 40 columns in any terminal, cutting names in two
    # ("Last: Anna-Lena von" / "Hohenzollern played ...") or short ("Anna-Lena von H…").
    names = ("Anna-Lena von Hohenzollern", "Jean-Baptiste Poquelin")
    path, _ = _record_file(tmp_path, seed=12, names=names)
    out = run_wide("\n\ne\n", "--replay", path, "--lang", "en")
    lines = out.splitlines()
    assert max(len(line) for line in lines) <= 120
    assert "…" not in out
    for line in lines:
        for name in names:
            for part in name.split():
                if part in line:
                    assert name in line, line  # every mention of a name is the whole name
    for name in names:
        assert any(line.startswith(f"{name} (") for line in lines)  # the hand-size lines
    assert f"^ {names[1]}  v {names[0]}" in lines
    assert any(line.startswith("Last: ") and len(line) > 40 for line in lines)


def test_the_board_at_40_columns_is_the_discord_board() -> None:
    from bot.text.render import render_board

    game = Game.new(3, GameOptions(tactics=True))
    names = ("Anna-Lena von Hohenzollern", "AI (hard)")
    assert render_board(game.view(0), names, width=40) == render_board(game.view(0), names)


def _first_play(language: str) -> tuple[str, PlayCard]:
    """The first play the terminal offers in ``--seed 3 --first me --tactics``, typed in
    ``language``."""
    from bot.text import i18n
    from bot.text.notation import move_text

    game = Game.new(3, GameOptions(tactics=True), first_player=0)
    play = next(m for m in game.legal_moves() if isinstance(m, PlayCard))
    with i18n.use(language):
        return move_text(play), play


SECOND_PERSON = {
    # language: the board's last turn after the play, then after resigning; the
    # resignation; the result ({card} and {stone}: the play; the AI plays "random").
    "en": (
        "Last: You played {card} at {stone}",
        "Last: You played {card} at {stone}; You resigned",
        "You resigned.",
        "Game over: You resigned; AI (random) wins.",
    ),
    "de": (
        "Zuletzt: Du hast {card} an {stone} gespielt",
        "Zuletzt: Du hast {card} an {stone} gespielt; Du hast aufgegeben",
        "Du hast aufgegeben.",
        "Spielende: Du hast aufgegeben; KI (zufällig) gewinnt.",
    ),
    "fr": (
        "Dernier\xa0: Tu as joué {card} en {stone}",
        "Dernier\xa0: Tu as joué {card} en {stone}; Tu as abandonné",
        "Tu as abandonné.",
        "Partie terminée\xa0: Tu as abandonné\xa0; IA (aléatoire) gagne.",
    ),
}


@pytest.mark.parametrize("language", sorted(SECOND_PERSON))
def test_the_player_at_the_keyboard_is_narrated_in_the_second_person(language: str) -> None:
    # Was: "Du spielte V9 an 5", "Du hat aufgegeben", "Toi a abandonné": a pronoun put
    # into third-person sentences; and the result wrapped at 40 columns inside "KI (zufällig)".
    from bot.text import i18n
    from bot.text.render import card_text

    typed, play = _first_play(language)
    with i18n.use(language):
        card = card_text(play.card)
    args = ("--seed", "3", "--first", "me", "--tactics", "--level", "random", "--lang", language)
    out = run_wide(f"{typed}\nquit\n", *args)
    lines = out.splitlines()
    played, last, resigned, result = SECOND_PERSON[language]
    assert played.format(card=card, stone=play.stone) in lines  # the board before the draw
    assert last.format(card=card, stone=play.stone) in lines  # the final board
    assert any(line.endswith(resigned) for line in lines)  # after the prompt
    assert result in lines
    for wrong in ("Du spielte", "Du hat ", "Du gab", "Toi a ", "Toi abandonne"):
        assert wrong not in out


HELP_EXPLAINS = {
    "en": ["Ldr = Leader", "Rnf = Reinforcement", "Shb = ShieldBearer", "R = red", "P = purple",
           "^3, v3: stone 3 belongs to the player above (^) or below (v)", "3M, 3F: Mud (M) or Fog (F)",
           '"tactics: 2" after a name'],
    "de": ["Anf = Anführer", "Vst = Verstärkung", "Sch = Schildträger", "G = gelb", "N = grün",
           "V = violett", "^3, v3: Stein 3 gehört dem Spieler oben (^) oder unten (v)",
           "3M, 3F: Schlamm (M) oder Nebel (F)", '"Taktik: 2" nach einem Namen'],
    "fr": ["Chf = Chef", "Ren = Renfort", "Pbo = Porte-bouclier", "J = jaune", "V = vert",
           "P = pourpre", "^3, v3\xa0: la borne 3 appartient au joueur du haut (^) ou du bas (v)",
           "3M, 3F\xa0: Boue (M) ou Brouillard (F)", "«\xa0Tactique\xa0: 2\xa0» après un nom"],
}  # fmt: skip


@pytest.mark.parametrize("language", sorted(HELP_EXPLAINS))
def test_help_explains_the_boards_abbreviations(language: str) -> None:
    # Was: "Vst", "Anf", "^4", "3M" and "tactics: 2" on the board, explained nowhere.
    out = run_wide("help\nquit\n", "--seed", "3", "--first", "me", "--tactics", "--lang", language)
    for text in HELP_EXPLAINS[language]:
        assert text in out, text


@pytest.mark.parametrize(
    ("language", "line"),
    [("en", "On the board: Ldr = Leader, Rnf = Reinforcement"),
     ("de", "Auf dem Spielfeld: Anf = Anführer, Vst = Verstärkung"),
     ("fr", "Sur le plateau\xa0: Chf = Chef, Ren = Renfort")],
)  # fmt: skip
def test_a_line_under_the_board_names_the_abbreviated_cards_on_it(language: str, line: str) -> None:
    from bot.text import i18n

    game = position(options=GameOptions(tactics=True), hands=("R1 Y1", "G1 Y2"),
                    sides={2: ("Reinforcement", ""), 5: ("B3", "Leader")})  # fmt: skip
    out = io.StringIO()
    with i18n.use(language):
        Terminal(game, {0}, (t("terminal.you"), "AI"), "easy", 1, io.StringIO(""), out).run()
    assert line in out.getvalue().splitlines()


# Every kind of move and result, as the player at the keyboard reads it.
YOUR_MOVES = {
    "en": [
        "You played R7 at 3", "You claimed stone 4", "You passed", "You drew a card",
        "You drew a tactic card", "You ended your turn (both decks are empty)", "You played Scout",
        "You put two cards back", "You redeployed R7 from 3 to 5", "You redeployed R7 from 3 to the discard",
        "You sent a Deserter: R7 at 3 discarded", "You turned a Traitor: R7 from 3 to 5",
        "You resigned", "You ran out of time", "You withdrew from the tournament",
        "You were removed from the tournament", "You put two cards back",
    ],
    "de": [
        "Du hast R7 an 3 gespielt", "Du hast Stein 4 beansprucht", "Du hast gepasst",
        "Du hast eine Karte gezogen", "Du hast eine Taktikkarte gezogen",
        "Du hast deinen Zug beendet (beide Stapel sind leer)", "Du hast Kundschafter gespielt",
        "Du hast zwei Karten zurückgelegt", "Du hast R7 von 3 nach 5 umgruppiert",
        "Du hast R7 von 3 auf den Ablagestapel umgruppiert",
        "Du hast Deserteur gespielt: R7 an 3 abgelegt", "Du hast Verräter gespielt: R7 von 3 nach 5",
        "Du hast aufgegeben", "Du hast auf Zeit verloren", "Du hast dich aus dem Turnier zurückgezogen",
        "Du wurdest aus dem Turnier entfernt", "Du hast zwei Karten zurückgelegt",
    ],
    "fr": [
        "Tu as joué R7 en 3", "Tu as revendiqué la borne 4", "Tu as passé", "Tu as pioché une carte",
        "Tu as pioché une carte Tactique", "Tu as fini ton tour (les deux pioches sont vides)",
        "Tu as joué Éclaireur", "Tu as reposé deux cartes", "Tu as redéployé R7 de 3 à 5",
        "Tu as redéployé R7 de 3 vers la défausse", "Tu as joué Déserteur\xa0: défausse de R7 en 3",
        "Tu as joué Traître\xa0: R7 de 3 à 5", "Tu as abandonné", "Tu as perdu au temps",
        "Tu t'es retiré du tournoi", "Tu as été exclu du tournoi", "Tu as reposé deux cartes",
    ],
}  # fmt: skip


def _every_kind_of_move() -> list:
    from rules.game import Forfeit, Kick, Resign, Withdraw
    from rules.moves import Deserter, Redeploy, ScoutReturn, Traitor

    r7 = parse_card("R7")
    return [
        PlayCard(r7, 3), Claim(4), Pass(), Draw("clan"), Draw("tactic"), Draw(None), Scout(),
        ScoutReturn((r7, parse_card("Fog"))), Redeploy(r7, 3, 5), Redeploy(r7, 3, None),
        Deserter(r7, 3), Traitor(r7, 3, 5), Resign(), Forfeit(), Withdraw(), Kick(),
        None,  # a move the reader may not see: the opponent's Scout return
    ]  # fmt: skip


@pytest.mark.parametrize("language", sorted(YOUR_MOVES))
def test_every_move_of_yours_has_a_sentence_of_its_own(language: str) -> None:
    # Was: the third-person sentence with "Du"/"Toi" as its subject.
    from bot.text import i18n
    from bot.text.render import render_move

    r7 = parse_card("R7")
    with i18n.use(language):
        names = (t("terminal.you"), "Bob")
        assert [render_move(0, m, names, you=0) for m in _every_kind_of_move()] == YOUR_MOVES[language]
        # The other player's moves keep their name; Discord (no ``you``) is unchanged.
        assert all(render_move(1, m, names, you=0).startswith("Bob") for m in _every_kind_of_move())
        assert render_move(0, PlayCard(r7, 3), ("Alice", "Bob")).startswith("Alice")


YOUR_RESULTS = {
    # resigned, timeout, won by three adjacent stones, lost by five stones, withdrawn,
    # kicked, and the opponent withdrawn and kicked
    "en": ["You resigned; Bob wins.", "You ran out of time; Bob wins.",
           "You win with three adjacent stones.", "Bob wins with five stones.",
           "You withdrew from the tournament; Bob wins.", "You were removed from the tournament; Bob wins.",
           "Bob withdrew from the tournament; you win.", "Bob was removed from the tournament; you win."],
    "de": ["Du hast aufgegeben; Bob gewinnt.", "Du hast die Zeit überschritten; Bob gewinnt.",
           "Du gewinnst mit drei benachbarten Steinen.", "Bob gewinnt mit fünf Steinen.",
           "Du hast dich aus dem Turnier zurückgezogen; Bob gewinnt.",
           "Du wurdest aus dem Turnier entfernt; Bob gewinnt.",
           "Bob hat sich aus dem Turnier zurückgezogen; du gewinnst.",
           "Bob wurde aus dem Turnier entfernt; du gewinnst."],
    "fr": ["Tu as abandonné\xa0; Bob gagne.", "Tu as dépassé le temps\xa0; Bob gagne.",
           "Tu gagnes avec trois bornes adjacentes.", "Bob gagne avec cinq bornes.",
           "Tu t'es retiré du tournoi\xa0; Bob gagne.", "Tu as été exclu du tournoi\xa0; Bob gagne.",
           "Bob s'est retiré du tournoi\xa0; tu gagnes.", "Bob a été exclu du tournoi\xa0; tu gagnes."],
}  # fmt: skip


@pytest.mark.parametrize("language", sorted(YOUR_RESULTS))
def test_every_result_addresses_you_in_the_second_person(language: str) -> None:
    from bot.text import i18n
    from bot.text.render import render_result
    from rules.game import Result

    results = [Result(1, "resigned", (0, 0)), Result(1, "timeout", (1, 2)),
               Result(0, "three_adjacent", (3, 1)), Result(1, "five_stones", (1, 5)),
               Result(1, "withdrawn", (0, 1)), Result(1, "kicked", (2, 0)),
               Result(0, "withdrawn", (0, 0)), Result(0, "kicked", (1, 1))]  # fmt: skip
    with i18n.use(language):
        names = (t("terminal.you"), "Bob")
        assert [render_result(r, names, you=0) for r in results] == YOUR_RESULTS[language]


def test_a_claim_that_wins_is_narrated_in_german_through_the_prompt() -> None:
    from bot.text import i18n

    game = position(hands=("R1 Y1", "G1 Y2"), sides={3: ("P7 P8 P9", "G4 G5")}, owners={1: 0, 2: 0})
    out = io.StringIO()
    with i18n.use("de"):
        Terminal(game, {0}, ("Du", "KI (schwer)"), "easy", 1, io.StringIO("c3\n"), out).run()
    lines = out.getvalue().splitlines()
    assert "Du> Du hast Stein 3 beansprucht" in lines
    assert "Zuletzt: Du hast Stein 3 beansprucht" in lines
    assert "Spielende: Du gewinnst mit drei benachbarten Steinen." in lines


def test_a_refusal_names_the_card_as_the_player_typed_it() -> None:
    # Was: "G1" (Gelb) typed in German answered "Du hast Y1 nicht auf der Hand".
    out = run_wide("G1 1\nquit\n", "--seed", "3", "--first", "me", "--lang", "de")
    (line,) = [line for line in out.splitlines() if "nicht auf der Hand" in line]
    assert line.endswith("Nicht erlaubt: Du hast G1 nicht auf der Hand.")


def test_a_claim_refusal_shows_the_counter_example_in_the_players_notation() -> None:
    from bot.text import i18n
    from bot.text.notation import refusal_text as rule_error_text
    from rules.errors import ClaimNotProvable, GameOver

    error = ClaimNotProvable(3, (parse_card("Y7"), parse_card("G8"), parse_card("Leader")))
    with i18n.use("de"):
        text = rule_error_text(error)
        assert "G7 N8 Anführer" in text and "Y7" not in text
        assert rule_error_text(GameOver()) == t("error.game_over")
