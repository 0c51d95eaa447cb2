"""Formation strength: unit cases, the full base-game ranking and a brute-force check.

The brute-force evaluator below is written independently of rules.formations: it tries
every colour and value for every joker and every subset of a side, and classifies
concrete cards with plain predicates.
"""

from __future__ import annotations

from itertools import combinations, product

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules import Formation, Strength, formation_strength
from rules.cards import COLOURS, ClanCard, Tactic, parse_card, tactic_card
from rules.errors import NotationError
from rules.formations import side_strength, strength_of_key
from rules.rulesets import BATTLE_LINE, SCHOTTEN_TOTTEN, Ruleset, get_ruleset

ST = "schotten-totten"
BL = "battle-line"
LEADER = tactic_card(Tactic.LEADER)
REINFORCEMENT = tactic_card(Tactic.REINFORCEMENT)
SHIELD = tactic_card(Tactic.SHIELD_BEARER)


# --- the independent brute-force evaluator ----------------------------------------------


def classify(cards: list[tuple[str, int]]) -> tuple[int, int]:
    """(formation rank 0-4, sum) of concrete (colour, value) cards."""
    values = sorted(v for _, v in cards)
    one_colour = len({c for c, _ in cards}) == 1
    run = values == list(range(values[0], values[0] + len(values)))
    if one_colour and run:
        rank = 4
    elif len(set(values)) == 1:
        rank = 3
    elif one_colour:
        rank = 2
    elif run:
        rank = 1
    else:
        rank = 0
    return rank, sum(values)


def joker_options(card: object, ruleset: str, colours: str) -> list[tuple[str, int]]:
    """Every (colour, value) a card may stand for. ``colours``: the ones worth trying (the
    colours of the clan cards beside it plus one more: any other colour acts the same)."""
    rs = get_ruleset(ruleset)
    if card is LEADER:
        values = list(range(1, rs.max_value + 1))
    elif card is REINFORCEMENT:
        values = [rs.reinforcement_value]
    elif card is SHIELD:
        values = [1, 2, 3]
    else:
        return [(card.colour, card.value)]  # type: ignore[attr-defined]
    return [(c, v) for c in colours for v in values]


def brute_strength(cards: list[str], needed: int, fog: bool = False, ruleset: str = ST) -> tuple[int, int]:
    """Best (rank, sum) over every subset of ``needed`` cards and every joker assignment."""
    parsed = [parse_card(c) for c in cards]
    best = (-1, -1)
    for subset in combinations(parsed, needed):
        present = {c.colour for c in subset if isinstance(c, ClanCard)}
        colours = "".join(present) + next(c for c in COLOURS if c not in present)
        for concrete in product(*(joker_options(c, ruleset, colours) for c in subset)):
            result = (0, sum(v for _, v in concrete)) if fog else classify(list(concrete))
            best = max(best, result)
    return best


def as_pair(strength: Strength) -> tuple[int, int]:
    return int(strength.formation), strength.total


# --- formations, one by one -------------------------------------------------------------


@pytest.mark.parametrize(
    ("cards", "formation", "total"),
    [
        ("R3 R4 R5", Formation.COLOUR_RUN, 12),
        ("P9 P7 P8", Formation.COLOUR_RUN, 24),
        ("Y5 G5 B5", Formation.THREE_OF_A_KIND, 15),
        ("O2 O9 O4", Formation.COLOUR, 15),
        ("R3 O4 Y5", Formation.RUN, 12),
        ("R1 O2 Y3", Formation.RUN, 6),
        ("R1 O5 Y9", Formation.SUM, 15),
        ("R8 R9 R1", Formation.COLOUR, 18),  # values do not wrap
        ("R8 O9 Y1", Formation.SUM, 18),
        ("R2 O2 R3", Formation.SUM, 7),
    ],
)
def test_each_formation(cards: str, formation: Formation, total: int) -> None:
    assert formation_strength(cards.split()) == Strength(formation, total)


def test_formations_are_ordered_before_sums() -> None:
    weakest_colour_run = formation_strength(["R1", "R2", "R3"])
    best_trips = formation_strength(["R9", "O9", "Y9"])
    weakest_trips = formation_strength(["R1", "O1", "Y1"])
    best_colour = formation_strength(["R9", "R8", "R6"])
    weakest_colour = formation_strength(["R1", "R2", "R4"])
    best_run = formation_strength(["R7", "O8", "Y9"])
    weakest_run = formation_strength(["R1", "O2", "Y3"])
    best_sum = formation_strength(["R9", "O9", "Y8"])
    assert weakest_colour_run > best_trips
    assert weakest_trips > best_colour
    assert weakest_colour > best_run
    assert weakest_run > formation_strength(["R1", "O1", "Y2"])
    assert best_sum < weakest_run
    assert list(Formation) == sorted(Formation)
    assert [f.label for f in Formation] == ["Sum", "Run", "Colour", "Three of a kind", "Colour run"]


def test_same_formation_higher_sum_wins_and_ties_compare_equal() -> None:
    assert formation_strength(["R4", "R5", "R6"]) > formation_strength(["G3", "G4", "G5"])
    assert formation_strength(["R3", "R4", "R5"]) == formation_strength(["G5", "G3", "G4"])
    assert formation_strength(["R9", "O1", "Y1"]) == formation_strength(["G5", "B3", "P3"])
    assert formation_strength(["R9", "O1", "Y1"]) != formation_strength(["G5", "B3", "P4"])
    assert str(formation_strength(["R3", "R4", "R5"])) == "Colour run (12)"


def test_texts_and_card_objects_agree() -> None:
    assert formation_strength([ClanCard("R", 7), "r8", " R9 "]) == Strength(Formation.COLOUR_RUN, 24)
    assert formation_strength(["Leader", "shieldbearer", "R1"]) == formation_strength([LEADER, SHIELD, "R1"])


# --- jokers -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("cards", "ruleset", "formation", "total"),
    [
        ("R8 R9 Leader", ST, Formation.COLOUR_RUN, 24),  # 7 8 9: there is no 10
        ("R9 R10 Leader", BL, Formation.COLOUR_RUN, 27),
        ("R1 R2 Leader", ST, Formation.COLOUR_RUN, 6),
        ("R1 R3 Leader", ST, Formation.COLOUR_RUN, 6),  # in the middle
        ("R5 O5 Leader", ST, Formation.THREE_OF_A_KIND, 15),
        ("R2 O9 Leader", ST, Formation.SUM, 20),  # best: the Leader as a 9
        ("R2 R7 Leader", ST, Formation.COLOUR, 18),
        ("Leader Leader R9", ST, Formation.COLOUR_RUN, 24),
        ("R6 R8 Reinforcement", ST, Formation.COLOUR_RUN, 21),
        ("R6 R8 Reinforcement", BL, Formation.COLOUR, 22),  # worth 8 in Battle Line
        ("R9 R10 Reinforcement", BL, Formation.COLOUR_RUN, 27),
        ("O7 Y7 Reinforcement", ST, Formation.THREE_OF_A_KIND, 21),
        ("O7 Y7 Reinforcement", BL, Formation.SUM, 22),
        ("R1 R2 ShieldBearer", ST, Formation.COLOUR_RUN, 6),
        ("R4 R5 ShieldBearer", ST, Formation.COLOUR_RUN, 12),
        ("R5 R6 ShieldBearer", ST, Formation.COLOUR, 14),  # cannot be a 4
        ("Y3 G3 ShieldBearer", ST, Formation.THREE_OF_A_KIND, 9),
        ("Y4 G4 ShieldBearer", ST, Formation.SUM, 11),
        ("Y4 G5 ShieldBearer", ST, Formation.RUN, 12),
    ],
)
def test_jokers_take_their_best_value(cards: str, ruleset: str, formation: Formation, total: int) -> None:
    expected = brute_strength(cards.split(), 3, ruleset=ruleset)
    got = formation_strength(cards.split(), ruleset=ruleset)
    assert got == Strength(formation, total)
    assert as_pair(got) == expected


def test_leader_reinforcement_shieldbearer() -> None:
    # Reinforcement is a 7 and a ShieldBearer at most 3: no run; best is a colour 7+9+3.
    assert formation_strength(["Leader", "Reinforcement", "ShieldBearer"]) == Strength(Formation.COLOUR, 19)
    assert formation_strength(["Leader", "Reinforcement", "Leader"]) == Strength(Formation.COLOUR_RUN, 24)


# --- Fog and Mud --------------------------------------------------------------------------


def test_fog_counts_the_sum_only() -> None:
    assert formation_strength(["R7", "R8", "R9"], fog=True) == Strength(Formation.SUM, 24)
    assert formation_strength(["R1", "O1", "Y1"], fog=True) < formation_strength(["R1", "O2", "Y9"], fog=True)
    # Jokers at their highest value.
    assert formation_strength(["Leader", "R1", "O1"], fog=True) == Strength(Formation.SUM, 11)
    assert formation_strength(["Leader", "R1", "O1"], fog=True, ruleset=BL) == Strength(Formation.SUM, 12)
    assert formation_strength(["Reinforcement", "ShieldBearer", "O1"], fog=True) == Strength(
        Formation.SUM, 11
    )
    assert formation_strength(["Reinforcement", "ShieldBearer", "O1"], fog=True, ruleset=BL).total == 12


def test_mud_formations_have_four_cards() -> None:
    assert formation_strength(["R1", "R2", "R3", "R4"]) == Strength(Formation.COLOUR_RUN, 10)
    assert formation_strength(["R5", "O5", "Y5", "G5"]) == Strength(Formation.THREE_OF_A_KIND, 20)
    assert formation_strength(["R5", "O5", "Y5", "G6"]) == Strength(Formation.SUM, 21)
    assert formation_strength(["R5", "O6", "Y7", "G8"]) == Strength(Formation.RUN, 26)
    assert formation_strength(["R5", "R6", "R7", "Leader"]) == Strength(Formation.COLOUR_RUN, 26)
    assert formation_strength(["R7", "R8", "R9", "R10"], ruleset=BL) == Strength(Formation.COLOUR_RUN, 34)


def test_strongest_subset_counts_when_a_side_holds_more() -> None:
    # Mud removed: four cards, three count.
    assert side_strength(["R1", "O9", "O8", "O7"]) == Strength(Formation.COLOUR_RUN, 24)
    assert side_strength(["R9", "O9", "Y2", "Y9"]) == Strength(Formation.THREE_OF_A_KIND, 27)
    assert side_strength(["R1", "O2", "Y5", "G9"]) == Strength(Formation.SUM, 16)
    assert side_strength(["R1", "O2", "Y5", "G9", "Leader"], needed=4) == Strength(Formation.SUM, 25)
    assert side_strength(["R1", "R2", "R3", "Y9"], needed=3) == Strength(Formation.COLOUR_RUN, 6)


# --- errors -------------------------------------------------------------------------------


@pytest.mark.parametrize("bad", ["X7", "R0", "R11", "", "Leaderr", "7R"])
def test_notation_errors_name_the_card(bad: str) -> None:
    with pytest.raises(NotationError) as info:
        formation_strength([bad, "R1", "R2"])
    assert info.value.params["text"] == bad


def test_battle_line_values_are_refused_in_schotten_totten() -> None:
    with pytest.raises(NotationError):
        formation_strength(["R10", "R9", "R8"])
    with pytest.raises(NotationError):
        formation_strength([ClanCard("R", 10), "R9", "R8"])
    assert formation_strength(["R10", "R9", "R8"], ruleset=BL) == Strength(Formation.COLOUR_RUN, 27)


def test_bad_sides_are_refused() -> None:
    with pytest.raises(ValueError, match="twice"):
        formation_strength(["R1", "R1", "R2"])
    with pytest.raises(ValueError, match="Fog"):
        formation_strength(["Fog", "R1", "R2"])
    with pytest.raises(ValueError):
        formation_strength(["R1", "R2"])
    with pytest.raises(ValueError):
        formation_strength(["R1", "R2", "R3", "R4", "R5"])
    with pytest.raises(ValueError):
        side_strength(["R1", "R2", "R3"], needed=4)
    with pytest.raises(NotationError):
        formation_strength(["R1", "R2", "R3"], ruleset="chess")


# --- the whole ranking ------------------------------------------------------------------


@pytest.mark.parametrize(
    ("ruleset", "count", "levels"), [(SCHOTTEN_TOTTEN, 24_804, 63), (BATTLE_LINE, 34_220, None)]
)
def test_ranking_of_every_triplet(ruleset: Ruleset, count: int, levels: int | None) -> None:
    """formation_strength orders every 3-card formation exactly as the brute force does."""
    deck = [str(card) for card in ruleset.clan_deck()]
    by_expected: dict[tuple[int, int], set[Strength]] = {}
    for trio in combinations(deck, 3):
        concrete = [(c[0], int(c[1:])) for c in trio]
        by_expected.setdefault(classify(concrete), set()).add(formation_strength(trio, ruleset=ruleset))
    assert sum(1 for _ in combinations(deck, 3)) == count
    if levels is not None:
        assert len(by_expected) == levels
    ranked = [by_expected[key] for key in sorted(by_expected)]
    assert all(len(group) == 1 for group in ranked)  # equal exactly when the brute force says so
    strengths = [next(iter(group)) for group in ranked]
    assert strengths == sorted(strengths)
    assert len(set(strengths)) == len(strengths)
    # The int keys of the hot paths keep the same order.
    assert [s.key for s in strengths] == sorted(s.key for s in strengths)
    assert all(strength_of_key(s.key) == s for s in strengths)


# --- random sides against the brute force -------------------------------------------------

JOKERS = ["Leader", "Reinforcement", "ShieldBearer"]


@st.composite
def sides(draw: st.DrawFn) -> tuple[list[str], int, bool, str]:
    ruleset = draw(st.sampled_from([ST, BL]))
    needed = draw(st.sampled_from([3, 4]))
    size = draw(st.integers(needed, needed + 1))
    jokers = draw(st.lists(st.sampled_from(JOKERS), max_size=min(2, size)))
    deck = [str(c) for c in get_ruleset(ruleset).clan_deck()]
    # Few colours and a narrow value range make formations likely.
    colours = draw(st.sampled_from(["R", "RO", "ROY", COLOURS]))
    low = draw(st.integers(1, 6))
    near = [c for c in deck if c[0] in colours and low <= int(c[1:]) <= low + 4]
    count = size - len(jokers)
    clan = draw(
        st.lists(
            st.sampled_from(near if len(near) >= count else deck), min_size=count, max_size=count, unique=True
        )
    )
    cards = draw(st.permutations(clan + jokers))
    return cards, needed, draw(st.booleans()), ruleset


@settings(max_examples=300, deadline=None)
@given(sides())
def test_side_strength_matches_brute_force(side: tuple[list[str], int, bool, str]) -> None:
    cards, needed, fog, ruleset = side
    got = side_strength(cards, needed=needed, fog=fog, ruleset=ruleset)
    assert as_pair(got) == brute_strength(cards, needed, fog, ruleset)
