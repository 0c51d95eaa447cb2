"""Claims: comparison, ties, proofs with counter-examples, and the fast proof against a
brute force that tries every completion of the opponent's side."""

from __future__ import annotations

import random
from itertools import combinations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules import Formation, Strength, claim_is_provable, prove_claim
from rules.cards import Card, ClanCard, parse_card, parse_cards
from rules.errors import NotationError
from rules.formations import side_strength
from rules.rulesets import SCHOTTEN_TOTTEN, get_ruleset

ST_DECK = [str(c) for c in SCHOTTEN_TOTTEN.clan_deck()]


def unplayed_except(*on_table: str, ruleset: str = "schotten-totten") -> list[str]:
    """Every clan card of the ruleset not named (the usual ``unplayed`` of a test)."""
    table = {str(c) for c in parse_cards(" ".join(on_table))}
    return [str(c) for c in get_ruleset(ruleset).clan_deck() if str(c) not in table]


# --- both sides complete: compare ----------------------------------------------------------


def test_complete_sides_are_compared() -> None:
    assert claim_is_provable(["R1", "R2", "R3"], ["Y9", "G9", "B9"], [])
    assert not claim_is_provable(["Y9", "G9", "B9"], ["R1", "R2", "R3"], [])
    proof = prove_claim(["Y9", "G9", "B9"], ["R1", "R2", "R3"], [])
    assert not proof.ok
    assert not proof
    assert proof.counter_example == tuple(parse_cards("R1 R2 R3"))
    assert proof.mine == Strength(Formation.THREE_OF_A_KIND, 27)
    assert proof.best_theirs == Strength(Formation.COLOUR_RUN, 6)


def test_tie_goes_to_the_side_completed_first() -> None:
    mine, theirs = ["R3", "R4", "R5"], ["G5", "G3", "G4"]
    assert claim_is_provable(mine, theirs, [], mine_completed_first=True)
    assert not claim_is_provable(mine, theirs, [], mine_completed_first=False)
    # Same for a sum tie, and under Fog where a colour run is only a sum.
    assert claim_is_provable(["R9", "O1", "Y1"], ["G5", "B3", "P3"], [], mine_completed_first=True)
    assert not claim_is_provable(["R9", "O1", "Y1"], ["G5", "B3", "P3"], [], mine_completed_first=False)
    assert not claim_is_provable(
        ["R3", "R4", "R5"], ["G6", "B3", "P3"], [], fog=True, mine_completed_first=False
    )
    assert claim_is_provable(["R3", "R4", "R5"], ["G6", "B3", "P2"], [], fog=True, mine_completed_first=False)


def test_a_side_that_is_not_complete_cannot_claim() -> None:
    assert not claim_is_provable(["R1", "R2"], [], [])
    assert not claim_is_provable(["R1", "R2", "R3"], [], [], mud=True)
    with pytest.raises(ValueError):
        prove_claim(["R1", "R2"], [], [])


# --- the opponent's side is incomplete: proof ---------------------------------------------


def test_proof_fails_with_a_counter_example() -> None:
    mine = ["R8", "O8", "Y8"]
    theirs = ["G5", "G6"]
    unplayed = unplayed_except(*mine, *theirs)
    proof = prove_claim(mine, theirs, unplayed)
    assert not proof.ok
    # The strongest completion: G7 (G4 would give a weaker colour run).
    assert proof.counter_example == tuple(parse_cards("G5 G6 G7"))
    assert proof.best_theirs == Strength(Formation.COLOUR_RUN, 18)
    # Without G4 and G7 no colour run is left; three of a kind 8s still beats any colour.
    proof = prove_claim(mine, theirs, [c for c in unplayed if c not in ("G4", "G7")])
    assert proof.ok
    assert proof.counter_example is None
    assert proof.best_theirs == Strength(Formation.COLOUR, 20)  # G5 G6 G9


def test_an_equal_completion_does_not_beat_the_side_completed_first() -> None:
    # The best colour run of the game cannot be beaten: G7 G8 G9 only ties.
    assert claim_is_provable(["R7", "R8", "R9"], [], unplayed_except("R7 R8 R9"))
    assert claim_is_provable(
        ["R8", "R9", "R10"], [], unplayed_except("R8 R9 R10", ruleset="battle-line"), ruleset="battle-line"
    )
    # Trips 9 against an empty side: a colour run can still come.
    assert not claim_is_provable(["R9", "O9", "Y9"], [], unplayed_except("R9 O9 Y9"))
    # Exactly one equal completion left: provable even with mine_completed_first=False,
    # because the opponent's side cannot be complete before mine.
    mine = ["R4", "O5", "Y6"]
    assert claim_is_provable(mine, ["G4", "B5"], ["P6", "G1"], mine_completed_first=False)
    assert not claim_is_provable(mine, ["G5", "B6"], ["P7", "G1"], mine_completed_first=False)


def test_too_few_cards_left_means_provable() -> None:
    assert claim_is_provable(["R1", "O2", "Y4"], ["G9"], ["G8"])
    proof = prove_claim(["R1", "O2", "Y4"], [], ["G8", "G9"])
    assert proof.ok
    assert proof.best_theirs is None
    assert not claim_is_provable(["R1", "O2", "Y4"], ["G9"], ["G8", "B1"])


def test_only_clan_cards_can_still_come() -> None:
    # An unplayed Leader is a tactic card: it is not considered.
    mine = ["R5", "O5", "Y5"]
    assert claim_is_provable(mine, ["G6", "B6"], ["Leader", "P2"])
    assert not claim_is_provable(mine, ["G6", "B6"], ["Leader", "P6"])


def test_jokers_on_their_side_count_at_their_best_value() -> None:
    mine = ["R8", "O8", "Y8"]
    assert not claim_is_provable(mine, ["Leader", "G9"], ["G7", "B1"])  # G7 G8 G9
    assert claim_is_provable(mine, ["Leader", "G9"], ["B2", "P4"])
    assert not claim_is_provable(mine, ["Reinforcement", "G9"], ["G8"])
    assert claim_is_provable(mine, ["Reinforcement", "G9"], ["B8", "P9"])
    # ShieldBearer is at most a 3: B1 B2 SB is a colour run, trips 8 is not beaten by B5.
    assert not claim_is_provable(mine, ["ShieldBearer", "B2"], ["B1"])
    assert claim_is_provable(mine, ["ShieldBearer", "B2"], ["B5", "P9"])
    # Battle Line: the Reinforcement is an 8.
    mine = ["R9", "O9", "Y9"]
    assert not claim_is_provable(mine, ["Reinforcement", "G9"], ["G10"], ruleset="battle-line")
    assert not claim_is_provable(mine, ["Reinforcement", "G9"], ["G7"], ruleset="battle-line")  # G7 G8 G9
    assert claim_is_provable(mine, ["Reinforcement", "G9"], ["G7"])  # a 7 here: colour 23


def test_jokers_on_my_side() -> None:
    mine = ["Leader", "R8", "R9"]  # R7 R8 R9: the best colour run
    assert claim_is_provable(mine, [], unplayed_except("R8 R9"))
    proof = prove_claim(["ShieldBearer", "O1", "Y1"], ["G2"], ["G3", "B1"])
    assert proof.mine == Strength(Formation.THREE_OF_A_KIND, 3)
    assert proof.ok  # a run 1 2 3 is weaker than three of a kind
    proof = prove_claim(["ShieldBearer", "O1", "Y1"], ["G2"], ["G3", "B1", "G1"])
    assert not proof.ok
    assert proof.counter_example == tuple(parse_cards("G2 G1 G3"))


def test_mud_needs_four_cards_on_both_sides() -> None:
    mine = ["R5", "O5", "Y5", "G5"]
    assert not claim_is_provable(mine, ["B1", "B2", "B3"], ["B4"], mud=True)
    assert claim_is_provable(mine, ["B1", "B2", "B3"], ["B5", "P9"], mud=True)
    assert not claim_is_provable(mine, [], unplayed_except(*mine), mud=True)
    proof = prove_claim(mine, ["B1", "B2"], ["B3", "B4", "P1"], needed=4)
    assert proof.counter_example == tuple(parse_cards("B1 B2 B3 B4"))
    # Two complete Mud sides tie: the side completed first wins.
    assert claim_is_provable(["R1", "R2", "R3", "R4"], ["G4", "G2", "G3", "G1"], [], mud=True)
    assert not claim_is_provable(
        ["R1", "R2", "R3", "R4"], ["G4", "G2", "G3", "G1"], [], mud=True, mine_completed_first=False
    )
    # A side that held more cards (Mud gone): its strongest subset counts.
    assert claim_is_provable(["R1", "O9", "O8", "O7"], ["G9", "B9", "P9"], [])


def test_fog_counts_sums_only() -> None:
    mine = ["R9", "O8", "Y8"]  # 25
    assert claim_is_provable(mine, ["G9", "B8"], ["B1", "P7", "G7"], fog=True)
    assert not claim_is_provable(mine, ["G9", "B8"], ["B1", "P9"], fog=True)
    assert not claim_is_provable(mine, ["G9", "B8"], ["B1", "P9"], fog=True, ruleset="battle-line")
    # The Leader counts as a 9 (10 in Battle Line); without Fog, B8 P8 Leader is three 8s.
    assert claim_is_provable(mine, ["Leader", "B8"], ["B1", "P8"], fog=True)  # 25: a tie
    assert not claim_is_provable(mine, ["Leader", "B8"], ["B1", "P8"], fog=True, ruleset="battle-line")
    assert not claim_is_provable(mine, ["Leader", "B8"], ["B1", "P8"])


def test_inputs_in_every_form_agree() -> None:
    mine, theirs = ["R8", "O8", "Y8"], ["G5", "G6"]
    texts = unplayed_except(*mine, *theirs)
    cards = [parse_card(c) for c in texts]
    mask = sum(1 << c.id for c in cards)
    expected = prove_claim(mine, theirs, texts)
    for unplayed in (set(cards), frozenset(cards), cards, tuple(texts), mask, iter(cards)):
        proof = prove_claim(parse_cards(mine), tuple(parse_cards(theirs)), unplayed)
        assert proof == expected
    assert prove_claim(iter(parse_cards(mine)), (c for c in parse_cards(theirs)), mask) == expected
    assert claim_is_provable(mine, theirs, mask) is False
    # The ruleset by object or by name; notation errors name the card.
    assert prove_claim(mine, theirs, mask, ruleset=SCHOTTEN_TOTTEN) == expected
    with pytest.raises(NotationError):
        claim_is_provable(["R1", "R2", "X3"], [], [])
    with pytest.raises(NotationError):
        claim_is_provable(["R1", "R2", "R3"], ["R10"], [])
    with pytest.raises(NotationError):
        claim_is_provable(["R1", "R2", "R3"], [], ["R9"], ruleset="chess")


def test_cards_on_the_table_are_never_counted_as_unplayed() -> None:
    # A careless caller passes the whole deck: the sides' own cards are left out, so G9
    # (on my side) cannot complete G7 G8 into a colour run.
    mine = ["G9", "O9", "Y9"]
    assert claim_is_provable(mine, ["G7", "G8"], [c for c in ST_DECK if c != "G6"])
    assert not claim_is_provable(mine, ["G7", "G8"], ST_DECK)


# --- the brute force --------------------------------------------------------------------


def brute_proof(
    mine: list[Card],
    theirs: list[Card],
    unplayed: list[Card],
    needed: int,
    fog: bool,
    first: bool,
    ruleset: str,
) -> tuple[bool, Strength | None]:
    """(provable, strongest side the opponent can have), trying every completion."""
    ours = side_strength(mine, needed=needed, fog=fog, ruleset=ruleset)
    if len(theirs) >= needed:
        best = side_strength(theirs, needed=needed, fog=fog, ruleset=ruleset)
        return ours > best or (ours == best and first), best
    clan = [c for c in unplayed if isinstance(c, ClanCard) and c not in mine and c not in theirs]
    strengths = [
        side_strength([*theirs, *extra], needed=needed, fog=fog, ruleset=ruleset)
        for extra in combinations(clan, needed - len(theirs))
    ]
    if not strengths:
        return True, None
    return max(strengths) <= ours, max(strengths)


def check_proof(
    mine: list[Card],
    theirs: list[Card],
    unplayed: list[Card],
    needed: int,
    fog: bool,
    first: bool,
    ruleset: str,
    form: str,
) -> None:
    given_unplayed: object = {
        "mask": sum(1 << c.id for c in unplayed),
        "set": set(unplayed),
        "list": list(unplayed),
        "texts": [str(c) for c in unplayed],
    }[form]
    proof = prove_claim(
        mine, theirs, given_unplayed, needed=needed, fog=fog, mine_completed_first=first, ruleset=ruleset
    )
    ok, best = brute_proof(mine, theirs, unplayed, needed, fog, first, ruleset)
    assert proof.ok == ok
    assert proof.best_theirs == best
    assert proof.mine == side_strength(mine, needed=needed, fog=fog, ruleset=ruleset)
    assert (
        claim_is_provable(
            mine,
            theirs,
            given_unplayed,
            mud=needed == 4,
            fog=fog,
            mine_completed_first=first,
            ruleset=ruleset,
        )
        == ok
    )
    if ok:
        assert proof.counter_example is None
    else:
        counter = proof.counter_example
        assert counter is not None
        assert list(counter[: len(theirs)]) == list(theirs)
        assert set(counter[len(theirs) :]) <= set(unplayed)
        assert len(counter) == max(needed, len(theirs))
        assert side_strength(counter, needed=needed, fog=fog, ruleset=ruleset) == best


JOKERS = [parse_card(j) for j in ("Leader", "Reinforcement", "ShieldBearer")]


@st.composite
def positions(draw: st.DrawFn) -> tuple:
    ruleset = draw(st.sampled_from(["schotten-totten", "battle-line"]))
    needed = draw(st.sampled_from([3, 3, 4]))
    fog = draw(st.integers(0, 4)) == 0
    deck = list(get_ruleset(ruleset).clan_deck())
    draw(st.randoms(use_true_random=False)).shuffle(deck)
    mine_jokers = draw(st.lists(st.sampled_from(JOKERS), max_size=1))
    their_jokers = draw(st.lists(st.sampled_from(JOKERS), max_size=2))
    mine_extra = draw(st.integers(0, 1))  # a side may hold one card more (Mud gone)
    mine = mine_jokers + [deck.pop() for _ in range(needed + mine_extra - len(mine_jokers))]
    their_size = draw(st.integers(len(their_jokers), needed + 1))
    theirs = their_jokers + [deck.pop() for _ in range(their_size - len(their_jokers))]
    theirs = draw(st.permutations(theirs))
    missing = needed - len(theirs)
    # Keep the brute force small: at most a few thousand completions.
    limit = {1: 40, 2: 45, 3: 18, 4: 12}.get(missing, 40)
    unplayed = deck[: draw(st.integers(0, limit))]
    first = draw(st.booleans())
    form = draw(st.sampled_from(["mask", "set", "list", "texts"]))
    return mine, theirs, unplayed, needed, fog, first, ruleset, form


@settings(max_examples=400, deadline=None)
@given(positions())
def test_proof_matches_brute_force(position: tuple) -> None:
    check_proof(*position)


@st.composite
def base_game_positions(draw: st.DrawFn) -> tuple:
    """The game's hot path: three clan cards a side, an int mask, big and small pools."""
    deck = list(SCHOTTEN_TOTTEN.clan_deck())
    draw(st.randoms(use_true_random=False)).shuffle(deck)
    mine = [deck.pop() for _ in range(3)]
    theirs = [deck.pop() for _ in range(draw(st.integers(0, 3)))]
    unplayed = deck[: draw(st.integers(0, 40 if not theirs else len(deck)))]
    return mine, theirs, unplayed, 3, False, draw(st.booleans()), "schotten-totten", "mask"


@settings(max_examples=150, deadline=None)
@given(base_game_positions())
def test_base_game_proof_matches_brute_force(position: tuple) -> None:
    check_proof(*position)


def test_random_positions_of_every_kind() -> None:
    """A fixed sample on top of hypothesis: every missing count, pool size and path."""
    rng = random.Random(2026)
    for _ in range(200):
        deck = list(SCHOTTEN_TOTTEN.clan_deck())
        rng.shuffle(deck)
        mine = [deck.pop() for _ in range(3)]
        theirs = [deck.pop() for _ in range(rng.randint(1, 2))]
        unplayed = deck[: rng.randint(0, len(deck))]
        check_proof(mine, theirs, unplayed, 3, False, True, "schotten-totten", "mask")
