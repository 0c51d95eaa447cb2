"""A learned evaluation: the chance to win from one player's side, fitted to self-play.

A logistic regression on :mod:`rules.ai.features` (the probability model's values plus
the tactic cards held and played, leaders, Fog and Mud, the decks and the turn), fitted
to the outcomes of self-play games by ``bench/train_ai.py`` (``make train-ai``). The
weights are a small JSON file in the package (``weights/learned.json``), read once, on
first use, with :mod:`importlib.resources`: the feature names (checked against
:data:`rules.ai.features.NAMES`), each feature's mean and scale, the weights, the
training seeds and the fit's held-out figures.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Any

from rules.ai.features import NAMES, features, situation_features
from rules.ai.model import Model
from rules.ai.situation import Situation
from rules.view import PlayerView

__all__ = ["WEIGHTS_FILE", "Weights", "load", "predict", "situation_value", "use", "value"]

WEIGHTS_FILE = "weights/learned.json"


@dataclass(frozen=True)
class Weights:
    """A fitted logistic regression over standardized features."""

    names: tuple[str, ...]
    mean: tuple[float, ...]
    scale: tuple[float, ...]
    coef: tuple[float, ...]
    intercept: float
    meta: dict[str, Any]

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Weights:
        names = tuple(data["features"])
        if names != NAMES:
            raise ValueError(f"weights are for features {names}, not {NAMES}: run make train-ai")
        mean, scale, coef = (tuple(float(x) for x in data[k]) for k in ("mean", "scale", "coef"))
        if not len(mean) == len(scale) == len(coef) == len(names):
            raise ValueError("weights: mean, scale and coef must have one value per feature")
        meta = {k: v for k, v in data.items() if k not in ("features", "mean", "scale", "coef", "intercept")}
        return cls(names, mean, scale, coef, float(data["intercept"]), meta)

    def to_json(self) -> dict[str, Any]:
        return {
            "features": list(self.names),
            "mean": list(self.mean),
            "scale": list(self.scale),
            "coef": list(self.coef),
            "intercept": self.intercept,
            **self.meta,
        }

    def logit(self, x: list[float]) -> float:
        z = self.intercept
        for xi, m, s, w in zip(x, self.mean, self.scale, self.coef, strict=True):
            z += w * (xi - m) / s
        return z


@cache
def _shipped() -> Weights:
    text = resources.files("rules.ai").joinpath(WEIGHTS_FILE).read_text(encoding="utf-8")
    return Weights.from_json(json.loads(text))


_in_use: list[Weights] = []  # other weights for this process (bench/ai.py --weights)


def load() -> Weights:
    """The weights in use: the shipped ones (read once), unless :func:`use` set others."""
    return _in_use[0] if _in_use else _shipped()


def use(weights: Weights | None) -> None:
    """Use ``weights`` in this process instead of the shipped ones (None: the shipped
    ones again), to measure a fit before it ships (``bench/ai.py --weights FILE``)."""
    _in_use[:] = [] if weights is None else [weights]


def predict(weights: Weights, x: list[float]) -> float:
    z = weights.logit(x)
    if z >= 0:
        return 1.0 / (1.0 + math.exp(-z))
    e = math.exp(z)
    return e / (1.0 + e)


def situation_value(sit: Situation, *, my_turn: bool, model: Model | None = None) -> float:
    """The learned chance that the viewer of ``sit`` wins, in [0, 1] (``model``: see
    :func:`rules.ai.features.situation_features`)."""
    return predict(load(), situation_features(sit, my_turn=my_turn, model=model))


def value(view: PlayerView) -> float:
    """The learned chance that the player of ``view`` wins the game, in [0, 1]; a game
    over is 1, 0 or 0.5 (a draw)."""
    if view.result is not None:
        winner = view.result.winner
        return 0.5 if winner is None else float(winner == view.player)
    return predict(load(), features(view))
