"""The features of a position from one player's side, for the learned evaluation.

Built on the probability model (:mod:`rules.ai.model`): the chance to win the game, the
stones' mean, the per-stone chances sorted (the strongest first), plus what the model
does not see: the tactic cards the viewer holds by kind, the number the opponent holds
(public: tactic cards have another back), the tactic cards each side has played, the
leaders on the table, Fog and Mud on open stones, both decks' sizes and whose turn it is.

Everything comes from a :class:`~rules.ai.situation.Situation` (built from a
:class:`~rules.view.PlayerView` only), so nothing here can see the opponent's hand or a
deck's order. The search's leaves build the same Situation from a sampled world, where
"the viewer's hand" is the AI's hand in that world.
"""

from __future__ import annotations

import math

from rules.ai.model import Model, game_chance
from rules.ai.situation import Situation, from_view
from rules.cards import Tactic, TacticCard
from rules.view import PlayerView

__all__ = ["MEAN", "NAMES", "features", "situation_features"]

_HELD = (
    ("held_leader", (Tactic.LEADER,)),
    ("held_joker", (Tactic.REINFORCEMENT, Tactic.SHIELD_BEARER)),
    ("held_fog", (Tactic.FOG,)),
    ("held_mud", (Tactic.MUD,)),
    ("held_scout", (Tactic.SCOUT,)),
    ("held_redeploy", (Tactic.REDEPLOY,)),
    ("held_deserter", (Tactic.DESERTER,)),
    ("held_traitor", (Tactic.TRAITOR,)),
)
_KIND = {t: i for i, (_, ts) in enumerate(_HELD) for t in ts}

#: The feature names, in the order of :func:`features`' vector.
NAMES: tuple[str, ...] = (
    "game_logit",  # logit of the model's chance to win the game (clipped)
    "game",  # the model's chance to win the game
    "stones_mean",  # the mean of the nine stones' chances
    *(f"stone_sorted_{i}" for i in range(1, 10)),  # the stones' chances, strongest first
    "won_mine",  # stones owned by the viewer / 9
    "won_theirs",
    "tactics",  # the tactics variant
    "battle_line",
    *(name for name, _ in _HELD),  # tactic cards in the viewer's hand by kind
    "held_tactics_theirs",  # the opponent's tactic cards in hand (a count: public)
    "played_mine",  # tactic cards played by each side
    "played_theirs",
    "can_play_tactic",  # the tactic limit: not more than one ahead of the opponent
    "leader_mine",  # a leader on the viewer's side of a stone
    "leader_theirs",
    "fog_open",  # Fog on open stones
    "mud_open",  # Mud on open stones
    "clan_deck",  # the clan deck's size / its full size
    "tactic_deck",  # the tactic deck's size / 10
    "my_turn",
    "held_tactics_x_deck",  # tactic cards held, more use with more game to come
    "held_tactics_x_close",  # tactic cards held where the game is close
)

#: Where the stones' mean chance is in the vector (the search's leaves reuse it).
MEAN = NAMES.index("stones_mean")
_CLIP = 1e-3


def _logit(p: float) -> float:
    p = min(1.0 - _CLIP, max(_CLIP, p))
    return math.log(p / (1.0 - p))


def situation_features(sit: Situation, *, my_turn: bool, model: Model | None = None) -> list[float]:
    """The feature vector (in :data:`NAMES`' order) of ``sit`` for its viewer. ``model``:
    a model of the same pool to reuse (its distributions are cached; one decision's
    moves share one)."""
    ps = (Model(sit) if model is None else model).stones(sit.stones, sit.hand)
    g = game_chance(ps)
    ranked = sorted(ps, reverse=True)
    held = [0.0] * len(_HELD)
    n_held = 0
    for c in sit.hand:
        if isinstance(c, TacticCard):
            held[_KIND[c.tactic]] += 1.0
            n_held += 1
    leader = [0.0, 0.0]
    fog = mud = 0
    won = [0, 0]
    for st in sit.stones:
        if st.owner is not None:
            won[st.owner] += 1
        else:
            fog += st.fog
            mud += st.mud
        for who, side in ((0, st.mine), (1, st.theirs)):
            for c in side:
                if isinstance(c, TacticCard) and c.tactic is Tactic.LEADER:
                    leader[who] = 1.0
    tp_mine, tp_theirs = sit.tactics_played
    deck = sit.clan_deck / max(1, len(sit.ruleset.clan_deck()))
    close = 1.0 - abs(2.0 * g - 1.0)
    return [
        _logit(g),
        g,
        sum(ps) / len(ps),
        *ranked,
        won[0] / 9.0,
        won[1] / 9.0,
        float(sit.tactics),
        float(sit.ruleset.name == "battle-line"),
        *held,
        float(sit.opp_hand_tactics),
        float(tp_mine),
        float(tp_theirs),
        float(tp_mine <= tp_theirs),
        leader[0],
        leader[1],
        float(fog),
        float(mud),
        deck,
        sit.tactic_deck / 10.0,
        float(my_turn),
        n_held * deck,
        n_held * close,
    ]


def features(view: PlayerView) -> list[float]:
    """The feature vector of ``view`` from its player's side."""
    return situation_features(from_view(view), my_turn=view.current_player == view.player)
