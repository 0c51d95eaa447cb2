"""Property tests: random legal games (base and tactics, both rulesets, both claim
timings) always end, hold every card exactly once at every step, never show a player the
other hand, and survive serialization and replay."""

from __future__ import annotations

import contextlib
import json
import random
from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from rules import errors
from rules.cards import Card
from rules.game import Game, GameOptions
from rules.moves import Claim, PlayCard, ScoutReturn

OPTIONS = st.builds(
    GameOptions,
    ruleset=st.sampled_from(["schotten-totten", "battle-line"]),
    tactics=st.booleans(),
    claim_timing=st.sampled_from(["anytime", "turn-start"]),
)
MAX_MOVES = 1000  # far above any real game: a game that does not end fails


def every_card(g: Game) -> Counter[Card]:
    cards: list[Card] = [*g.hand(0), *g.hand(1), *g._clan_deck, *g._tactic_deck]
    for st_ in g.stones:
        cards += [*st_.sides[0], *st_.sides[1], *(card for card, _ in st_.terrain)]
    cards += [card for _, card in g.discards]
    return Counter(cards)


def full_set(options: GameOptions) -> Counter[Card]:
    rules = options.rules
    return Counter([*rules.clan_deck(), *(rules.tactic_deck() if options.tactics else ())])


def cards_in_view(v) -> set[Card]:
    """Every card a view shows, apart from the viewer's own Scout returns."""
    shown: set[Card] = set(v.hand)
    for st_ in v.stones:
        shown |= {*st_.sides[0], *st_.sides[1], *(card for card, _ in st_.terrain)}
    shown |= {card for _, card in v.discards}
    for p, mv in v.last_moves:
        if mv is None or (isinstance(mv, ScoutReturn) and p == v.player):
            continue
        for field in ("card", "cards"):
            value = getattr(mv, field, None)
            shown |= set(value) if isinstance(value, tuple) else ({value} if value is not None else set())
    for mv in v.legal_moves():
        if isinstance(mv, PlayCard):
            shown.add(mv.card)
    return shown


def random_game(seed: int, options: GameOptions, check=None) -> Game:
    g = Game.new(seed, options)
    rng = random.Random(seed)
    for _ in range(MAX_MOVES):
        if g.is_over:
            return g
        if check:
            check(g)
        moves = g.legal_moves()
        assert moves, "a game that is not over always has a legal move"
        forced = g.forced_move()
        if forced is not None:
            assert moves == [forced] or forced in moves
        g.apply(rng.choice(moves))
    raise AssertionError("the game did not end")


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**32), options=OPTIONS)
def test_random_games_end_and_hold_every_card_once(seed, options):
    full = full_set(options)

    def check(g: Game) -> None:
        assert every_card(g) == full
        p = g.current_player
        assert len(g.hand(p)) <= options.rules.hand_size + 3  # Scout draws three before returning two
        for viewer in (0, 1):
            v = g.view(viewer)
            hidden = set(g.hand(1 - viewer)) | set(g._clan_deck) | set(g._tactic_deck)
            known = {card for _, _, card in v.known_deck_cards}
            leak = (cards_in_view(v) & hidden) - known
            # Own Scout returns the opponent drew later are legitimately known.
            assert not leak - {card for card in leak if card.is_tactic and card.tactic.text == "Leader"}

    g = random_game(seed, options, check)
    assert g.result is not None and g.phase == "over" and g.legal_moves() == []
    assert every_card(g) == full
    assert g.result.winner in (0, 1, None)
    if g.result.reason in ("three_adjacent", "five_stones"):
        assert g.result.stones[g.result.winner] >= 3


@settings(max_examples=20, deadline=None)
@given(seed=st.integers(0, 2**32), options=OPTIONS, cut=st.floats(0, 1))
def test_serialization_and_replay_reproduce_the_state(seed, options, cut):
    full = random_game(seed, options)
    upto = int(len(full.log) * cut)
    log = [(p, str(mv)) for p, mv in full.log[:upto]]
    g = Game.replay(seed, options, log)
    d = g.to_dict()
    assert d["format"] == 1
    text = json.dumps(d)
    back = Game.from_dict(json.loads(text))
    assert back.to_dict() == d
    assert set(back.legal_moves()) == set(g.legal_moves())
    assert back.forced_move() == g.forced_move()
    # Replaying the whole log gives the finished game exactly.
    assert Game.replay(seed, options, [(p, str(mv)) for p, mv in full.log]).to_dict() == full.to_dict()


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 2**32), options=OPTIONS, data=st.data())
def test_illegal_moves_change_nothing(seed, options, data):
    """Try moves taken from other positions: each is applied or refused with no change."""
    g = random_game(seed, options)
    positions = [
        Game.replay(seed, options, [(p, str(mv)) for p, mv in g.log[:i]]) for i in (0, len(g.log) // 2)
    ]
    pool = [mv for _, mv in g.log if str(mv) not in ("resign", "forfeit")]
    for pos in positions:
        for mv in data.draw(st.lists(st.sampled_from(pool), max_size=15)):
            before = pos.to_dict()
            legal = pos.legal_moves()
            try:
                pos.clone().apply(mv)
            except errors.IllegalMove:
                assert mv not in legal
                with contextlib.suppress(errors.IllegalMove):
                    pos.apply(mv)
                assert pos.to_dict() == before


def random_game_from(g: Game, rng: random.Random) -> None:
    for _ in range(MAX_MOVES):
        if g.is_over:
            return
        g.apply(rng.choice(g.legal_moves()))
    raise AssertionError("the game did not end")


@settings(max_examples=20, deadline=None)
@given(seed=st.integers(0, 2**32), ruleset=st.sampled_from(["schotten-totten", "battle-line"]))
def test_random_tactics_games_keep_the_tactic_limit(seed, ruleset):
    options = GameOptions(ruleset=ruleset, tactics=True)
    full = full_set(options)

    def check(g: Game) -> None:
        assert every_card(g) == full
        t0, t1 = g.tactics_played
        assert abs(t0 - t1) <= 1
        in_play = sum(1 for card in every_card(g).elements() if card.is_tactic) - sum(
            1 for card in (*g.hand(0), *g.hand(1), *g._tactic_deck) if card.is_tactic
        )
        assert t0 + t1 == in_play

    g = random_game(seed, options, check)
    assert every_card(g) == full


def claim_code(g: Game, stone: int) -> str:
    try:
        g.apply(Claim(stone))
    except errors.IllegalMove as error:
        return error.code
    return "ok"


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**32), options=OPTIONS)
def test_a_claim_gets_the_same_answer_as_from_a_fresh_copy(seed, options):
    # The game caches proofs and counter-examples between moves; a copy rebuilt from the
    # dict has no cache. Both must refuse (or allow) every claim for the same reason.
    def check(g: Game) -> None:
        p = g.current_player
        for stone in range(1, 10):
            # A clone keeps the cache (warmed by legal_moves); a claim that is allowed
            # changes the game, so each attempt gets its own copies.
            if g.stone(stone).owner is None and len(g.stone(stone).sides[p]) >= 3:
                assert claim_code(g.clone(), stone) == claim_code(Game.from_dict(g.to_dict()), stone)

    random_game(seed, options, check)
