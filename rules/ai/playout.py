"""The ``hard`` search's playouts: a light simulator of the game and its playout policy.

The simulator (:class:`World`) holds both hands, both decks and the open stones, and is
simpler than the engine: no claims during a playout. A stone is decided as soon as both
sides are complete (ties to the side completed first), and the playout ends when a player
has three adjacent stones or five (the race the real game is); whatever is open at the
end is decided by comparison. Each playout turn takes two random clan cards and puts the
better one where it fits best (:func:`_fit`), with a little noise. The tactic cards
follow simple rules: jokers where they complete a strong formation, Traitor and Deserter
against the opponent's best side, Fog against a strong formation, Mud against a complete
side, Redeploy away from a lost stone, Scout as a draw. A playout draw may take a tactic
card only for a player who holds none and is not ahead in tactic cards played (the
tactic limit): for the AI with chance 0.3, for the opponent about as often as they have
drawn one so far in the game (``World.tac_rate``, set by ``rules.ai.mcts.Root``).

``rules.ai.mcts`` deals the worlds from the player's view and runs the search.
"""

from __future__ import annotations

import random
from typing import overload

from rules.ai.situation import side_key
from rules.cards import CARDS_BY_ID, Card, ClanCard, Tactic, TacticCard, TacticKind, tactic_card
from rules.moves import Deserter, Draw, Move, Pass, PlayCard, Redeploy, Scout, Traitor
from rules.rulesets import Ruleset

STONES = 9
FOG = tactic_card(Tactic.FOG)
MUD = tactic_card(Tactic.MUD)
LEADER = tactic_card(Tactic.LEADER)
SCOUT = tactic_card(Tactic.SCOUT)
TACTIC_TRY = 0.35  # chance that a playout turn tries a tactic card first
NOISE = 0.1  # chance that a playout turn puts its card on a random open stone instead
# A playout's score: mostly the result, a little the stone margin (less noise per
# playout); both 0 and 0.4 played clearly worse (docs/ai.md).
MARGIN = 0.15


# --------------------------------------------------------------------------- fit


# Fit of a card at a side, by (side mask, Mud) then card id: the same few thousand
# sides recur across playouts and decisions, so this is filled once per process.
_FIT: dict[int, list[float | None]] = {}
N_IDS = len(CARDS_BY_ID)
_STONES = range(STONES)


def _fit(card: Card, side: list[Card], need: int) -> float:
    """How well a card fits a side: continuing a formation > opening > junk."""
    clan = [c for c in side if isinstance(c, ClanCard)]
    if not isinstance(card, ClanCard):  # a joker: strong where it completes a formation
        if not clan:
            return 1.0
        if len(side) + 1 < need:
            return 2.0
        return 6.5 if _shape(clan, need) >= 3 else 3.0
    v = card.value
    if not clan:
        return 1.5 + 0.1 * v if not side else 4.0 + 0.1 * v  # beside a joker: fine
    shape = _shape([*clan, card], need)
    return (0.5, 2.5, 3.5, 5.0, 6.0)[shape] + 0.1 * v + (0.7 if shape == 0 and len(clan) < 2 else 0)


def _card_value(card: Card) -> int:
    """A card's value for keeping or taking it: tactic cards above every clan card."""
    return card.value if isinstance(card, ClanCard) else 99


def _shape(clan: list[ClanCard], need: int) -> int:
    """Best formation these clan cards can still be part of: 4 colour run .. 0 sum."""
    c0 = clan[0]
    same_colour = all(c.colour == c0.colour for c in clan)
    values = [c.value for c in clan]
    lo, hi = min(values), max(values)
    if lo == hi and len(clan) > 1:
        return 3
    distinct = len(set(values)) == len(values)
    run = distinct and hi - lo <= need - 1
    if run and same_colour:
        return 4
    if same_colour:
        return 2
    if run:
        return 1
    return 0


# --------------------------------------------------------------------------- the world


class World:
    """Both hands, both decks and the open stones; just enough to play a game out.
    Player 0 is the AI, 1 the opponent."""

    __slots__ = (
        "clan",
        "done",
        "final_owners",
        "fog",
        "hands",
        "leader",
        "masks",
        "need",
        "owner",
        "ruleset",
        "sides",
        "step",
        "tac",
        "tac_rate",
        "tp",
        "triples",
        "winner",
    )

    ruleset: Ruleset
    triples: dict[int, int]  # the ruleset's key of every 3-clan-card side, by id mask
    sides: list[list[list[Card]]]  # [player][stone]
    masks: list[list[int]]
    owner: list[int | None]
    need: list[int]
    fog: list[bool]
    done: list[list[int]]  # when each side became complete (ties go to the earlier)
    hands: list[list[Card]]
    clan: list[Card]  # last = top
    tac: list[Card]
    tp: list[int]  # tactic cards played
    tac_rate: list[float]  # chance a playout draw takes a tactic card (holding none)
    leader: list[bool]
    step: int
    final_owners: list[int | None]  # set by score()
    winner: int | None  # the race is over: three adjacent stones or five

    def copy(self) -> World:
        w = object.__new__(World)
        w.ruleset = self.ruleset
        w.triples = self.triples
        w.sides = [[list(s) for s in self.sides[0]], [list(s) for s in self.sides[1]]]
        w.masks = [list(self.masks[0]), list(self.masks[1])]
        w.owner = list(self.owner)
        w.need = list(self.need)
        w.fog = list(self.fog)
        w.done = [list(self.done[0]), list(self.done[1])]
        w.hands = [list(self.hands[0]), list(self.hands[1])]
        w.clan = list(self.clan)
        w.tac = list(self.tac)
        w.tp = list(self.tp)
        w.tac_rate = self.tac_rate
        w.leader = list(self.leader)
        w.step = self.step
        w.winner = self.winner
        return w

    # ---- small edits

    def put(self, p: int, s: int, card: Card) -> None:
        side = self.sides[p][s]
        side.append(card)
        self.masks[p][s] |= 1 << card.id
        if len(side) >= self.need[s]:
            if not self.done[p][s]:
                self.done[p][s] = self.step
            if self.owner[s] is None and len(self.sides[p ^ 1][s]) >= self.need[s]:
                self._settle(s)
        self.step += 1

    def _settle(self, s: int) -> None:
        """Both sides complete: the stone is decided now, and maybe the game (the race
        for three adjacent stones or five)."""
        ka, kb = self._key(0, s), self._key(1, s)
        tie_to_0 = self.done[0][s] <= self.done[1][s]
        self._decide(s, (0 if ka > kb else 1) if ka != kb else (0 if tie_to_0 else 1))

    def _key(self, p: int, s: int) -> int:
        """Strength key of p's complete side at s."""
        if self.need[s] == 3 and not self.fog[s]:  # three clan cards: one lookup by id mask
            key = self.triples.get(self.masks[p][s])
            if key is not None:
                return key
        return side_key(self.sides[p][s], self.need[s], self.fog[s], self.ruleset)

    def _decide(self, s: int, q: int) -> None:
        owner = self.owner
        owner[s] = q
        if self.winner is None:
            if owner.count(q) >= 5:
                self.winner = q
            else:
                for a in range(max(0, s - 2), min(s, STONES - 3) + 1):
                    if owner[a] == q and owner[a + 1] == q and owner[a + 2] == q:
                        self.winner = q
                        break

    def take(self, p: int, s: int, card: Card) -> None:
        side = self.sides[p][s]
        side.remove(card)
        self.masks[p][s] &= ~(1 << card.id)
        if len(side) < self.need[s]:
            self.done[p][s] = 0

    def draw(self, p: int, rng: random.Random) -> None:
        hand = self.hands[p]
        if self.tac and (
            not self.clan
            or (
                not any(c.is_tactic for c in hand)
                and rng.random() < self.tac_rate[p]
                and self.tp[p] <= self.tp[p ^ 1]  # the tactic limit: not while ahead
            )
        ):
            hand.append(self.tac.pop())
        elif self.clan:
            hand.append(self.clan.pop())

    def fit(self, p: int, s: int, card: Card) -> float:
        """:func:`_fit` of a card at p's side of stone s, through the memo."""
        key = self.masks[p][s] << 1 | (self.need[s] == 4)
        row = _FIT.get(key)
        if row is None:
            row = _FIT[key] = [None] * N_IDS
        f = row[card.id]
        if f is None:
            f = row[card.id] = _fit(card, self.sides[p][s], self.need[s])
        return f

    def room(self, p: int) -> list[int]:
        sides, owner, need = self.sides[p], self.owner, self.need
        return [s for s in range(STONES) if owner[s] is None and len(sides[s]) < need[s]]

    # ---- moves of the engine, applied to the world (the root move)

    def apply_root(self, move: Move, rng: random.Random, phase: str) -> None:
        """Apply the AI's root move; then the AI's draw if the move was a play."""
        hand = self.hands[0]
        if isinstance(move, Draw):
            if move.deck == "tactic" and self.tac:
                hand.append(self.tac.pop())
            elif move.deck == "clan" and self.clan:
                hand.append(self.clan.pop())
            return
        if isinstance(move, Pass):
            return
        if isinstance(move, Scout):
            hand.remove(SCOUT)
            self.tp[0] += 1
            self._scout(0)
            return
        if isinstance(move, PlayCard):
            card = move.card
            hand.remove(card)
            s = move.stone - 1
            if isinstance(card, TacticCard):
                self.tp[0] += 1
                if card is LEADER:
                    self.leader[0] = True
                if card is FOG:
                    self.fog[s] = True
                elif card is MUD:
                    self._mud(s)
                else:
                    self.put(0, s, card)
            else:
                self.put(0, s, card)
        elif isinstance(move, Redeploy):
            hand.remove(tactic_card(Tactic.REDEPLOY))
            self.tp[0] += 1
            s = move.from_stone - 1
            t = None if move.to_stone is None else move.to_stone - 1
            if move.card is FOG:
                self.fog[s] = False
                if t is not None:
                    self.fog[t] = True
            elif move.card is MUD:
                self.need[s] = 3
                if t is not None:
                    self._mud(t)
            else:
                self.take(0, s, move.card)
                if t is not None:
                    self.put(0, t, move.card)
        elif isinstance(move, Deserter):
            hand.remove(tactic_card(Tactic.DESERTER))
            self.tp[0] += 1
            s = move.stone - 1
            if move.card is FOG:
                self.fog[s] = False
            elif move.card is MUD:
                self.need[s] = 3
            else:
                self.take(1, s, move.card)
        elif isinstance(move, Traitor):
            hand.remove(tactic_card(Tactic.TRAITOR))
            self.tp[0] += 1
            self.take(1, move.from_stone - 1, move.card)
            self.put(0, move.to_stone - 1, move.card)
        if phase == "play":
            self.draw(0, rng)

    def _mud(self, s: int) -> None:
        self.need[s] = 4
        for p in (0, 1):
            if len(self.sides[p][s]) < 4:
                self.done[p][s] = 0

    def _scout(self, p: int) -> None:
        """Scout in a playout: draw three, put back the two weakest (on the clan deck)."""
        hand = self.hands[p]
        for _ in range(3):
            if self.clan:
                hand.append(self.clan.pop())
            elif self.tac:
                hand.append(self.tac.pop())
        for _ in range(2):
            if len(hand) <= 0:
                break
            worst = min(hand, key=_card_value)
            hand.remove(worst)
            (self.tac if worst.is_tactic else self.clan).append(worst)

    # ---- the playout

    @overload
    def rollout(self, player: int, rng: random.Random, plies: None = None) -> float: ...
    @overload
    def rollout(self, player: int, rng: random.Random, plies: int | None) -> float | None: ...

    def rollout(self, player: int, rng: random.Random, plies: int | None = None) -> float | None:
        """Play to the end with ``player`` to move; the AI's (player 0's) score in [0, 1].
        With ``plies``: stop after that many turns and return None if the game goes on."""
        passes = 0
        turns = 0
        memo = _FIT
        owner, need, all_sides, masks = self.owner, self.need, self.sides, self.masks
        tactics = bool(self.tac) or any(c.is_tactic for h in self.hands for c in h)
        rand = rng.random
        while passes < 2 and self.winner is None:
            if turns == plies:
                return None
            turns += 1
            hand = self.hands[player]
            mine = all_sides[player]
            open_ = [s for s in _STONES if owner[s] is None and len(mine[s]) < need[s]]
            if tactics:
                if (
                    hand
                    and self.tp[player] <= self.tp[player ^ 1]
                    and rand() < TACTIC_TRY
                    and any(c.is_tactic for c in hand)
                    and self._tactic(player, rng, forced=False)
                ):
                    passes = 0
                    self.draw(player, rng)
                    player ^= 1
                    continue
                clan = [i for i, c in enumerate(hand) if not c.is_tactic]
                if not clan or not open_:
                    if (
                        open_
                        and hand
                        and self.tp[player] <= self.tp[player ^ 1]
                        and self._tactic(player, rng, forced=True)
                    ):
                        passes = 0
                        self.draw(player, rng)
                    else:
                        passes += 1
                    player ^= 1
                    continue
                n = len(clan)
            else:
                n = len(hand)
                if not n or not open_:
                    passes += 1
                    player ^= 1
                    continue
                clan = None
            passes = 0
            mask = masks[player]
            if n > 2:  # two random cards, each to its best stone: cheap and not blind
                i = int(rand() * n)
                j = int(rand() * (n - 1))
                picks: list[int] | tuple[int, ...] | range = (i, j + 1 if j >= i else j)
            else:
                picks = range(n)
            if clan is not None:
                picks = [clan[k] for k in picks]
            ids = [hand[i].id for i in picks]
            best = -1.0
            best_i = best_s = 0
            for s in open_:
                # One memo row per (side, Mud): the fit of every card id there.
                key = mask[s] << 1 | (need[s] == 4)
                row = memo.get(key)
                if row is None:
                    row = memo[key] = [None] * N_IDS
                for k, cid in enumerate(ids):
                    f = row[cid]
                    if f is None:
                        f = row[cid] = _fit(CARDS_BY_ID[cid], mine[s], need[s])
                    if f > best:
                        best, best_i, best_s = f, picks[k], s
            if rand() < NOISE:  # a little noise keeps the playouts varied
                best_s = open_[int(rand() * len(open_))]
            card = hand.pop(best_i)
            self.put(player, best_s, card)
            if tactics:
                self.draw(player, rng)
            elif self.clan:
                hand.append(self.clan.pop())
            player ^= 1
        return self.score()

    def _tactic(self, p: int, rng: random.Random, *, forced: bool) -> bool:
        """Play one of p's tactic cards by the playout rules; False if none applies."""
        hand = self.hands[p]
        o = p ^ 1
        for card in dict.fromkeys(c for c in hand if isinstance(c, TacticCard)):
            t = card.tactic
            done = False
            if t.kind is TacticKind.MORALE:
                if t is Tactic.LEADER and self.leader[p]:
                    continue
                done = self._joker(p, card, forced)
            elif t is Tactic.TRAITOR:
                done = self._traitor(p, o)
            elif t is Tactic.DESERTER:
                done = self._deserter(o)
            elif t is Tactic.FOG:
                done = self._fog_at(o)
            elif t is Tactic.MUD:
                done = self._mud_at(p, o)
            elif t is Tactic.REDEPLOY:
                done = self._redeploy(p, o)
            elif t is Tactic.SCOUT:
                done = forced or rng.random() < 0.3
                if done:
                    hand.remove(card)
                    self.tp[p] += 1
                    self._scout(p)
                    return True
            if done:
                hand.remove(card)
                self.tp[p] += 1
                if t is Tactic.LEADER:
                    self.leader[p] = True
                return True
        return False

    def _joker(self, p: int, card: Card, forced: bool) -> bool:
        best, best_s = -1.0, -1
        for s in self.room(p):
            f = self.fit(p, s, card)
            if f > best:
                best, best_s = f, s
        if best_s < 0 or (best < 6 and not forced):
            return False
        self.put(p, best_s, card)
        return True

    def _strongest_open(self, o: int) -> int:
        """The open stone where ``o``'s side is fullest and strongest, or -1."""
        best, best_s = -1.0, -1
        for s in range(STONES):
            side = self.sides[o][s]
            if self.owner[s] is not None or len(side) < 2:
                continue
            clan = [c for c in side if isinstance(c, ClanCard)]
            value = len(side) * 10 + (_shape(clan, self.need[s]) if clan else 4) * 3
            if value > best:
                best, best_s = value, s
        return best_s

    def _traitor(self, p: int, o: int) -> bool:
        s = self._strongest_open(o)
        if s < 0:
            return False
        clan = [c for c in self.sides[o][s] if isinstance(c, ClanCard)]
        room = self.room(p)
        if not clan or not room:
            return False
        best, card, to = -1.0, clan[0], room[0]
        for c in clan:
            for t in room:
                f = self.fit(p, t, c)
                if f > best:
                    best, card, to = f, c, t
        if best < 3:
            return False
        self.take(o, s, card)
        self.put(p, to, card)
        return True

    def _deserter(self, o: int) -> bool:
        s = self._strongest_open(o)
        if s < 0 or len(self.sides[o][s]) < self.need[s]:
            return False
        side = self.sides[o][s]
        card = max(side, key=_card_value)
        self.take(o, s, card)
        return True

    def _fog_at(self, o: int) -> bool:
        s = self._strongest_open(o)
        if s < 0 or self.fog[s]:
            return False
        clan = [c for c in self.sides[o][s] if isinstance(c, ClanCard)]
        if not clan or _shape(clan, self.need[s]) < 2:
            return False
        self.fog[s] = True
        return True

    def _mud_at(self, p: int, o: int) -> bool:
        for s in range(STONES):
            if (
                self.owner[s] is None
                and self.need[s] == 3
                and len(self.sides[o][s]) >= 3
                and len(self.sides[p][s]) < 3
            ):
                self._mud(s)
                return True
        return False

    def _redeploy(self, p: int, o: int) -> bool:
        """Move a card away from a stone where the opponent is complete and I am not."""
        room = self.room(p)
        for s in range(STONES):
            mine = self.sides[p][s]
            if self.owner[s] is None and mine and len(self.sides[o][s]) >= self.need[s] > len(mine):
                card = mine[-1]
                targets = [t for t in room if t != s]
                if not targets:
                    return False
                to = max(targets, key=lambda t: self.fit(p, t, card))
                self.take(p, s, card)
                self.put(p, to, card)
                return True
        return False

    def owners_at_end(self) -> list[int | None]:
        owners = list(self.owner)
        sides, need, done = self.sides, self.need, self.done
        for s, o in enumerate(owners):
            if o is not None:
                continue
            a, b, n = sides[0][s], sides[1][s], need[s]
            fa, fb = len(a) >= n, len(b) >= n
            if fa and fb:
                ka, kb = self._key(0, s), self._key(1, s)
                if ka != kb:
                    owners[s] = 0 if ka > kb else 1
                else:
                    owners[s] = 0 if done[0][s] <= done[1][s] else 1
            elif fa or fb:
                owners[s] = 0 if fa else 1
        return owners

    def score(self) -> float:
        owners = self.final_owners = self.owners_at_end()
        adjacent = [False, False]
        streak = [0, 0]
        for o in owners:
            for p in (0, 1):
                streak[p] = streak[p] + 1 if o == p else 0
                if streak[p] >= 3:
                    adjacent[p] = True
        c0, c1 = owners.count(0), owners.count(1)
        if self.winner is not None:
            won = 1.0 - self.winner
        elif adjacent[0] != adjacent[1]:
            won = 1.0 if adjacent[0] else 0.0
        else:
            won = 1.0 if c0 > c1 else 0.0 if c1 > c0 else 0.5
        return (1 - MARGIN) * won + MARGIN * (c0 - c1 + 9) / 18
