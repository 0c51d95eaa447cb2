"""The tactics variant: a scenario per card, the tactic limit, targets, and the edges."""

from __future__ import annotations

import random

import pytest

from rules import errors
from rules.ai.determinize import sample_game
from rules.cards import parse_card
from rules.game import Game, GameOptions
from rules.moves import (
    Claim,
    Deserter,
    Draw,
    Pass,
    PlayCard,
    Redeploy,
    Scout,
    ScoutReturn,
    Traitor,
    parse_move,
)
from rules.positions import position

TACTICS = GameOptions(tactics=True)
BATTLE_LINE = GameOptions(ruleset="battle-line", tactics=True)


def m(text: str):
    return parse_move(text)


def c(text: str):
    return parse_card(text)


def tpos(**kw) -> Game:
    kw.setdefault("options", TACTICS)
    return position(**kw)


def refused(g: Game, move, error, player=None) -> errors.IllegalMove:
    """Apply an illegal move: it raises ``error``, is not listed, and changes nothing."""
    before = g.to_dict()
    with pytest.raises(error) as info:
        g.apply(move, player)
    assert g.to_dict() == before
    if player is None:
        assert move not in g.legal_moves()
    return info.value


# --------------------------------------------------------------------------- setup, draw, limit


def test_setup_has_a_tactic_deck_and_the_draw_is_a_choice():
    g = Game.new(1, TACTICS)
    assert g.deck_sizes == (42, 10)
    assert all(not card.is_tactic for card in g.hand(0) + g.hand(1))
    g = tpos(hands=("R1 R2", "G1"))
    g.apply(m("play R1 1"))
    assert set(g.legal_moves()) == {Draw("clan"), Draw("tactic")}
    assert g.forced_move() is None
    applied = g.apply(Draw("tactic"))
    assert applied.drawn.is_tactic and g.deck_sizes == (51, 9)


def test_empty_tactic_deck_cannot_be_drawn_from():
    g = tpos(hands=("R1 R2", "G1"), clan_deck="R5", fill=False)
    g.apply(m("play R1 1"))
    assert g.forced_move() == Draw("clan")
    refused(g, Draw("tactic"), errors.DeckEmpty)


def test_tactic_limit_both_ways():
    g = tpos(hands=("Fog Scout R1", "Mud G1"), sides={2: ("Leader", "")})
    assert g.tactics_played == (1, 0)
    refused(g, m("play Fog 1"), errors.TacticLimit)
    assert all(not mv.card.is_tactic for mv in g.legal_moves() if isinstance(mv, PlayCard))
    g.apply(m("play R1 1"))
    g.apply(Draw("clan"))
    # Player 1 is one behind: may play a tactic (and even go one ahead).
    assert m("play Mud 5") in g.legal_moves()
    g.apply(m("play Mud 5"))
    g.apply(Draw("clan"))
    assert g.tactics_played == (1, 1)
    g.apply(m("play Fog 3"))
    assert g.tactics_played == (2, 1)
    g.apply(Draw("clan"))
    g.apply(m("play G1 1"))
    g.apply(Draw("clan"))
    refused(g, Scout(), errors.TacticLimit)  # 2 > 1: player 0 must wait


def test_tactic_cards_refused_without_the_variant():
    g = position(hands=("R1", "G1"))
    refused(g, m("play Leader 1"), errors.TacticsNotInPlay)
    refused(g, Deserter(c("G1"), 1), errors.TacticsNotInPlay)


# --------------------------------------------------------------------------- morale tactics


def test_leader_is_a_joker_at_its_best_value():
    g = tpos(hands=("Leader R1", "G1"), sides={1: ("R8 R9", "Y9 G9 B9")})
    g.apply(m("play Leader 1"))
    assert g.stone(1).sides[0] == (c("R8"), c("R9"), c("Leader"))
    assert g.tactics_played == (1, 0) and g.view(1).leaders_played == (1, 0)
    assert Claim(1) in g.legal_moves()  # colour run R7 R8 R9 beats three nines
    g.apply(Claim(1))
    assert g.stone(1).owner == 0


def test_second_leader_stays_in_hand():
    g = tpos(hands=("Leader R1", "G1"), sides={2: ("Leader", "")}, tactics_played=(1, 1))
    err = refused(g, m("play Leader 1"), errors.SecondLeader)
    assert err.code == "second_leader"
    # ... even after the first one was discarded by the opponent's Deserter.
    g = tpos(hands=("Leader R1", "G1"), discards=((0, "Leader"), (1, "Deserter")))
    assert g.view(0).leaders_played == (1, 0)
    refused(g, m("play Leader 1"), errors.SecondLeader)


def test_each_player_may_have_one_leader():
    g = tpos(hands=("R1", "Leader G1"), sides={2: ("Leader", "")}, current=1)
    g.apply(m("play Leader 3"))
    assert g.stone(3).sides[1] == (c("Leader"),)


def test_reinforcement_is_seven_in_schotten_totten_and_eight_in_battle_line():
    sides = {1: ("B5 B6 Reinforcement", "G4 G5 G6")}
    # B5 B6 +7: colour run 18 beats G4 G5 G6 (15).
    assert tpos(hands=("R1", "G1"), sides=sides).claimable_stones(0) == [1]
    # Battle Line: +8 is only a colour (19) and loses to the colour run.
    g = tpos(options=BATTLE_LINE, hands=("R1", "G1"), sides=sides)
    assert g.claimable_stones(0) == [] and g.claimable_stones(1) == [1]
    refused(g, Claim(1), errors.ClaimLost)


def test_shield_bearer_is_one_two_or_three():
    g = tpos(hands=("R1", "G7"), sides={1: ("Y1 Y2 ShieldBearer", "G9 G8 G6")})
    assert g.claimable_stones(0) == [1]  # Y1 Y2 Y3 colour run beats a colour
    g = tpos(hands=("R1", "G7"), sides={1: ("Y5 Y6 ShieldBearer", "G1 G2 G3")})
    assert g.claimable_stones(1) == [1]  # Y5 Y6 + (1-3) is only a colour: no Y4, no Y7


# --------------------------------------------------------------------------- terrain tactics


def test_fog_leaves_only_the_sum():
    g = tpos(hands=("R1", "Fog G1"), sides={1: ("B1 B2 B3", "R9 G9 Y8")}, current=1)
    assert g.claimable_stones(0) == [1]
    g.apply(m("play Fog 1"))
    st = g.stone(1)
    assert st.fog == 1 and st.terrain == ((c("Fog"), 1),) and st.sides[1] == (c("R9"), c("G9"), c("Y8"))
    assert Claim(1) in g.legal_moves()
    g.apply(Claim(1))
    assert g.stone(1).owner == 1


def test_mud_on_a_stone_whose_sides_already_hold_three():
    g = tpos(hands=("Mud R1", "G1"), sides={1: ("B1 B2 B3", "Y7 Y8 Y9")}, first={1: 0})
    g.apply(m("play Mud 1"))
    st = g.stone(1)
    assert st.mud == 0 and st.needed == 4 and st.first_complete is None
    assert not st.is_complete(0) and not st.is_complete(1)
    assert 1 in g.playable_stones(0) and 1 in g.playable_stones(1)
    g.apply(Draw("clan"))
    refused(g, Claim(1), errors.SideIncomplete, player=1)
    g.apply(m("play G1 1"))  # player 1 completes four first now
    assert g.stone(1).first_complete == 1


def test_mud_needs_four_and_compares_formations_of_four():
    sides = {1: ("B1 B2 B3 B4", "Y9 G9 R9 O8")}
    g = tpos(hands=("R1", "G1"), sides=sides, mud={1: 1})
    assert g.claimable_stones(0) == [1]  # a colour run of four beats a sum


def test_mud_removed_when_sides_hold_four_uses_the_strongest_three():
    # Player 1's Mud; player 0's Deserter removes it. P0: B5 B6 B7 (+R1) colour run;
    # P1: Y9 G9 R9 O2 -> three nines, weaker than a colour run.
    g = tpos(hands=("Deserter R2", "G1"), sides={1: ("R1 B5 B6 B7", "Y9 G9 R9 O2")}, mud={1: 1}, first={1: 1})
    g.apply(Deserter(c("Mud"), 1))
    st = g.stone(1)
    assert st.mud is None and st.needed == 3 and (1, c("Mud")) in g.discards
    assert g.playable_stones(0).count(1) == 0  # four cards: full
    assert Claim(1) in g.legal_moves()
    g.apply(Claim(1))
    assert g.stone(1).owner == 0


def test_fog_with_mud_sums_four_cards():
    sides = {1: ("B1 B2 B3 B4", "Y9 G9 R9 O8")}
    g = tpos(hands=("R1", "G1"), sides=sides, mud={1: 1}, fog={1: 1})
    assert g.claimable_stones(0) == [] and g.claimable_stones(1) == [1]


def test_terrain_only_on_an_unclaimed_stone():
    g = tpos(hands=("Fog R1", "G1"), owners={4: 1})
    refused(g, m("play Fog 4"), errors.StoneClaimed)
    g = tpos(hands=("Mud R1", "G1"), sides={4: ("R2 R3 R4", "G2 G3 G4")})
    g.apply(m("play Mud 4"))  # a full side is no obstacle for terrain
    assert g.stone(4).mud == 0


# --------------------------------------------------------------------------- ruses


def test_scout_draws_three_then_returns_two_on_top_of_their_decks():
    g = tpos(hands=("Scout R1 R2", "G1"), clan_deck="B1 B2 B3", tactic_deck="Fog Mud")
    g.apply(Scout())
    assert g.phase == "scout_draw" and (0, c("Scout")) in g.discards and g.tactics_played == (1, 0)
    assert set(g.legal_moves()) == {Draw("clan"), Draw("tactic")}
    drawn = [g.apply(d).drawn for d in (Draw("clan"), Draw("tactic"), Draw("clan"))]
    assert drawn == [c("B1"), c("Fog"), c("B2")]
    assert g.phase == "scout_return" and len(g.hand(0)) == 5
    moves = g.legal_moves()
    assert ScoutReturn((c("R1"), c("Fog"))) in moves and len(moves) == 5 * 4
    applied = g.apply(ScoutReturn((c("Fog"), c("R1"))))
    assert applied.public_move is None and applied.move == ScoutReturn((c("Fog"), c("R1")))
    assert g.current_player == 1 and g.phase == "play"  # no further draw
    assert c("R1") not in g.hand(0) and c("Fog") not in g.hand(0)
    assert g._clan_deck[-1] == c("R1") and g._tactic_deck[-1] == c("Fog")
    # Player 0 knows what lies on top; player 1 sees neither the cards nor the return.
    assert set(g.view(0).known_deck_cards) == {("clan", 0, c("R1")), ("tactic", 0, c("Fog"))}
    v1 = g.view(1)
    assert v1.known_deck_cards == () and v1.last_moves[-1] == (0, None)
    # Once drawn, the card is no longer known to lie in the deck.
    g.apply(m("play G1 1"))
    assert g.apply(Draw("clan")).drawn == c("R1")
    assert g.view(0).known_deck_cards == (("tactic", 0, c("Fog")),)
    assert g.view(0).opponent_known_cards == (c("R1"),) and g.view(1).opponent_known_cards == ()
    sample = sample_game(g.view(0), random.Random(3))
    assert c("R1") in sample.hand(1) and sample._tactic_deck[-1] == c("Fog")


def test_scout_when_the_decks_hold_fewer_than_three_cards():
    g = tpos(hands=("Scout R1 R2", "G1"), clan_deck="B1", tactic_deck="Fog", fill=False)
    g.apply(Scout())
    g.apply(Draw("tactic"))
    assert g.forced_move() == Draw("clan")
    g.apply(Draw("clan"))
    assert g.phase == "scout_return"  # the decks ran out after two draws
    g.apply(ScoutReturn((c("R1"), c("R2"))))
    assert g.hand(0) == (c("Fog"), c("B1")) and g.deck_sizes == (2, 0)


def test_scout_with_empty_decks_goes_straight_to_the_return():
    g = tpos(hands=("Scout R1 R2", "G1"), fill=False)
    g.apply(Scout())
    assert g.phase == "scout_return"
    g.apply(ScoutReturn((c("R2"), c("R1"))))
    assert g.deck_sizes == (2, 0)


def test_scout_refused_without_two_cards_to_put_back():
    g = tpos(hands=("Scout R1", "G1"), fill=False)
    refused(g, Scout(), errors.BadTarget)


def test_scout_return_checks_the_cards_and_the_phase():
    g = tpos(hands=("Scout R1 R2", "G1"))
    refused(g, ScoutReturn((c("R1"), c("R2"))), errors.WrongPhase)
    g.apply(Scout())
    refused(g, Claim(1), errors.WrongPhase)
    for d in (Draw("clan"),) * 3:
        g.apply(d)
    refused(g, ScoutReturn((c("R1"), c("G1"))), errors.CardNotInHand)
    refused(g, ScoutReturn((c("R1"), c("R1"))), errors.CardNotInHand)


def test_redeploy_moves_an_own_card_or_discards_it():
    g = tpos(hands=("Redeploy R1", "G1"), sides={1: ("B7 B8 B9", "Y1"), 2: ("P1", "")})
    assert g.stone(1).first_complete == 0
    g.apply(Redeploy(c("B9"), 1, 2))
    assert g.stone(1).sides[0] == (c("B7"), c("B8")) and g.stone(2).sides[0] == (c("P1"), c("B9"))
    assert g.stone(1).first_complete is None and (0, c("Redeploy")) in g.discards
    assert g.phase == "draw" and g.tactics_played == (1, 0)
    g = tpos(hands=("Redeploy R1", "G1"), sides={1: ("B7 B8 B9", "Y1")})
    g.apply(Redeploy(c("B8"), 1, None))
    assert (0, c("B8")) in g.discards and c("B8") not in g.unplayed_clan_cards()


def test_redeploy_own_terrain():
    g = tpos(hands=("Redeploy R1", "G1"), fog={1: 0}, tactics_played=(1, 1))
    g.apply(Redeploy(c("Fog"), 1, 5))
    assert g.stone(1).fog is None and g.stone(5).fog == 0


def test_redeploy_bad_targets():
    base = {"hands": ("Redeploy R1", "G1"), "sides": {1: ("B7", "Y1"), 2: ("P1 P2 P3", ""), 3: ("O1", "")}}
    g = tpos(**base, owners={3: 1})
    refused(g, Redeploy(c("Y1"), 1, 4), errors.BadTarget)  # not own card
    refused(g, Redeploy(c("B7"), 1, 2), errors.StoneFull)
    refused(g, Redeploy(c("B7"), 1, 1), errors.BadTarget)
    refused(g, Redeploy(c("O1"), 3, 4), errors.StoneClaimed)  # from a claimed stone
    refused(g, Redeploy(c("B7"), 1, 3), errors.StoneClaimed)  # to a claimed stone
    refused(g, Redeploy(c("B7"), 1, 11), errors.NoSuchStone)
    refused(g, Redeploy(c("B7"), 1, 4), errors.NotYourTurn, player=1)


def test_deserter_discards_an_opponent_card():
    g = tpos(hands=("Deserter R1", "G1"), sides={1: ("B7", "Y1 Y2 Y3"), 2: ("", "Leader")})
    g.apply(Deserter(c("Y2"), 1))
    assert g.stone(1).sides[1] == (c("Y1"), c("Y3")) and (1, c("Y2")) in g.discards
    assert g.stone(1).first_complete is None
    assert g.phase == "draw" and g.tactics_played == (1, 1)


def test_deserter_bad_targets():
    g = tpos(hands=("Deserter R1", "G1"), sides={1: ("B7", "Y1"), 2: ("", "Y2")}, owners={2: 1})
    refused(g, Deserter(c("B7"), 1), errors.BadTarget)  # own card
    refused(g, Deserter(c("Y2"), 2), errors.StoneClaimed)
    refused(g, Deserter(c("Y5"), 1), errors.BadTarget)


def test_traitor_takes_an_opponent_clan_card():
    g = tpos(hands=("Traitor R1", "G1"), sides={1: ("B7", "Y1 Y2 Leader"), 2: ("P1 P2", "")})
    g.apply(Traitor(c("Y2"), 1, 2))
    assert g.stone(1).sides[1] == (c("Y1"), c("Leader"))
    assert g.stone(2).sides[0] == (c("P1"), c("P2"), c("Y2"))
    assert g.stone(2).first_complete == 0 and (0, c("Traitor")) in g.discards


def test_traitor_on_a_tactic_card_or_a_claimed_stone_is_refused():
    g = tpos(
        hands=("Traitor R1", "G1"),
        sides={1: ("", "Y1 Leader"), 2: ("P1 P2 P3", ""), 3: ("", "O5")},
        owners={3: 1, 4: 0},
    )
    err = refused(g, Traitor(c("Leader"), 1, 5), errors.BadTarget)
    assert "clan card" in str(err)
    refused(g, Traitor(c("O5"), 3, 5), errors.StoneClaimed)
    refused(g, Traitor(c("Y1"), 1, 4), errors.StoneClaimed)
    refused(g, Traitor(c("Y1"), 1, 2), errors.StoneFull)
    refused(g, Traitor(c("P1"), 2, 5), errors.BadTarget)  # own card


def test_ruse_not_in_hand_and_ruse_played_as_a_card():
    g = tpos(hands=("Traitor R1", "G1"), sides={1: ("", "Y1")})
    refused(g, Deserter(c("Y1"), 1), errors.CardNotInHand)
    refused(g, m("play Traitor 2"), errors.BadTarget)


# --------------------------------------------------------------------------- proofs with tactics


def test_discards_count_as_on_the_table_and_unplayed_tactics_never_count():
    # P1 (Y5 Y6) beats P0's B1 B2 B3 colour run only with Y4 or Y7. Both discarded:
    # provable, although P1 holds a Leader (unplayed tactics are not considered).
    hands = ("R1", "Leader G1")
    sides = {1: ("B1 B2 B3", "Y5 Y6")}
    g = tpos(hands=hands, sides=sides, discards=((1, "Y4"), (1, "Y7"), (0, "Deserter"), (0, "Redeploy")))
    assert c("Y4") not in g.unplayed_clan_cards()
    assert g.claimable_stones(0) == [1]
    g = tpos(hands=hands, sides=sides, discards=((1, "Y4"), (0, "Deserter")))
    assert g.claimable_stones(0) == []


def test_a_joker_on_the_opponents_side_counts_as_it_lies():
    g = tpos(hands=("R1", "G1"), sides={1: ("B1 B2 B3", "Leader")})
    with pytest.raises(errors.ClaimNotProvable) as info:
        g.apply(Claim(1))
    assert c("Leader") in info.value.counter_example


# --------------------------------------------------------------------------- pass and the end


def test_pass_with_only_tactic_cards_or_play_a_tactic():
    g = tpos(hands=("Fog Deserter", "G1"), sides={1: ("", "Y1")})
    moves = g.legal_moves()
    assert Pass() in moves and m("play Fog 3") in moves and Deserter(c("Y1"), 1) in moves
    assert g.forced_move() is None
    g.apply(Pass())
    assert g.current_player == 1


def test_cannot_pass_with_a_playable_clan_card_even_holding_tactics():
    g = tpos(hands=("Fog R1", "G1"))
    refused(g, Pass(), errors.CannotPass)


def test_pass_is_forced_when_the_tactic_limit_blocks_every_tactic():
    g = tpos(hands=("Fog", "G1"), sides={1: ("Leader", "")})
    assert g.legal_moves() == [Pass()] and g.forced_move() == Pass()


def test_both_pass_ending_with_tactics_in_hand():
    g = tpos(
        hands=("Fog Scout", "Mud Leader"),
        sides={1: ("R7 R8 R9", "G1 G2"), 2: ("B1 B2 B3", "Y7 Y8 Y9")},
        fill=False,
    )
    g.apply(Pass())
    applied = g.apply(Pass())
    assert g.is_over and g.result.reason == "both_passed"
    assert set(applied.decided) == {(1, 0), (2, 1)}
    assert g.result.winner is None and g.result.stones == (1, 1)
    assert g.hand(0) == (c("Fog"), c("Scout"))


# --------------------------------------------------------------------------- move generation


def test_legal_moves_cover_every_tactic_and_all_apply():
    g = tpos(
        hands=("Leader Reinforcement Fog Scout Redeploy Deserter Traitor", "G1"),
        sides={1: ("B7 B8", "Y1 Y2"), 2: ("P1", "")},
        mud={2: 1},
    )
    moves = g.legal_moves()
    kinds = {type(mv).__name__ for mv in moves}
    assert kinds >= {"PlayCard", "Scout", "Redeploy", "Deserter", "Traitor"}
    played = {mv.card for mv in moves if isinstance(mv, PlayCard)}
    assert played == {c("Leader"), c("Reinforcement"), c("Fog")}
    assert Deserter(c("Mud"), 2) in moves  # the opponent's terrain
    assert Redeploy(c("P1"), 2, None) in moves and Traitor(c("Y1"), 1, 3) in moves
    for mv in moves:
        g.clone().apply(mv)  # every listed move is accepted


def test_tactics_state_round_trips():
    import json

    g = tpos(hands=("Scout R1 R2", "G1"), sides={1: ("Leader", "")}, mud={3: 1}, tactics_played=(1, 1))
    g.apply(Scout())
    g.apply(Draw("tactic"))
    d = json.loads(json.dumps(g.to_dict()))
    back = Game.from_dict(d)
    assert back.to_dict() == g.to_dict() and back.phase == "scout_draw"
    assert set(back.legal_moves()) == set(g.legal_moves())
