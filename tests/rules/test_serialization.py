"""Serialization: to_dict/from_dict, replay from the seed, the log notation."""

from __future__ import annotations

import json
import random

import pytest

from rules import errors
from rules.game import Forfeit, Game, GameOptions, Kick, Resign, Result, Withdraw, parse_log_move


def played(seed: int, options: GameOptions, moves: int) -> Game:
    g = Game.new(seed, options)
    rng = random.Random(seed)
    while not g.is_over and g.version < moves:
        g.apply(rng.choice(g.legal_moves()))
    return g


@pytest.mark.parametrize(
    "options",
    [GameOptions(), GameOptions(ruleset="battle-line", tactics=True, claim_timing="turn-start")],
    ids=["base", "battle-line-tactics"],
)
def test_round_trip_through_json(options):
    g = played(7, options, 30)
    d = g.to_dict()
    assert d["format"] == 1 and d["options"] == options.to_dict()
    back = Game.from_dict(json.loads(json.dumps(d)))
    assert back.to_dict() == d
    assert back.options == options and back.version == g.version and str(back) == str(g)
    assert back.log == g.log


def test_replay_reproduces_the_state_and_reads_the_first_player_from_the_log():
    g = Game.new(5, first_player=1)
    rng = random.Random(0)
    for _ in range(25):
        g.apply(rng.choice(g.legal_moves()))
    log = [(p, str(mv)) for p, mv in g.log]
    assert log[0][0] == 1
    assert Game.replay(5, GameOptions(), log).to_dict() == g.to_dict()
    assert Game.replay(5, GameOptions(), g.log).to_dict() == g.to_dict()  # Move objects too


def test_replay_with_resign_and_a_string_seed():
    g = Game.new("match-12/game-3")
    g.apply(g.legal_moves()[0])
    g.resign(g.current_player)
    r = Game.replay("match-12/game-3", GameOptions(), [(p, str(mv)) for p, mv in g.log])
    assert r.to_dict() == g.to_dict() and r.result.reason == "resigned"


def test_replay_refuses_an_illegal_log():
    g = Game.new(1)
    with pytest.raises(errors.IllegalMove):
        Game.replay(1, GameOptions(), [(g.current_player, "draw clan")])


def test_finished_game_round_trips_with_its_result():
    g = played(3, GameOptions(), 10_000)
    d = json.loads(json.dumps(g.to_dict()))
    back = Game.from_dict(d)
    assert back.is_over and back.result == g.result and isinstance(back.result, Result)


@pytest.mark.parametrize("end", ["withdraw", "kick"])
def test_a_game_ended_by_its_tournament_round_trips(end):
    g = played(4, GameOptions(), 6)
    getattr(g, end)(0)
    back = Game.from_dict(json.loads(json.dumps(g.to_dict())))
    assert back.result == g.result and back.result.reason == {"withdraw": "withdrawn", "kick": "kicked"}[end]
    assert back.log == g.log


def test_unknown_format_is_refused():
    d = Game.new(1).to_dict()
    d["format"] = 99
    with pytest.raises(errors.NotationError):
        Game.from_dict(d)


def test_log_notation_includes_the_endings():
    assert parse_log_move("resign") == Resign() and parse_log_move(" Forfeit ") == Forfeit()
    assert parse_log_move("withdraw") == Withdraw() and parse_log_move(" KICK ") == Kick()
    assert [str(e) for e in (Resign(), Forfeit(), Withdraw(), Kick())] == [
        "resign",
        "forfeit",
        "withdraw",
        "kick",
    ]
    assert str(parse_log_move("play r7 3")) == "play R7 3"
    with pytest.raises(errors.NotationError):
        parse_log_move("dance")


def test_options_round_trip():
    o = GameOptions(ruleset="battle-line", tactics=True, claim_timing="turn-start")
    assert GameOptions.from_dict(json.loads(json.dumps(o.to_dict()))) == o
