"""The search of ``hard`` and ``medium``: determinized Monte Carlo, ranked with the model.

Each *iteration* deals the cards the AI cannot see (the opponent's hand, clan and tactic
cards in their public numbers, and both decks' order) at random, applies one root move on
a light simulator of the game and plays on with a cheap policy for both sides, tactic
cards included: for ``hard`` three turns, after which the probability model values the
table (:class:`Leaf`); for ``medium`` and ``hard-old`` to the end of the game. The root
decision is a fixed-budget best-arm problem, so the budget is spent by *sequential
halving*: every legal move gets playouts in the first round, the better half goes on to
the next round with twice the playouts, and so on until one is left. Within a round every
move is played out in the *same* sampled worlds with the same playout seeds (common
random numbers), so moves are compared on equal luck and a few dozen playouts separate
them where independent samples would need hundreds.

Moves are ranked by their mean playout score plus ``MODEL_WEIGHT`` times ``one-ply``'s
value of the move, the probability model's chance to win the game after it (relative to
the best move's): the playouts' estimate is biased by their crude policy, in a way more
playouts do not fix, and the model's by its independence assumptions; together they beat
either, and short playouts valued by the model beat long ones (docs/ai.md). ``hard-old``
ranks with the old heuristic's board value instead.

Sampling a new world for every iteration averages over the hidden cards instead of
trusting one guess: this is information-set Monte Carlo at depth one (the moves after the
root are made by the playout policy, not by a tree). The budget is a number of
iterations, so the same view and seed give the same move on any machine; a wall-clock cap
(``Budget.seconds``) only guards against a pathological case and is reported.

The playouts' simulator and policy are in :mod:`rules.ai.playout`; this module deals its
worlds from the view (:class:`Root`) and spends the budget on them (:func:`search`).
"""

from __future__ import annotations

import math
import random
import time
from dataclasses import dataclass, field, replace

from rules.ai import heuristic, learned, planner
from rules.ai.determinize import sample_game
from rules.ai.features import MEAN, situation_features
from rules.ai.model import Dist, Model, game_chance
from rules.ai.playout import MARGIN, STONES, World
from rules.ai.situation import Situation, StoneState, from_view
from rules.cards import Card, ClanCard
from rules.formations import tables
from rules.moves import Draw, Move
from rules.rulesets import get_ruleset
from rules.view import PlayerView

# Weight of the old heuristic's board value (a sum of per-stone chances) next to the
# playouts' mean score when moves are ranked: the playouts' estimate is biased by their
# crude policy (three times the playouts did not beat medium-old more often), the heuristic's
# by its own blind spots; the blend beat both (docs/ai.md, "Why this design").
HEURISTIC_WEIGHT = 0.15
# Weight of the probability model's value of a move (its chance to win the game plus a
# little of the stones' mean, rules.ai.planner) in the same ranking, for ``hard``.
MODEL_WEIGHT = 1.0
# The measurement players ``hard-learned`` and ``medium-learned`` (rules.ai.learned):
# their playouts stop after this many turns in every configuration (0: played to the
# end) and the learned evaluation values where they stop; it also takes the model's
# place in the ranking, at MODEL_WEIGHT.
LEARNED_LEAF_PLIES = 3


@dataclass(frozen=True)
class Budget:
    """How long to think: ``iterations`` playouts (deterministic); ``seconds`` is only a
    safety cap on wall time (None: none); ``candidates``: search only the moves the
    probability model ranks best, this many (None: every legal move); ``leaf_plies``:
    stop each playout after this many turns and value its end with the model (None:
    play to the end of the game)."""

    iterations: int = 400
    seconds: float | None = 5.0
    candidates: int | None = None
    leaf_plies: int | None = None


@dataclass
class SearchResult:
    move: Move
    iterations: int  # playouts run
    capped: bool  # the wall-clock cap stopped the search early
    #: Per searched move: (mean playout score for the AI in [0, 1], playouts).
    stats: dict[Move, tuple[float, int]] = field(default_factory=dict)
    #: The stones owned at the end of the playouts of the chosen move: fraction per stone
    #: (relative: + mine, - theirs), for hints.
    stone_share: list[float] = field(default_factory=list)


# --------------------------------------------------------------------------- the view


class Root:
    """What the search knows, from the PlayerView only: the table, the own hand, and the
    unseen cards to deal into the opponent's hand and the decks."""

    def __init__(self, view: PlayerView) -> None:
        me, o = view.player, view.opponent
        opts = view.options
        self.ruleset = rs = get_ruleset(opts.ruleset)
        self.view = view
        w = object.__new__(World)
        w.ruleset = rs
        w.triples = tables(rs).triples
        w.sides = [[list(st.sides[me]) for st in view.stones], [list(st.sides[o]) for st in view.stones]]
        w.masks = [[sum(1 << c.id for c in side) for side in w.sides[p]] for p in (0, 1)]
        w.owner = [None if st.owner is None else (0 if st.owner == me else 1) for st in view.stones]
        w.need = [st.needed for st in view.stones]
        w.fog = [st.fog is not None for st in view.stones]
        w.done = [[0] * STONES, [0] * STONES]
        for i, st in enumerate(view.stones):
            f = st.first_complete
            if f is not None:
                w.done[1 if f == me else 0][i] = 1  # the other side, if complete, came later
        w.hands = [list(view.hand), []]
        w.clan, w.tac = [], []
        w.tp = [view.tactics_played[me], view.tactics_played[o]]
        # The opponent's playout draws take a tactic card about as often as their real
        # draws so far: every card they have held, less the opening hand.
        held = sum(len(st.sides[o]) for st in view.stones) + view.opponent_hand_size
        held += sum(1 for st in view.stones for _, who in st.terrain if who == o)
        held += sum(1 for who, _ in view.discards if who == o)
        drawn = max(0, held - rs.hand_size)
        tactics = view.tactics_played[o] + view.opponent_hand_tactics
        w.tac_rate = [0.3, (tactics + 1) / (drawn + 3)]
        w.leader = [bool(view.leaders_played[me]), bool(view.leaders_played[o])]
        w.step = 2
        w.winner = None
        self.world = w
        seen: list[Card] = [c for st in view.stones for side in st.sides for c in side]
        seen += [c for st in view.stones for c, _ in st.terrain]
        seen += [c for _, c in view.discards] + list(view.hand)
        seen += [c for _, _, c in view.known_deck_cards] + list(view.opponent_known_cards)
        unseen = list(rs.clan_deck()) + (list(rs.tactic_deck()) if opts.tactics else [])
        for c in seen:
            if c in unseen:
                unseen.remove(c)
        self.unseen_clan = [c for c in unseen if not c.is_tactic]
        self.unseen_tac = [c for c in unseen if c.is_tactic]
        self.opp_known = list(view.opponent_known_cards)
        self.opp_tactics = view.opponent_hand_tactics - sum(1 for c in self.opp_known if c.is_tactic)
        self.opp_clan = view.opponent_hand_size - len(self.opp_known) - self.opp_tactics
        self.known_deck = list(view.known_deck_cards)

    def deal(self, rng: random.Random) -> World:
        """One world consistent with the view."""
        w = self.world.copy()
        clan = list(self.unseen_clan)
        tac = list(self.unseen_tac)
        rng.shuffle(clan)
        rng.shuffle(tac)
        nt = max(0, min(self.opp_tactics, len(tac)))
        nc = max(0, min(self.opp_clan, len(clan)))
        w.hands[1] = self.opp_known + tac[:nt] + clan[:nc]
        decks = {"clan": clan[nc:], "tactic": tac[nt:]}
        for deck, depth, card in sorted(self.known_deck, key=lambda k: -k[1]):
            d = decks[deck]
            d.insert(max(0, len(d) - depth), card)
        w.clan, w.tac = decks["clan"], decks["tactic"]
        return w


class Leaf:
    """The model's value of a truncated playout's world for the AI (player 0), on the
    playouts' score scale: the chance to win the game, and a little of the stones' mean
    in place of the margin. The AI's own hand is its hand in that world; the pool is the
    world's unseen clan cards (the opponent's hand and the deck), counted, not seen."""

    def __init__(self, sit: Situation, *, fitted: bool = False, my_turn: bool = True) -> None:
        self.sit = sit
        #: Value with the learned evaluation (its chance to win in place of the model's),
        #: ``my_turn``: the AI is to move at the leaves.
        self.fitted = fitted
        self.my_turn = my_turn
        # Empty sides' distributions, shared by the decision's leaves: their pools differ
        # by the few cards of three turns, and an empty side costs the most to count.
        self.open: dict[tuple[object, ...], Dist] = {}

    def value(self, w: World) -> float:
        stones = []
        for s in range(STONES):
            mine, theirs, need = w.sides[0][s], w.sides[1][s], w.need[s]
            first = None
            if len(mine) >= need and len(theirs) >= need:
                first = 0 if w.done[0][s] <= w.done[1][s] else 1  # as World.owners_at_end
            stones.append(StoneState(mine, theirs, w.owner[s], w.fog[s], need == 4, first))
        held = w.hands[1]
        sit = replace(
            self.sit,
            hand=w.hands[0],
            stones=stones,
            unseen_clan=[c for c in (*held, *w.clan) if isinstance(c, ClanCard)],
            opp_hand_size=len(held),
            opp_hand_tactics=sum(1 for c in held if c.is_tactic),
            clan_deck=len(w.clan),
            tactic_deck=len(w.tac),
            tactics_played=(w.tp[0], w.tp[1]),
            legal=[],
        )
        w.final_owners = w.owners_at_end()
        if self.fitted:  # the learned chance; the stones' mean is its third feature
            x = situation_features(sit, my_turn=self.my_turn, model=Model(sit, self.open))
            return (1 - MARGIN) * learned.predict(learned.load(), x) + MARGIN * x[MEAN]
        ps = Model(sit, self.open).stones(stones, w.hands[0])
        return (1 - MARGIN) * game_chance(ps) + MARGIN * sum(ps) / STONES


# --------------------------------------------------------------------------- search


_ADJACENT = [(i, i + 1, i + 2) for i in range(STONES - 2)]


def winning_move(view: PlayerView, moves: list[Move]) -> Move | None:
    """A move after which the AI can prove enough stones to win, if there is one.

    Claim proofs depend on the table only (every unplayed clan card counts as possible),
    so one world sampled from the view answers for all of them."""
    me = view.player
    game = sample_game(view, random.Random(0))
    owned = {st.number for st in view.stones if st.owner == me}
    for m in sorted(moves, key=str):
        g = game.clone()
        g.apply(m, me)
        mine = owned | set(g.claimable_stones(me))
        if len(mine) >= 5 or any(a + 1 in mine and a + 2 in mine and a + 3 in mine for a, _, _ in _ADJACENT):
            return m
    return None


def search(
    view: PlayerView,
    rng: random.Random,
    budget: Budget,
    moves: list[Move] | None = None,
    *,
    prior: str = "model",
) -> SearchResult:
    """Sequential halving over ``moves`` (default: every legal move; with
    ``budget.candidates``, the ones the prior ranks best) with common random numbers;
    ``budget.iterations`` playouts in all (at least one per move searched)."""
    moves = list(view.legal_moves() if moves is None else moves)
    if len(moves) == 1:
        return SearchResult(moves[0], 0, False, {moves[0]: (0.5, 0)})
    sit = from_view(view)
    if view.phase == "draw" and all(isinstance(m, Draw) for m in moves):
        # Not searched: the playouts overvalue tactic cards (searched draws took about
        # six a game and lost to medium-old; a rule wins, docs/ai.md).
        return SearchResult(heuristic.draw_choice(sit, moves), 0, False)
    if view.phase == "play":
        win = winning_move(view, moves)
        if win is not None:
            return SearchResult(win, 0, False, {win: (1.0, 0)})
    # The model's (or the old heuristic's) value of every move relative to its best,
    # scaled to the playout score: a stone's chance of 1.0 less is worth 0.15 of a game.
    if prior in ("model", "learned"):
        mv = planner.LearnedMoveValues(sit) if prior == "learned" else planner.MoveValues(sit)
        h, weight = [mv.value(m) for m in moves], MODEL_WEIGHT
    else:  # "heuristic": the old hard (hard-old)
        ev = heuristic.Evaluator(sit)
        h, weight = [ev.score(m) for m in moves], HEURISTIC_WEIGHT
    if budget.candidates is not None and len(moves) > budget.candidates:
        names = [str(m) for m in moves]
        keep = sorted(range(len(moves)), key=lambda i: (-h[i], names[i]))[: max(1, budget.candidates)]
        keep.sort()
        moves, h = [moves[i] for i in keep], [h[i] for i in keep]
        if len(moves) == 1:
            return SearchResult(moves[0], 0, False, {moves[0]: (0.5, 0)})
    root = Root(view)
    phase = view.phase
    next_player = 1 if phase in ("play", "draw") else 0
    leaf = None
    if budget.leaf_plies is not None:
        leaf = Leaf(sit, fitted=prior == "learned", my_turn=next_player ^ budget.leaf_plies % 2 == 0)
    deadline = None if budget.seconds is None else time.perf_counter() + budget.seconds
    total = [0.0] * len(moves)
    count = [0] * len(moves)
    alive = list(range(len(moves)))
    rounds = max(1, math.ceil(math.log2(len(moves))))
    left = max(budget.iterations, len(moves))
    used = 0
    capped = False
    share = [[0.0] * STONES for _ in moves]
    top = max(h)
    bonus = [weight * (x - top) for x in h]

    def rank(i: int) -> float:
        return total[i] / count[i] + bonus[i] if count[i] else -1.0

    r = 0
    while len(alive) > 1 and not capped:
        per = max(1, left // (max(1, rounds - r) * len(alive)))
        for _ in range(per):
            world_seed = rng.getrandbits(64)
            play_seed = rng.getrandbits(64)
            base = root.deal(random.Random(world_seed))
            for i in alive:
                w = base.copy()
                prng = random.Random(play_seed)
                w.apply_root(moves[i], prng, phase)
                score = w.rollout(next_player, prng, budget.leaf_plies)
                if score is None:
                    assert leaf is not None
                    score = leaf.value(w)
                total[i] += score
                count[i] += 1
                owners = w.final_owners
                for s, own in enumerate(owners):
                    if own is not None:
                        share[i][s] += 1.0 if own == 0 else -1.0
                used += 1
                if deadline is not None and used % 16 == 0 and time.perf_counter() > deadline:
                    capped = True
                    break
            if capped:
                break
        left = max(0, left - per * len(alive))
        r += 1
        alive.sort(key=lambda i: (-rank(i), str(moves[i])))
        alive = alive[: max(1, (len(alive) + 1) // 2)] if not capped else alive[:1]
    best = alive[0] if count[alive[0]] else max(range(len(moves)), key=lambda i: count[i])
    stats = {moves[i]: (total[i] / count[i], count[i]) for i in range(len(moves)) if count[i]}
    stone_share = [x / max(1, count[best]) for x in share[best]]
    return SearchResult(moves[best], used, capped, stats, stone_share)
