"""The AI players: legal, reproducible, blind to the hidden hand, and stronger than random;
the baselines' styles; the hard AI's tactic moves; hints."""

from __future__ import annotations

import pickle
import random

import pytest

from rules.ai import (
    LEVELS,
    MEDIUM_CANDIDATES,
    MEDIUM_SHARE,
    PLAYERS,
    REASONS,
    AIPlayer,
    Budget,
    Hint,
    Level,
    _reason,
    choose_move,
    decide,
    heuristic,
    hint,
    mcts,
    parse_level,
    planner,
)
from rules.ai.determinize import sample_game
from rules.ai.situation import from_view
from rules.cards import parse_card
from rules.game import Game, GameOptions
from rules.moves import Claim, Deserter, Draw, Move, PlayCard, Traitor
from rules.positions import position
from rules.view import PlayerView

SMALL = Budget(iterations=60, seconds=None)  # search level in tests: a few playouts


def positions(
    seeds: range, tactics: bool = False, every: int = 3, ruleset: str = "schotten-totten"
) -> list[tuple[Game, PlayerView]]:
    """Decision points from random self-play (forced moves applied, as the service does)."""
    out = []
    for seed in seeds:
        rng = random.Random(seed)
        game = Game.new(seed, GameOptions(ruleset, tactics))
        step = 0
        while not game.is_over:
            forced = game.forced_move()
            if forced is not None:
                game.apply(forced)
                continue
            p = game.current_player
            if step % every == 0:
                out.append((game.clone(), game.view(p)))
            moves = game.legal_moves()
            game.apply(moves[rng.randrange(len(moves))], p)
            step += 1
    return out


def play(levels: tuple[str, str], seed: int, tactics: bool = False, budget: Budget | None = None) -> Game:
    game = Game.new(seed, GameOptions(tactics=tactics))
    while not game.is_over:
        forced = game.forced_move()
        if forced is not None:
            game.apply(forced)
            continue
        p = game.current_player
        game.apply(choose_move(game.view(p), level=levels[p], seed=seed + game.version, budget=budget), p)
    return game


@pytest.mark.parametrize("tactics", [False, True])
def test_every_level_plays_only_legal_moves(tactics: bool) -> None:
    for _, view in positions(range(3), tactics):
        legal = view.legal_moves()
        for level in PLAYERS:
            move = choose_move(view, level=level, seed=1, budget=SMALL)
            assert move in legal, (level, str(move))


def test_full_games_at_every_level_finish_legally() -> None:
    # apply() validates every move, so a finished game means every move was legal.
    for i, level in enumerate(PLAYERS):
        game = play((level, "medium"), seed=100 + i, tactics=i % 2 == 1, budget=SMALL)
        assert game.is_over and game.result is not None


def test_same_seed_same_move() -> None:
    for _, view in positions(range(2), every=5):
        for level in ("easy", "hard"):
            a = choose_move(view, level=level, seed=42, budget=SMALL)
            b = choose_move(view, level=level, seed=42, budget=SMALL)
            assert a == b
        # No seed: derived from the position, so still reproducible.
        assert choose_move(view, level="random") == choose_move(view, level="random")


def test_claims_whenever_provable() -> None:
    found = 0
    for _, view in positions(range(6), every=1):
        claims = [m for m in view.legal_moves() if isinstance(m, Claim)]
        if claims:
            found += 1
            for level in PLAYERS:
                if level != "random":
                    assert isinstance(choose_move(view, level=level, seed=3, budget=SMALL), Claim)
    assert found > 0


def test_ai_never_reads_the_hidden_hand() -> None:
    """Games that look the same to the AI but deal the opponent other cards: same choice."""
    checked = 0
    for game, view in positions(range(2), every=4):
        other = sample_game(view, random.Random(checked))
        p = view.player
        assert other.hand(p) == game.hand(p)
        if other.hand(1 - p) == game.hand(1 - p):
            continue
        checked += 1
        other_view = other.view(p)
        assert from_view(other_view) == from_view(view)
        for level in ("medium", "hard", "greedy", "sniper"):
            assert choose_move(other_view, level=level, seed=9, budget=SMALL) == choose_move(
                view, level=level, seed=9, budget=SMALL
            )
    assert checked >= 5


def test_view_and_move_are_picklable_for_a_process_pool() -> None:
    _, view = positions(range(1), every=7)[1]
    again = pickle.loads(pickle.dumps(view))
    move = choose_move(view, level="hard", seed=5, budget=SMALL)
    assert choose_move(again, level="hard", seed=5, budget=SMALL) == move
    assert pickle.loads(pickle.dumps(move)) == move


def test_heuristic_beats_random_clearly() -> None:
    games, wins = 24, 0.0
    for seed in range(games):
        seat = seed % 2
        levels = ("medium", "random") if seat == 0 else ("random", "medium")
        winner = play(levels, seed=seed).result.winner
        wins += 0.5 if winner is None else winner == seat
    assert wins >= 20, wins  # it wins ~100%; 20/24 leaves room for bad luck


def test_levels_and_budgets() -> None:
    assert parse_level(" Hard ") is Level.HARD
    with pytest.raises(ValueError, match="unknown level"):
        parse_level("impossible")
    _, view = positions(range(1), every=7)[1]
    assert choose_move(view, level="hard", budget=10) in view.legal_moves()  # iterations
    assert choose_move(view, level="hard", budget=0.05) in view.legal_moves()  # seconds
    assert LEVELS == ("random", "easy", "medium", "hard")  # the bot's menu
    assert set(LEVELS) < set(PLAYERS) == {level.value for level in Level}
    player: Move = AIPlayer("medium", seed=1).choose(view)
    assert player in view.legal_moves()


def test_refuses_when_not_its_turn() -> None:
    game = Game.new(1)
    waiting = game.view(1 - game.current_player)
    with pytest.raises(ValueError, match="no legal move"):
        choose_move(waiting, level="medium")


@pytest.mark.parametrize("tactics", [False, True])
def test_search_is_deterministic_for_a_seed_and_counts_its_playouts(tactics: bool) -> None:
    for _, view in positions(range(1), tactics, every=6)[:4]:
        a = decide(view, level="hard", seed=7, budget=SMALL)
        b = decide(view, level="hard", seed=7, budget=SMALL)
        assert a.move == b.move and a.iterations == b.iterations
        assert not a.capped  # no wall-clock cap in SMALL
        if a.search is not None and a.iterations:
            assert a.iterations >= len(view.legal_moves())  # every legal move is played out


def test_hard_finds_a_winning_tactic_move() -> None:
    """Stones 1 and 2 are mine; at stone 3 their colour run beats my three 9s' sum... under
    Fog only the sum counts, and then stone 3 (and the game) is mine. No clan card wins."""
    game = position(
        options=GameOptions(tactics=True),
        hands=("Fog B1 G2 Y3 P1 O2", "R4 R5 Y6 Y7 Traitor"),
        sides={3: ("R9 B9 G8", "P4 P5 P6"), 5: ("", "O9 O8"), 7: ("Y9", "")},
        owners={1: 0, 2: 0},
        first={3: 1},
    )
    view = game.view(0)
    assert not [m for m in view.legal_moves() if isinstance(m, Claim)]
    move = choose_move(view, level="hard", seed=1, budget=SMALL)
    assert move == PlayCard(parse_card("Fog"), 3)


def traitor_position(my_hand: str) -> PlayerView:
    """My R7 R8 at stone 4 against their complete G9 G8 G7; their O9 O8 at 5, my P9 P8 at 6."""
    game = position(
        options=GameOptions(tactics=True),
        hands=(my_hand, "R1 R2 Y6 Y7 Y8"),
        sides={4: ("R7 R8", "G9 G8 G7"), 5: ("", "O9 O8"), 6: ("P9 P8", "")},
        first={4: 1},
    )
    return game.view(0)


def test_hard_plays_traitor_in_its_search() -> None:
    """Tactic moves are searched like any other: a Traitor that takes the card the
    opponent's colour run needs and completes my own beats every clan card here."""
    view = traitor_position("Traitor B1 G2 Y2 P1 O1")
    stats = decide(view, level="hard", seed=2, budget=400).search
    assert stats is not None
    assert any(isinstance(m, Traitor) for m in stats.stats)  # in the tree


def test_hard_plays_out_every_legal_move_tactics_included() -> None:
    """The first round of the halving gives every legal move its playouts: clan cards,
    jokers, Traitor moves, passes, all of them."""
    view = traitor_position("Traitor Leader B1 G2 Y2 P1")
    legal = view.legal_moves()
    d = decide(view, level="hard", seed=3, budget=Budget(iterations=len(legal), seconds=None))
    assert d.search is not None
    assert set(d.search.stats) == set(legal)
    assert all(n >= 1 for _, n in d.search.stats.values())
    assert {type(m) for m in legal} >= {PlayCard, Traitor}


def test_candidates_limit_the_search_to_the_models_best_moves() -> None:
    view = traitor_position("Traitor Leader B1 G2 Y2 P1")
    legal = view.legal_moves()
    best = [m for _, m in planner.ranked_moves(from_view(view), legal)]
    d = decide(view, level="hard", seed=3, budget=Budget(iterations=40, seconds=None, candidates=3))
    assert d.search is not None and len(legal) > 3
    assert set(d.search.stats) == set(best[:3])  # searched: exactly the model's three best
    assert d.move in best[:3] and d.iterations >= 3


def test_medium_searches_the_models_six_best_moves_on_a_quarter_of_the_budget() -> None:
    view = traitor_position("Traitor Leader B1 G2 Y2 P1")
    legal = view.legal_moves()
    best = [m for _, m in planner.ranked_moves(from_view(view), legal)][:MEDIUM_CANDIDATES]
    d = decide(view, level="medium", seed=3, budget=Budget(iterations=80, seconds=None))
    assert d.search is not None and len(legal) > MEDIUM_CANDIDATES
    assert set(d.search.stats) == set(best) and d.move in best
    assert d.iterations == 80 // MEDIUM_SHARE
    one_ply = decide(view, level="one-ply", seed=3)
    assert one_ply.search is None and one_ply.move == best[0]  # the model's own choice


def test_the_wall_clock_cap_stops_the_search_and_is_reported() -> None:
    _, view = positions(range(1), every=7)[1]
    budget = Budget(iterations=10**7, seconds=0.01)  # playouts it cannot finish in 10 ms
    d = decide(view, level="hard", seed=1, budget=budget)
    assert d.capped and 0 < d.iterations < 10**7
    assert d.move in view.legal_moves()
    assert not decide(view, level="hard", seed=1, budget=SMALL).capped


def test_greedy_claims_at_once_when_provable() -> None:
    game = position(hands=("R1 B4", "G1 G2"), sides={2: ("Y9 Y8 Y7", "P1 O2")})
    view = game.view(0)
    assert Claim(2) in view.legal_moves()
    assert choose_move(view, level="greedy", seed=1) == Claim(2)


def test_sniper_holds_its_tactic_cards_in_a_quiet_position() -> None:
    game = position(
        options=GameOptions(tactics=True),
        hands=("Leader Deserter Traitor R3 B5 G7", "Y1 Y2 Y3 O4 O5 O6"),
        sides={2: ("R1", "O1"), 6: ("B2", "P7")},
    )
    view = game.view(0)
    assert any(isinstance(m, Traitor) for m in view.legal_moves())
    move = choose_move(view, level="sniper", seed=1)
    assert isinstance(move, PlayCard) and not move.card.is_tactic


def test_sniper_strikes_when_a_tactic_card_decides_a_stone() -> None:
    """Deserter takes their Y9 or Y8 away: their side can no longer beat my complete one."""
    game = position(
        options=GameOptions(tactics=True),
        hands=("Deserter R3 B5 G7", "Y1 O4"),
        sides={2: ("R9 B9 G9", "Y9 Y8")},
    )
    view = game.view(0)
    assert Claim(2) not in view.legal_moves()
    move = choose_move(view, level="sniper", seed=1)
    assert isinstance(move, Deserter) and move.stone == 2


@pytest.mark.parametrize("tactics", [False, True])
def test_hint_gives_a_legal_move_and_a_known_reason(tactics: bool) -> None:
    for _, view in positions(range(1), tactics, every=5)[:5]:
        h = hint(view, seed=3, budget=SMALL)
        assert h.move in view.legal_moves()
        assert h.reason in REASONS
        assert set(h.params) == set(REASONS[h.reason])
        assert h.move == choose_move(view, level="hard", seed=3, budget=SMALL)


def test_hint_names_a_completed_colour_run() -> None:
    """R9 completes R7 R8 R9 at stone 3: provable, and with stones 1 and 2 the game."""
    game = position(hands=("R9 B1 G2 Y4 P5 O6", "P1 P2"), sides={3: ("R7 R8", "B9")}, owners={1: 0, 2: 0})
    h = hint(game.view(0), seed=1, budget=SMALL)
    assert h.move == PlayCard(parse_card("R9"), 3)
    assert (h.reason, h.params) == ("completes_colour_run", {"card": "R9", "stone": 3, "chance": 100})


def test_hint_says_which_formation_a_card_keeps_alive_and_the_chance() -> None:
    """R8 beside R7 at stone 3 keeps a colour run alive (R6 and R9 unseen), in the
    model's terms; the sentence names the card, the formation and the chance."""
    from bot.text.render import describe_hint

    game = position(
        hands=("R8 B1 G2 Y4 P5 O6", "P1 P2"),
        sides={3: ("R7", "B9"), 1: ("B2 B3 B4", "Y9 G9 O9"), 2: ("G5 G6 G7", "Y1 O1 P3")},
    )
    view = game.view(0)
    reason, params = _reason(view, PlayCard(parse_card("R8"), 3), len(view.legal_moves()))
    assert reason == "keeps_colour_run"
    assert params["card"] == "R8" and params["stone"] == 3 and 0 < params["chance"] < 100
    text = describe_hint(Hint(PlayCard(parse_card("R8"), 3), reason, params, 0.5))
    assert "R8 keeps a colour run at stone 3 alive" in text and f"{params['chance']}% to win it" in text


def test_hard_draws_a_tactic_card_only_when_it_holds_none() -> None:
    # The draw is a rule, not the search's: searched draws hoarded tactic cards the
    # player could not use (docs/ai.md).
    seen = {True: 0, False: 0}
    for _, view in positions(range(4), tactics=True, every=1):
        decks = {m.deck for m in view.legal_moves() if isinstance(m, Draw)}
        if view.phase != "draw" or decks != {"clan", "tactic"}:
            continue
        holds = any(c.is_tactic for c in view.hand)
        d = decide(view, level="hard", seed=3, budget=SMALL)
        assert d.iterations == 0
        assert d.move == heuristic.draw_choice(from_view(view), view.legal_moves())
        if holds:
            assert d.move == Draw("clan")
        seen[holds] += 1
    assert seen[True] and seen[False]  # both cases came up


# Player 0 has played Fog, the opponent no tactic card: player 0 is one ahead.
AHEAD = {
    "options": GameOptions(tactics=True),
    "sides": {1: ("R1 R2", "B5"), 2: ("Y3", "G7 G8")},
    "fog": {3: 0},
    "phase": "draw",
}


@pytest.mark.parametrize("level", ["easy", "medium", "hard"])
def test_no_level_draws_a_tactic_card_it_could_not_play(level: str) -> None:
    # One ahead, it may play another tactic card only after the opponent plays one; an
    # opponent holding none cannot, and the card would take a clan card's place in hand.
    view = position(hands=("R9 B1 Y2 G4 P6", "O1 O2 O3 O4 O5 O6"), **AHEAD).view(0)
    assert view.tactics_played == (1, 0) and view.opponent_hand_tactics == 0
    assert decide(view, level=level, seed=1, budget=SMALL).move == Draw("clan")
    view = position(hands=("R9 B1 Y2 G4 P6", "O1 O2 O3 O4 O5 Leader"), **AHEAD).view(0)
    assert decide(view, level=level, seed=1, budget=SMALL).move == Draw("tactic")


def test_no_playout_draw_takes_a_tactic_card_one_ahead() -> None:
    view = position(hands=("R9 B1 Y2 G4 P6", "O1 O2 O3 O4 O5 O6"), **AHEAD).view(0)
    root = mcts.Root(view)
    rng = random.Random(5)
    drawn = {0: set(), 1: set()}
    for _ in range(200):
        world = root.deal(rng)
        for p in (0, 1):
            world.draw(p, rng)
            drawn[p].add(world.hands[p][-1].is_tactic)
    assert drawn[0] == {False}  # one ahead: never a tactic card
    assert drawn[1] == {False, True}  # one behind: sometimes


def test_the_playout_opponent_draws_tactic_cards_as_often_as_they_did() -> None:
    # Eight cards drawn, none of them a tactic card, against two of six.
    def rate(hand: str, sides: dict[int, tuple[str, str]], fog: dict[int, int]) -> float:
        game = position(
            options=GameOptions(tactics=True), hands=("R9 B1 Y2 G4 P6 R8", hand), sides=sides, fog=fog
        )
        return mcts.Root(game.view(0)).world.tac_rate[1]

    never = rate("O1 O2 O3 O4 O5 O6", {1: ("R1", "B5 B6 B7"), 2: ("Y3", "G7 G8 G9"), 3: ("", "P1 P2")}, {})
    often = rate("O1 O2 O3 O4 O5 Leader", {1: ("R1", "B5 B6 B7"), 2: ("Y3", "G7 G8")}, {3: 1})
    assert never == pytest.approx(1 / 11)
    assert often == pytest.approx(3 / 9)  # Fog played and a Leader held
