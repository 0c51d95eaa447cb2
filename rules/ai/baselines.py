"""Two baseline players of their own style, to measure the search against.

They share nothing with the search's evaluation or the ``medium`` heuristic:

- :func:`greedy` builds formations: it claims every provable stone at once, puts the
  card that makes the best (potential) formation where it makes it, plays morale tactics
  the moment they complete a strong formation and other tactic cards only when it holds
  no clan card. It never looks at the opponent's side.
- :func:`sniper` holds its tactic cards for decisive moments: a tactic card is played
  only when, afterwards, it can prove a stone that it could not prove before, or the
  opponent can no longer prove one it could (checked with the engine's own claim proofs,
  which depend on the table only, not on the hidden hand). Otherwise it plays clan cards
  where the opponent is weakest, and it draws a tactic card whenever it holds none.
"""

from __future__ import annotations

import random

from rules.ai.determinize import sample_game
from rules.cards import Card, ClanCard, TacticCard, is_joker
from rules.moves import Claim, Draw, Move, Pass, PlayCard, ScoutReturn
from rules.view import PlayerView

# --- formation potential of a (partial) side -------------------------------------------


def _rank(clan: list[ClanCard], jokers: int, need: int) -> int:
    """The best formation these cards can still become: 4 colour run .. 0 sum."""
    if not clan:
        return 4
    values = sorted(c.value for c in clan)
    same_colour = len({c.colour for c in clan}) == 1
    distinct = len(set(values)) == len(values)
    run = distinct and values[-1] - values[0] <= need - 1
    if run and same_colour:
        return 4
    if values[0] == values[-1]:
        return 3
    if same_colour:
        return 2
    if run:
        return 1
    return 0


def side_score(cards: list[Card], need: int) -> float:
    """Formation-builder's value of a side: potential rank grows with the cards placed."""
    if not cards:
        return 0.0
    clan = [c for c in cards if isinstance(c, ClanCard)]
    jokers = sum(1 for c in cards if is_joker(c))
    rank = _rank(clan, jokers, need)
    n = len(clan) + jokers
    total = sum(c.value for c in clan) + 6 * jokers
    score = (rank + 0.5) * 100.0 * n / need + total
    if n >= need:
        score += 60.0 + 40.0 * rank  # a complete strong formation is what it wants
    return score


def _play_score(view: PlayerView, move: PlayCard) -> float:
    st = view.stone(move.stone)
    side = list(st.sides[view.player])
    return side_score([*side, move.card], st.needed) - side_score(side, st.needed)


def _draw(view: PlayerView, moves: list[Move], *, want_tactic: bool) -> Move:
    draws = {m.deck: m for m in moves if isinstance(m, Draw)}
    if want_tactic and "tactic" in draws:
        return draws["tactic"]
    return draws.get("clan") or next(iter(draws.values()))


def _scout_return(view: PlayerView, moves: list[ScoutReturn]) -> Move:
    """Put back the two lowest cards (tactic cards count as high)."""

    def weight(c: Card) -> int:
        return 20 if c.is_tactic else int(c.value or 0)

    return min(moves, key=lambda m: (weight(m.cards[0]) + weight(m.cards[1]), str(m)))


def _common(view: PlayerView, moves: list[Move]) -> Move | None:
    """Claims at once; the phases where there is nothing to play."""
    claims = [m for m in moves if isinstance(m, Claim)]
    if claims:
        return min(claims, key=lambda m: m.stone)
    if len(moves) == 1:
        return moves[0]
    returns = [m for m in moves if isinstance(m, ScoutReturn)]
    if returns:
        return _scout_return(view, returns)
    return None


# --- greedy -------------------------------------------------------------------------------


def greedy(view: PlayerView, rng: random.Random) -> Move:
    moves = view.legal_moves()
    done = _common(view, moves)
    if done is not None:
        return done
    if all(isinstance(m, Draw) for m in moves):
        return _draw(view, moves, want_tactic=False)
    plays = [m for m in moves if isinstance(m, PlayCard) and isinstance(m.card, ClanCard)]
    jokers = [m for m in moves if isinstance(m, PlayCard) and is_joker(m.card)]
    best = max(plays, key=lambda m: (_play_score(view, m), str(m)), default=None)
    if jokers:
        joker = max(jokers, key=lambda m: (_play_score(view, m), str(m)))
        st = view.stone(joker.stone)
        completes = len(st.sides[view.player]) + 1 >= st.needed
        if best is None or (completes and _play_score(view, joker) > _play_score(view, best)):
            return joker
    if best is not None:
        return best
    others = [m for m in moves if not isinstance(m, Pass)]
    if others:  # no clan card: any tactic play beats passing
        return sorted(others, key=str)[rng.randrange(len(others))]
    return moves[0]


# --- sniper -------------------------------------------------------------------------------


def _opponent_weakness(view: PlayerView, stone: int) -> float:
    st = view.stone(stone)
    theirs = list(st.sides[view.opponent])
    return -side_score(theirs, st.needed)


def sniper(view: PlayerView, rng: random.Random) -> Move:
    moves = view.legal_moves()
    done = _common(view, moves)
    if done is not None:
        return done
    if all(isinstance(m, Draw) for m in moves):
        holds_tactic = any(c.is_tactic for c in view.hand)
        return _draw(view, moves, want_tactic=not holds_tactic)
    tactic_moves = [m for m in moves if _is_tactic_move(m)]
    if tactic_moves:
        decisive = _decisive(view, tactic_moves, rng)
        if decisive is not None:
            return decisive
    plays = [m for m in moves if isinstance(m, PlayCard) and isinstance(m.card, ClanCard)]
    if plays:
        # Formation first, then the stone where the opponent stands weakest.
        return max(
            plays,
            key=lambda m: (_play_score(view, m) + 0.25 * _opponent_weakness(view, m.stone), str(m)),
        )
    if Pass() in moves:
        return Pass()  # only tactic cards left: keep them
    return sorted(moves, key=str)[0]


def _is_tactic_move(m: Move) -> bool:
    if isinstance(m, PlayCard):
        return isinstance(m.card, TacticCard)
    return not isinstance(m, (Claim, Draw, Pass, ScoutReturn))


def _decisive(view: PlayerView, moves: list[Move], rng: random.Random) -> Move | None:
    """A tactic move after which a stone becomes provable for me, or stops being provable
    for the opponent. Claim proofs depend on the table only, so one sampled world
    (any hidden hand) gives the same answer as the real game."""
    game = sample_game(view, random.Random(rng.random()))
    me, opp = view.player, view.opponent
    mine_before = set(game.claimable_stones(me))
    theirs_before = set(game.claimable_stones(opp))
    best: tuple[int, str, Move] | None = None
    for m in moves:
        if isinstance(m, PlayCard) and is_joker(m.card):
            st = view.stone(m.stone)
            if len(st.sides[me]) + 1 < st.needed:
                continue  # a joker decides nothing on an unfinished side
        g = game.clone()
        try:
            g.apply(m, me)
        except Exception:  # pragma: no cover - legal moves apply
            continue
        gain = len(set(g.claimable_stones(me)) - mine_before)
        denied = len(theirs_before - set(g.claimable_stones(opp)))
        value = 2 * gain + denied
        if value > 0 and (best is None or (value, str(m)) > (best[0], best[1])):
            best = (value, str(m), m)
    return None if best is None else best[2]
