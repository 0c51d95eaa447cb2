"""A finished game's replay, a turn at a time: the positions a viewer steps through and
what each shows (the board picture's URL, whose turn, both hands, the board in words).

A turn is one player's moves in a row (a card played and the card drawn, the claims
around it, a Scout's draws and return), so a viewer steps through turns, not draws.
A position is named by the number of moves applied (``?step=N``), as the replay's
links always were; a link to a position inside a turn still shows that position.
"""

from __future__ import annotations

import bisect
import itertools
from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass

from bot.archive.history import FinishedGame
from bot.text.catalogue import t
from bot.text.notation import card_text
from bot.text.render import render_move, render_result
from bot.web.describe import describe_board
from rules.game import Game
from rules.moves import LogMove, parse_log_move

CACHED = 32  # replays (game and language) whose positions are kept


def turn_ends(players: Sequence[int]) -> list[int]:
    """The positions between turns, as moves applied: 0, the end of each turn (a run of
    one player's moves), the end of the game. ``players``: who made each move."""
    ends = [0]
    for index, player in enumerate(players):
        if index + 1 == len(players) or players[index + 1] != player:
            ends.append(index + 1)
    return ends


def turns_of(
    moves: Sequence[tuple[int, LogMove | None]], names: Sequence[str]
) -> tuple[list[int], list[str]]:
    """``moves`` (a public view's ``last_moves``) a turn at a time: the positions between
    turns (:func:`turn_ends`) and each turn's moves as text. The replay's turns, and the
    watch page's list of a game still being played."""
    ends = turn_ends([player for player, _ in moves])
    texts = [render_move(player, move, names) for player, move in moves]
    return ends, ["; ".join(texts[start:end]) for start, end in itertools.pairwise(ends)]


def turn_of(ends: Sequence[int], step: int) -> int:
    """The turn a position is in: how many turns are complete at ``step`` moves."""
    return bisect.bisect_right(ends, step) - 1


def neighbours(ends: Sequence[int], step: int) -> tuple[int, int]:
    """The positions a turn back and a turn forward from ``step``."""
    back = ends[max(0, bisect.bisect_left(ends, step) - 1)]
    forward = ends[min(len(ends) - 1, bisect.bisect_right(ends, step))]
    return back, forward


@dataclass(frozen=True)
class Position:
    """What the replay shows after ``step`` moves."""

    step: int
    turn: int
    label: str  # "Step 3 of 40"
    status: str
    hands: tuple[str, str]  # "Alice's hand: R1 R2"
    description: list[str]

    def json(self, base: str) -> dict[str, object]:
        return {
            "step": self.step,
            "label": self.label,
            "board": f"{base}/board/{self.step}.png",
            "status": self.status,
            "hands": list(self.hands),
            "description": self.description,
        }


@dataclass(frozen=True)
class Replay:
    """A finished game's turns: the moves of each as text, and every turn's end position."""

    ends: list[int]
    turns: list[str]  # turn k (1-based) is turns[k - 1]
    positions: list[Position]  # positions[k]: after turn k

    def position(self, finished: FinishedGame, names: tuple[str, str], step: int) -> Position:
        """The position after ``step`` moves (a turn's end, or inside a turn)."""
        turn = turn_of(self.ends, step)
        if self.ends[turn] == step:
            return self.positions[turn]
        game = Game.replay(
            finished.seed, finished.options, list(finished.moves[:step]), first_player=finished.first_player
        )
        return _position(game, names, step, turn, len(self.ends) - 1, status=_to_play(game, names))


def _to_play(game: Game, names: Sequence[str]) -> str:
    player = game.public_view().current_player
    return t("web.to_play", name=names[player]) if player is not None else ""


def _position(
    game: Game, names: tuple[str, str], step: int, turn: int, turns: int, *, status: str
) -> Position:
    hands = tuple(
        f"{t('web.hand', name=names[seat])}: "
        + (" ".join(card_text(card) for card in game.view(seat).hand) or t("web.empty_hand"))
        for seat in (0, 1)
    )
    return Position(
        step=step,
        turn=turn,
        label=t("web.step", step=turn, steps=turns),
        status=status,
        hands=(hands[0], hands[1]),
        description=describe_board(game.public_view(), names, status),
    )


# By the game's moves too, not only its id: two databases (tests, a restored backup) may
# hold different games under one id.
_replays: OrderedDict[tuple[int, int, tuple[tuple[int, str], ...], str, tuple[str, str]], Replay] = (
    OrderedDict()
)


def replay_of(finished: FinishedGame, names: tuple[str, str], language: str) -> Replay:
    """The game's turns and positions in the current language (``language``, the cache's
    key), built once by applying the moves in order."""
    key = (finished.id, finished.seed, finished.moves, language, names)
    cached = _replays.get(key)
    if cached is not None:
        _replays.move_to_end(key)
        return cached
    full = Game.replay(
        finished.seed, finished.options, list(finished.moves), first_player=finished.first_player
    )
    ends, turns = turns_of(full.public_view().last_moves, names)
    game = Game.replay(finished.seed, finished.options, [], first_player=finished.first_player)
    positions = []
    for turn, end in enumerate(ends):
        for player, move in finished.moves[len(game.log) : end]:
            game.apply(parse_log_move(move), player)
        last = end == len(finished.moves)
        status = render_result(finished.engine_result, names) if last else _to_play(game, names)
        positions.append(_position(game, names, end, turn, len(ends) - 1, status=status))
    replay = Replay(ends=ends, turns=turns, positions=positions)
    _replays[key] = replay
    while len(_replays) > CACHED:
        _replays.popitem(last=False)
    return replay
