"""Unit tests of the base game: setup, turns, claims, the end, and every illegal move."""

from __future__ import annotations

import pytest

from rules import errors
from rules.cards import parse_card, parse_cards
from rules.formations import side_strength
from rules.game import Game, GameOptions, Result, match_points
from rules.moves import Claim, Draw, Pass, PlayCard, parse_move
from rules.positions import position

TURN_START = GameOptions(claim_timing="turn-start")


def m(text: str):
    return parse_move(text)


def c(text: str):
    return parse_card(text)


# --------------------------------------------------------------------------- setup


def test_same_seed_same_deal_and_other_seed_other_deal():
    a, b = Game.new(42), Game.new(42)
    assert a.to_dict() == b.to_dict()
    assert Game.new(43).to_dict()["hands"] != a.to_dict()["hands"]


def test_schotten_totten_setup():
    g = Game.new(1)
    assert len(g.hand(0)) == len(g.hand(1)) == 6
    assert g.deck_sizes == (54 - 12, 0)
    assert g.phase == "play" and g.current_player == g.first_player in (0, 1)
    assert all(not card.is_tactic for card in g.hand(0) + g.hand(1))


def test_battle_line_setup():
    g = Game.new(1, GameOptions(ruleset="battle-line"))
    assert len(g.hand(0)) == len(g.hand(1)) == 7
    assert g.deck_sizes == (60 - 14, 0)


def test_first_player_from_seed_or_given_and_deal_independent_of_it():
    firsts = {Game.new(seed).first_player for seed in range(20)}
    assert firsts == {0, 1}
    g0, g1 = Game.new(5, first_player=0), Game.new(5, first_player=1)
    assert g0.current_player == 0 and g1.current_player == 1
    assert g0.hand(0) == g1.hand(0)


def test_options_validate_and_accept_a_ruleset_object():
    from rules.rulesets import BATTLE_LINE

    assert GameOptions(ruleset=BATTLE_LINE).ruleset == "battle-line"
    with pytest.raises(errors.NotationError):
        GameOptions(claim_timing="whenever")  # type: ignore[arg-type]


# --------------------------------------------------------------------------- a turn


def test_play_then_draw_ends_the_turn():
    g = position(hands=("R7 R8 R9 B1 B2 B3", "G1 G2 G3 G4 G5 G6"), clan_deck="Y5")
    applied = g.apply(m("play R7 4"), 0)
    assert applied.drawn is None and not applied.game_over
    assert g.stone(4).sides[0] == (c("R7"),)
    assert c("R7") not in g.hand(0)
    assert g.phase == "draw" and g.current_player == 0
    assert g.forced_move() == Draw("clan")
    applied = g.apply(Draw("clan"))
    assert applied.drawn == c("Y5") and c("Y5") in g.hand(0)
    assert len(g.hand(0)) == 6
    assert g.current_player == 1 and g.phase == "play"
    assert g.version == 2 and [str(mv) for _, mv in g.log] == ["play R7 4", "draw clan"]


def test_empty_deck_is_skipped_with_draw_none():
    g = position(hands=("R7", "G1"), fill=False)
    g.apply(m("play R7 1"))
    assert g.legal_moves() == [Draw(None)]
    assert g.forced_move() == Draw(None)
    with pytest.raises(errors.DeckEmpty):
        g.apply(Draw("clan"))
    g.apply(Draw(None))
    assert g.current_player == 1


def test_draw_none_refused_while_cards_remain():
    g = position(hands=("R7", "G1"))
    g.apply(m("play R7 1"))
    with pytest.raises(errors.BadTarget):
        g.apply(Draw(None))


def test_legal_moves_in_play_phase_are_every_card_on_every_free_stone():
    g = position(hands=("R1 R2", "G1"), sides={1: ("B1 B2 B3", ""), 2: ("", "")}, owners={3: 1})
    moves = g.legal_moves()
    plays = {(mv.card, mv.stone) for mv in moves if isinstance(mv, PlayCard)}
    free = [2, 4, 5, 6, 7, 8, 9]  # 1 is full, 3 is claimed
    assert plays == {(c(t), s) for t in ("R1", "R2") for s in free}
    assert Pass() not in moves


# --------------------------------------------------------------------------- pass


def test_pass_only_when_no_card_can_be_played():
    g = position(hands=("R1", "G1"))
    with pytest.raises(errors.CannotPass):
        g.apply(Pass())
    g = position(hands=("", "G1"))
    assert g.legal_moves() == [Pass()]  # no card in hand
    full = {n: (f"R{n} O{n} Y{n}", "") for n in range(1, 10)}
    g = position(hands=("B1", "G1"), sides=full)
    assert g.legal_moves() == [Pass()]
    assert g.forced_move() == Pass()
    g.apply(Pass())
    assert g.current_player == 1 and g.phase == "play"  # no draw after a pass
    assert g.hand(0) == (c("B1"),)


def test_pass_when_every_own_side_is_full_or_claimed():
    sides = {n: (f"R{n} O{n} Y{n}", "") for n in range(1, 9)}
    g = position(hands=("P9", "G1"), sides=sides, owners={9: 1})
    assert not g.can_play_card(0)
    assert Pass() in g.legal_moves()


def test_both_pass_decides_stones_and_more_stones_wins():
    # P0 holds a provable stone 1 and a complete stone 2 beating P1's; stone 3 undecidable.
    g = position(
        hands=("", ""),
        sides={1: ("R7 R8 R9", ""), 2: ("B5 B6 B7", "G1 Y2 P4"), 3: ("O1 O2", "Y9 Y8")},
        fill=False,
    )
    assert g.apply(Pass()).result is None
    applied = g.apply(Pass())
    assert g.is_over and g.phase == "over" and g.current_player is None
    assert set(applied.decided) == {(1, 0), (2, 0)}
    assert g.result == Result(0, "both_passed", (2, 0))
    assert g.stone(3).owner is None


def test_both_pass_draw_when_equal():
    g = position(hands=("", ""), sides={1: ("R7 R8 R9", ""), 2: ("", "B5 B6 B7")}, fill=False)
    g.apply(Pass())
    g.apply(Pass())
    assert g.result == Result(None, "both_passed", (1, 1))
    assert match_points(g.result) == (1, 1)


def test_a_play_between_passes_resets_the_count():
    g = position(hands=("", "G1"), sides={1: ("R1 R2 R3", "")}, fill=False)
    g.apply(Pass())
    g.apply(m("play G1 2"))
    g.apply(Draw(None))
    g.apply(Pass())
    assert not g.is_over and g.consecutive_passes == 1


@pytest.mark.parametrize(
    "text", ["play R7 " + "9" * 5000, "claim " + "1" * 5000, "claim ³", "redeploy R7 3 ²", "traitor R7 3 ٣"]
)
def test_stone_numbers_that_are_not_small_ascii_numbers_are_notation_errors(text):
    # int() refuses 5000 digits and superscripts with a bare ValueError: the notation
    # must reject them itself (NotationError), as it does any other unreadable move.
    with pytest.raises(errors.NotationError):
        m(text)


def test_a_stone_number_out_of_range_is_still_no_such_stone():
    g = Game.new(1)
    with pytest.raises(errors.NoSuchStone):
        g.apply(m("claim 10"))


# --------------------------------------------------------------------------- claims


def test_claim_by_comparison():
    g = position(hands=("R1", "G1"), sides={5: ("B7 B8 B9", "Y7 Y8 Y9")})
    assert g.claimable_stones(0) == [5]
    applied = g.apply(Claim(5))
    assert applied.decided == ((5, 0),)
    assert g.stone(5).owner == 0
    assert g.phase == "play" and g.current_player == 0  # a claim does not end the turn


def test_claim_lost_when_opponent_side_is_stronger():
    g = position(hands=("R1", "G1"), sides={5: ("B1 B2 B4", "Y7 Y8 Y9")})
    before = g.to_dict()
    with pytest.raises(errors.ClaimLost) as info:
        g.apply(Claim(5))
    assert info.value.params["stone"] == 5 and info.value.code == "claim_lost"
    assert g.to_dict() == before


@pytest.mark.parametrize(("first", "claimer_wins"), [(0, True), (1, False)])
def test_tie_goes_to_who_completed_first(first, claimer_wins):
    g = position(hands=("R1", "G1"), sides={2: ("B7 B8 B9", "Y7 Y8 Y9")}, first={2: first})
    assert (g.claimable_stones(0) == [2]) is claimer_wins
    assert (g.claimable_stones(1) == [2]) is not claimer_wins


def test_tie_order_follows_the_play():
    g = position(hands=("R1 B9", "G1 Y9"), sides={2: ("B7 B8", "Y7 Y8")}, current=1)
    g.apply(m("play Y9 2"))
    g.apply(Draw("clan"))
    g.apply(m("play B9 2"))
    assert g.stone(2).first_complete == 1
    assert g.claimable_stones(0) == [] and g.claimable_stones(1) == [2]


def test_claim_by_proof_with_incomplete_opponent_side():
    g = position(hands=("R1", "G2"), sides={3: ("P7 P8 P9", "G1 Y5")})
    assert g.claimable_stones(0) == [3]
    g.apply(Claim(3))
    assert g.stone(3).owner == 0


def test_unprovable_claim_names_a_counter_example_that_beats_the_side():
    g = position(hands=("R1", "G1"), sides={3: ("B1 B2 B4", "Y5 Y6")})
    assert 3 not in g.claimable_stones(0)
    with pytest.raises(errors.ClaimNotProvable) as info:
        g.apply(Claim(3))
    ce = info.value.counter_example
    assert ce is not None and len(ce) == 3 and {c("Y5"), c("Y6")} <= set(ce)
    assert side_strength(list(ce)) > side_strength(parse_cards("B1 B2 B4"))
    assert "3" in str(info.value)
    assert Claim(3) not in g.legal_moves()


def test_a_refused_claim_is_lost_once_the_opponent_completes_the_counter_example():
    # The refusal names R8 R9 R7; when P1 then plays exactly R7, the stone is lost, not
    # "not provable yet" (the cached refusal must not outlive the opponent's open side).
    g = position(hands=("B5 B6", "R7 P1"), sides={1: ("Y1 G2 B4", "R8 R9")}, current=0)
    with pytest.raises(errors.ClaimNotProvable) as info:
        g.apply(Claim(1))
    assert set(info.value.counter_example or ()) == set(parse_cards("R7 R8 R9"))
    for text in ("play B5 5", "draw clan", "play R7 1", "draw clan"):
        g.apply(m(text))
    with pytest.raises(errors.ClaimLost):
        g.apply(Claim(1))
    with pytest.raises(errors.ClaimLost):
        Game.from_dict(g.to_dict()).apply(Claim(1))


def test_proof_uses_every_card_not_on_the_table_including_the_claimers_hand():
    # P0's side is a Y2 Y3 Y4 colour run; P1 could still get Y5 Y6 (P0 holds them): unprovable.
    g = position(hands=("Y5 Y6", "G1"), sides={3: ("Y2 Y3 Y4", "Y7")})
    with pytest.raises(errors.ClaimNotProvable):
        g.apply(Claim(3))


def test_claim_succeeds_when_too_few_cards_remain():
    g = position(hands=("", ""), sides={3: ("R1 R2 O4", "Y7")}, clan_deck="B9", fill=False)
    assert g.claimable_stones(0) == [3]


def test_claim_after_play_in_standard_timing():
    g = position(hands=("B9 R1", "G1"), sides={4: ("B7 B8", "G2 Y3 P5")})
    g.apply(m("play B9 4"))
    assert g.phase == "draw"
    assert Claim(4) in g.legal_moves()
    assert g.forced_move() is None  # a claim is possible: the player must choose
    g.apply(Claim(4))
    assert g.stone(4).owner == 0 and g.phase == "draw"


def test_advanced_timing_claims_only_before_playing():
    g = position(options=TURN_START, hands=("B9 R1", "G1"), sides={4: ("B7 B8", "G2 Y3 P5")})
    g.apply(m("play B9 4"))
    assert Claim(4) not in g.legal_moves()
    assert g.forced_move() == Draw("clan")
    before = g.to_dict()
    with pytest.raises(errors.ClaimTiming):
        g.apply(Claim(4))
    assert g.to_dict() == before
    g.apply(Draw("clan"))
    g.apply(m("play G1 1"))
    g.apply(Draw("clan"))
    assert Claim(4) in g.legal_moves()  # next turn, at the start
    g.apply(Claim(4))


def test_side_incomplete_and_claimed_stone_and_no_such_stone():
    g = position(hands=("R1", "G1"), sides={1: ("B7 B8", ""), 2: ("Y1 Y2 Y3", "")}, owners={2: 1})
    with pytest.raises(errors.SideIncomplete):
        g.apply(Claim(1))
    with pytest.raises(errors.StoneClaimed):
        g.apply(Claim(2))
    with pytest.raises(errors.StoneClaimed):
        g.apply(m("play R1 2"))
    for bad in (0, 10):
        with pytest.raises(errors.NoSuchStone):
            g.apply(Claim(bad))
        with pytest.raises(errors.NoSuchStone):
            g.apply(PlayCard(c("R1"), bad))


# --------------------------------------------------------------------------- the end


def test_three_adjacent_stones_win_immediately():
    g = position(
        hands=("R1", "G1"),
        sides={4: ("B7 B8 B9", ""), 5: ("Y7 Y8 Y9", ""), 6: ("P7 P8 P9", "")},
        clan_deck="",
        owners={4: 0, 5: 0},
    )
    applied = g.apply(Claim(6))
    assert applied.game_over and g.result == Result(0, "three_adjacent", (3, 0))
    assert g.legal_moves() == [] and g.forced_move() is None
    with pytest.raises(errors.GameOver):
        g.apply(m("play R1 1"))
    assert match_points(g.result) == (5, 0)


def test_five_stones_win():
    g = position(hands=("R1", "G1"), sides={9: ("B7 B8 B9", "")}, owners={1: 0, 3: 0, 5: 0, 7: 0, 2: 1, 6: 1})
    g.apply(Claim(9))
    assert g.result == Result(0, "five_stones", (5, 2))
    assert match_points(g.result) == (5, 2)


def test_no_claims_after_the_game_ends():
    g = position(
        hands=("R1", "G1"),
        sides={1: ("B7 B8 B9", ""), 2: ("Y7 Y8 Y9", ""), 3: ("P7 P8 P9", ""), 9: ("O7 O8 O9", "")},
        owners={1: 0, 2: 0},
    )
    g.apply(Claim(3))
    with pytest.raises(errors.GameOver):
        g.apply(Claim(9))


def test_resign_and_forfeit():
    g = Game.new(3)
    applied = g.resign(1)
    assert g.result == Result(0, "resigned", (0, 0)) and applied.game_over
    assert [str(mv) for _, mv in g.log] == ["resign"]
    with pytest.raises(errors.GameOver):
        g.resign(0)
    g = Game.new(3)
    g.forfeit(g.current_player)
    assert g.result.reason == "timeout" and g.result.winner == 1 - g.first_player


@pytest.mark.parametrize(
    ("end", "reason", "word"), [("withdraw", "withdrawn", "withdraw"), ("kick", "kicked", "kick")]
)
def test_a_tournament_ends_a_game_by_withdrawal_or_removal(end, reason, word):
    g = Game.new(5)
    mover = g.current_player
    g.apply(g.legal_moves()[0])  # a move first, so that the replay finds the first player
    g.apply(g.forced_move() or g.legal_moves()[0])
    loser = 1 - g.current_player  # like resign, not only the player to move
    applied = getattr(g, end)(loser)
    assert g.result == Result(1 - loser, reason, g.result.stones) and applied.game_over
    assert applied.result == g.result and applied.player == loser and str(applied.move) == word
    assert [(p, str(mv)) for p, mv in g.log][-1] == (loser, word)
    with pytest.raises(errors.GameOver):
        g.resign(1 - loser)
    with pytest.raises(errors.GameOver):
        getattr(g, end)(1 - loser)
    assert [(p, str(mv)) for p, mv in g.log][-1] == (loser, word)  # refused: nothing logged
    # Replayed from its log, as stored (text), the game ends the same way.
    again = Game.replay(5, GameOptions(), [(p, str(mv)) for p, mv in g.log])
    assert again.result == g.result and again.first_player == mover
    assert again.to_dict() == g.to_dict()
    # An ending alone in the log: the replay still asks for the first player.
    alone = Game.new(5)
    getattr(alone, end)(1)
    back = Game.replay(5, GameOptions(), [(1, word)], first_player=alone.first_player)
    assert back.result == Result(0, reason, (0, 0)) == alone.result


# --------------------------------------------------------------------------- illegal moves


def _illegal_cases():
    def fresh():
        return position(
            hands=("R1 R2", "G1 G2"), sides={1: ("B1 B2 B3", ""), 2: ("Y7 Y8 Y9", "")}, owners={3: 1}
        )

    def in_draw_phase():
        g = fresh()
        g.apply(m("play R1 4"))
        return g

    def over():
        g = fresh()
        g.resign(1)
        return g

    return [
        ("wrong turn", fresh, m("play R1 4"), 1, errors.NotYourTurn),
        ("card not in hand", fresh, m("play G1 4"), None, errors.CardNotInHand),
        ("full stone", fresh, m("play R1 1"), None, errors.StoneFull),
        ("claimed stone", fresh, m("play R1 3"), None, errors.StoneClaimed),
        ("no such stone", fresh, PlayCard(c("R1"), 12), None, errors.NoSuchStone),
        ("claim incomplete", fresh, Claim(4), None, errors.SideIncomplete),
        ("unprovable claim", fresh, Claim(1), None, errors.ClaimNotProvable),
        ("pass with a card to play", fresh, Pass(), None, errors.CannotPass),
        ("draw before playing", fresh, Draw("clan"), None, errors.WrongPhase),
        ("tactic deck in base game", in_draw_phase, Draw("tactic"), None, errors.TacticsNotInPlay),
        ("play twice", in_draw_phase, m("play R2 5"), None, errors.WrongPhase),
        ("pass after playing", in_draw_phase, Pass(), None, errors.WrongPhase),
        ("tactic card in base game", fresh, m("play Leader 4"), None, errors.TacticsNotInPlay),
        ("scout in base game", fresh, m("scout"), None, errors.TacticsNotInPlay),
        ("game over", over, m("play R1 4"), None, errors.GameOver),
    ]


@pytest.mark.parametrize(("name", "make", "move", "player", "error"), _illegal_cases(), ids=lambda x: x)
def test_illegal_move_raises_and_changes_nothing(name, make, move, player, error):
    g = make()
    before = g.to_dict()
    legal = g.legal_moves()
    with pytest.raises(error) as info:
        g.apply(move, player)
    assert isinstance(info.value, errors.IllegalMove)
    assert info.value.code == error.code and str(info.value)
    assert g.to_dict() == before
    assert g.legal_moves() == legal
    if player is None:
        assert move not in legal


def test_error_messages_do_not_reveal_the_opponents_hand():
    g = position(hands=("R1 R2", "G1 G2 G3"), sides={1: ("B1 B2 B3", "")})
    opp = {str(card) for card in g.hand(1)}
    for move in (m("play G1 4"), Claim(1), Pass(), Draw("clan"), m("play R1 1")):
        with pytest.raises(errors.IllegalMove) as info:
            g.apply(move)
        named_by_player = {str(move.card)} if isinstance(move, PlayCard) else set()
        assert not ({w.strip(".,:") for w in str(info.value).split()} & (opp - named_by_player))


# --------------------------------------------------------------------------- views and printing


def test_view_holds_own_hand_and_table_but_not_the_other_hand():
    g = position(hands=("R1 R2", "G1 G2 G3"), sides={1: ("B1 B2 B3", "Y4")})
    v = g.view(0)
    assert v.hand == g.hand(0) and v.opponent_hand_size == 3
    assert v.stone(1).sides == ((c("B1"), c("B2"), c("B3")), (c("Y4"),))
    assert v.deck_sizes == g.deck_sizes and v.my_turn and v.phase == "play"
    assert set(v.legal_moves()) == set(g.legal_moves())
    assert g.view(1).legal_moves() == []
    text = repr(v)
    assert not any(str(card) in text.split("Card(") for card in g.hand(1))
    assert all(f"Card({card})" not in text for card in g.hand(1))


def test_stones_and_helpers():
    g = position(hands=("R1", "G1"), sides={2: ("B1 B2 B3", "Y4")}, owners={5: 1})
    st = g.stone(2)
    assert st.number == 2 and st.needed == 3 and st.is_complete(0) and not st.is_complete(1)
    assert st.first_complete == 0 and st.terrain == ()
    assert len(g.stones) == 9 and g.stones[4].owner == 1
    assert g.playable_stones(0) == [1, 3, 4, 6, 7, 8, 9]
    assert g.can_play_card(0) and g.tactics_played == (0, 0)


def test_board_prints_everything():
    g = position(hands=("R1 R2", "G1"), sides={2: ("B1 B2 B3", "Y4")}, owners={5: 1})
    text = str(g)
    for word in ("Schotten-Totten", "P0 hand: R1 R2", "P1 hand: G1", "B1 B2 B3", "Y4", "^5^", "clan deck"):
        assert word in text
    assert len(text.splitlines()) == 14


def test_clone_is_independent():
    g = Game.new(9)
    h = g.clone()
    h.apply(h.legal_moves()[0])
    assert g.version == 0 and h.version == 1
    assert g.to_dict() != h.to_dict()
    assert g.clone().to_dict() == g.to_dict()
