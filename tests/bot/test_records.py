"""Game record files (``bot.archive.record_file``): export, parse back, and refuse what does not add up."""

from __future__ import annotations

import dataclasses
import random

import pytest

from bot.archive.record_file import (
    FORMAT,
    VERSION,
    RecordError,
    RecordFile,
    RecordPlayer,
    export_game,
    parse_record,
)
from rules.game import Game, GameOptions


def finished(
    seed: int, options: GameOptions, *, resign_after: int | None = None, end: str = "resign"
) -> Game:
    """A game played with random legal moves to its end (or resigned by the player to
    move after ``resign_after`` log entries; ``end``: how, ``withdraw`` or ``kick`` too)."""
    game = Game.new(seed, options)
    rng = random.Random(seed)
    while not game.is_over:
        if resign_after is not None and game.version >= resign_after:
            getattr(game, end)(game.current_player or 0)
            break
        game.apply(game.forced_move() or rng.choice(game.legal_moves()))
    return game


def record_of(game: Game, names: tuple[str, str] = ("alice", "bob")) -> RecordFile:
    assert game.result is not None and game.first_player is not None
    return RecordFile(
        options=game.options,
        seed=int(game.seed),
        players=(RecordPlayer(11, names[0]), RecordPlayer(22, names[1])),
        first_player=game.first_player,
        result=game.result,
        moves=tuple((player, str(move)) for player, move in game.log),
        game_id=7,
        started_at=1_700_000_000.0,
        finished_at=1_700_000_600.0,
    )


OPTIONS = [
    GameOptions(),
    GameOptions(tactics=True),
    GameOptions(ruleset="battle-line", tactics=True, claim_timing="turn-start"),
]


@pytest.mark.parametrize("options", OPTIONS)
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_round_trip_rebuilds_the_same_game(options: GameOptions, seed: int) -> None:
    game = finished(seed, options)
    text = export_game(record_of(game))
    back = parse_record(text)
    assert back == record_of(game)
    assert back.replay().to_dict() == game.to_dict()
    # Every step is the game after that many log entries.
    middle = back.steps // 2
    assert back.replay(middle).log == game.log[:middle]


def test_the_header_and_one_move_a_line() -> None:
    game = finished(4, GameOptions(), resign_after=10)
    lines = export_game(record_of(game)).splitlines()
    assert lines[0] == f"Format: {FORMAT} {VERSION}"
    header = dict(line.split(": ", 1) for line in lines[: lines.index("")])
    assert header["Game"] == "7"
    assert header["Ruleset"] == "schotten-totten" and header["Tactics"] == "no"
    assert header["Claims"] == "anytime" and header["Seed"] == "4"
    assert header["Player0"] == "11 alice" and header["Player1"] == "22 bob"
    assert header["First"] == str(game.first_player)
    assert (
        header["Result"] == f"{game.result.winner} resigned {game.result.stones[0]}-{game.result.stones[1]}"
    )
    assert header["Started"] == "2023-11-14T22:13:20Z"
    moves = lines[lines.index("") + 1 :]
    assert moves == [f"{p} {m}" for p, m in game.log]
    assert moves[-1].endswith(" resign")


@pytest.mark.parametrize(("end", "reason"), [("withdraw", "withdrawn"), ("kick", "kicked")])
def test_a_game_ended_by_its_tournament_is_written_and_read_back_as_such(end: str, reason: str) -> None:
    game = finished(9, GameOptions(), resign_after=8, end=end)
    text = export_game(record_of(game))
    loser, stones = 1 - game.result.winner, f"{game.result.stones[0]}-{game.result.stones[1]}"
    assert f"Result: {game.result.winner} {reason} {stones}" in text.splitlines()
    assert text.endswith(f"\n{loser} {end}\n")
    assert "resign" not in text
    back = parse_record(text)
    assert back.result == game.result and back.result.reason == reason
    assert back.replay().result == game.result


def test_hostile_names_stay_on_their_line() -> None:
    game = finished(5, GameOptions(), resign_after=4)
    text = export_game(record_of(game, ("evil\nResult: 0 five_stones 5-0", "bob\r\n1 pass")))
    back = parse_record(text)
    assert back.players[0].name == "evil Result: 0 five_stones 5-0"
    assert back.players[1].name == "bob 1 pass"
    assert back.result == game.result
    # A file written by hand may hold escape sequences: the terminal never prints them.
    crafted = parse_record(text.replace("Player1: 22 bob 1 pass", "Player1: 22 \x1b[2Jbob\x07"))
    assert crafted.players[1].name == "[2Jbob"


def test_comments_blank_lines_and_unknown_ids() -> None:
    game = finished(6, GameOptions(), resign_after=6)
    record = dataclasses.replace(record_of(game), game_id=None, started_at=None, finished_at=None)
    text = export_game(record).replace("Player1: 22 bob", "Player1: - bob")
    lines = text.splitlines()
    lines.insert(1, "# written by hand")
    lines.append("")
    lines.append("# the end")
    back = parse_record("\n\n" + "\n".join(lines))
    assert back.players[1] == RecordPlayer(None, "bob")
    assert back.game_id is None and back.started_at is None


def _text() -> str:
    return export_game(record_of(finished(8, GameOptions())))


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda s: s.replace("schotten-record 1", "schotten-record 2"), "version 2 is not supported"),
        (lambda s: s.replace("Format: schotten-record", "Format: chess-pgn"), "not a schotten-record file"),
        (lambda s: "", "the file is empty"),
        (lambda s: s.replace("Seed: 8\n", ""), "lacks seed"),
        (lambda s: s.replace("Seed: 8", "Seed: eight"), "seed must be a whole number"),
        (lambda s: s.replace("Ruleset: schotten-totten", "Ruleset: poker"), "unknown ruleset"),
        (lambda s: s.replace("\n0 ", "\n2 ", 1), "expected '<player 0 or 1> <move>'"),
        (lambda s: s.rsplit("\n", 2)[0] + "\n", "the moves end before the game does"),
        (lambda s: s + "0 pass\n", "the game was already over"),
    ],
)
def test_bad_files_are_refused_with_a_reason(change, message: str) -> None:
    with pytest.raises(RecordError, match=message):
        parse_record(change(_text()))


def test_a_move_that_is_not_legal_names_its_line() -> None:
    text = _text()
    lines = text.splitlines()
    first = lines.index("") + 1
    player = lines[first].split()[0]
    lines[first] = f"{player} claim 5"  # nothing can be claimed before a card is played
    with pytest.raises(RecordError, match=f"line {first + 1}: 'claim 5' is not possible here"):
        parse_record("\n".join(lines))


def test_a_result_the_moves_do_not_give_is_refused() -> None:
    game = finished(9, GameOptions())
    assert game.result is not None
    wrong = dataclasses.replace(game.result, stones=(9, 9))
    text = export_game(dataclasses.replace(record_of(game), result=wrong))
    with pytest.raises(RecordError, match="not in the recorded"):
        parse_record(text)
