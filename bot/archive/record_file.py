"""Game records: a finished game as a text file, and back.

The format (``schotten-record``, version 1) is documented in ``docs/game-records.md``:
a header of ``Key: value`` lines (the format and its version first), a blank line, then
every entry of the game's move log, one per line, as ``<player> <move>`` in the log
notation (``0 play R7 3``). ``#`` starts a comment line.

Pure code, no I/O: the bot (``/schotten export``) and the terminal
(``python -m bot.cli.terminal --replay FILE``) share it. :func:`parse_record` rebuilds the
game with :meth:`rules.game.Game.replay` and refuses a file whose moves do not end in
the result its header states.

A record holds the seed, so it tells every card of both hands at every step: only a
finished game is ever exported.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import UTC, datetime

from rules.errors import RulesError
from rules.game import REASONS, ClaimTimingName, Game, GameOptions, Result, parse_log_move, parse_reason
from rules.rulesets import RULESETS

FORMAT = "schotten-record"
VERSION = 1

_KEY = re.compile(r"^([A-Za-z][A-Za-z0-9-]*):[ \t]*(.*)$")
_MOVE = re.compile(r"^([01])\s+(\S.*)$")
_RESULT = re.compile(r"^(0|1|draw)\s+([a-z_]+)\s+(\d)-(\d)$")
_PLAYER = re.compile(r"^(\d+|-)(?:\s+(.*))?$")


class RecordError(ValueError):
    """A record file that cannot be read, or whose moves do not give its result.
    The message says where (a line number) and what."""


@dataclass(frozen=True)
class RecordPlayer:
    user_id: int | None  # the Discord user id; None when unknown
    name: str


class Replayable:
    """A finished game's log and how to rebuild it: the one implementation of replay
    steps, shared by a stored game (``FinishedGame``) and a record file (``RecordFile``)."""

    options: GameOptions
    seed: int
    first_player: int
    moves: tuple[tuple[int, str], ...]  # the log: (engine player, move notation)

    @property
    def steps(self) -> int:
        """How many log entries (steps of a replay) the game has."""
        return len(self.moves)

    def replay(self, steps: int | None = None) -> Game:
        """The game after its first ``steps`` log entries (all of them by default)."""
        entries = list(self.moves if steps is None else self.moves[: max(0, steps)])
        return Game.replay(self.seed, self.options, entries, first_player=self.first_player)


@dataclass(frozen=True)
class RecordFile(Replayable):
    """One finished game: everything needed to rebuild it, and who played it."""

    options: GameOptions
    seed: int
    players: tuple[RecordPlayer, RecordPlayer]  # engine players 0 and 1
    first_player: int
    result: Result
    moves: tuple[tuple[int, str], ...]  # the log: (engine player, move notation)
    game_id: int | None = None
    started_at: float | None = None  # Unix seconds
    finished_at: float | None = None
    version: int = VERSION


def _one_line(text: str) -> str:
    """A header value on one line: no line breaks or other control characters."""
    return " ".join("".join(c if c.isprintable() else " " for c in text).split())


def _time(value: float | None) -> str | None:
    if value is None:
        return None
    return datetime.fromtimestamp(value, tz=UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def _result_text(result: Result) -> str:
    winner = "draw" if result.winner is None else str(result.winner)
    return f"{winner} {result.reason} {result.stones[0]}-{result.stones[1]}"


def export_game(record: RecordFile) -> str:
    """The record as the text of a ``schotten-record`` file (ends with a newline)."""
    options = record.options
    lines = [
        f"Format: {FORMAT} {VERSION}",
    ]
    if record.game_id is not None:
        lines.append(f"Game: {record.game_id}")
    lines += [
        f"Ruleset: {options.ruleset}",
        f"Tactics: {'yes' if options.tactics else 'no'}",
        f"Claims: {options.claim_timing}",
        f"Seed: {record.seed}",
    ]
    for number, player in enumerate(record.players):
        user_id = "-" if player.user_id is None else str(player.user_id)
        name = _one_line(player.name)
        lines.append(f"Player{number}: {user_id} {name}".rstrip())
    lines += [f"First: {record.first_player}", f"Result: {_result_text(record.result)}"]
    for key, value in (("Started", record.started_at), ("Finished", record.finished_at)):
        when = _time(value)
        if when is not None:
            lines.append(f"{key}: {when}")
    lines.append("")
    lines += [f"{player} {move}" for player, move in record.moves]
    return "\n".join(lines) + "\n"


# ---------------------------------------------------------------------- parsing

_REQUIRED = ("ruleset", "tactics", "claims", "seed", "player0", "player1", "first", "result")


def _format_line(line: str) -> None:
    match = _KEY.match(line)
    if match is None or match[1].lower() != "format":
        raise RecordError(f"line 1: a record starts with 'Format: {FORMAT} {VERSION}'")
    parts = match[2].split()
    if len(parts) != 2 or parts[0] != FORMAT:
        raise RecordError(f"line 1: not a {FORMAT} file ({match[2]!r})")
    if not parts[1].isdigit():
        raise RecordError(f"line 1: the format version must be a number, not {parts[1]!r}")
    if int(parts[1]) != VERSION:
        raise RecordError(
            f"line 1: {FORMAT} version {parts[1]} is not supported (this program reads version {VERSION})"
        )


def _header(lines: list[str]) -> tuple[dict[str, tuple[int, str]], int]:
    """The header's values by lower-case key (with their line numbers), and the index
    of the first line after it."""
    values: dict[str, tuple[int, str]] = {}
    index = 1
    while index < len(lines):
        line = lines[index].strip()
        number = index + 1
        index += 1
        if not line:
            break
        if line.startswith("#"):
            continue
        match = _KEY.match(line)
        if match is None:
            raise RecordError(f"line {number}: expected 'Key: value' in the header, got {line[:60]!r}")
        key = match[1].lower()
        if key in values:
            raise RecordError(f"line {number}: {match[1]} is given twice")
        values[key] = (number, match[2].strip())
    missing = [key for key in _REQUIRED if key not in values]
    if missing:
        raise RecordError(f"the header lacks {', '.join(missing)}")
    return values, index


def _int(values: dict[str, tuple[int, str]], key: str, choices: tuple[int, ...] | None = None) -> int:
    number, text = values[key]
    try:
        value = int(text)
    except ValueError:
        raise RecordError(f"line {number}: {key} must be a whole number, not {text[:40]!r}") from None
    if choices is not None and value not in choices:
        raise RecordError(f"line {number}: {key} must be one of {', '.join(map(str, choices))}")
    return value


def _options(values: dict[str, tuple[int, str]]) -> GameOptions:
    number, ruleset = values["ruleset"]
    if ruleset not in RULESETS:
        raise RecordError(f"line {number}: unknown ruleset {ruleset[:40]!r}")
    number, tactics = values["tactics"]
    if tactics.lower() not in ("yes", "no"):
        raise RecordError(f"line {number}: Tactics is yes or no")
    number, claims = values["claims"]
    if claims == "anytime":
        timing: ClaimTimingName = "anytime"
    elif claims == "turn-start":
        timing = "turn-start"
    else:
        raise RecordError(f"line {number}: Claims is anytime or turn-start")
    return GameOptions(ruleset=ruleset, tactics=tactics.lower() == "yes", claim_timing=timing)


def _player(values: dict[str, tuple[int, str]], key: str) -> RecordPlayer:
    number, text = values[key]
    match = _PLAYER.match(text)
    if match is None:
        raise RecordError(f"line {number}: {key} is '<user id or -> <name>'")
    user_id = None if match[1] == "-" else int(match[1])
    # Printed as it is by the terminal: no control characters (escape sequences) pass.
    return RecordPlayer(user_id, _one_line(match[2] or "") or f"Player {int(key[-1]) + 1}")


def _result(values: dict[str, tuple[int, str]]) -> Result:
    number, text = values["result"]
    match = _RESULT.match(text)
    if match is None or match[2] not in REASONS:
        raise RecordError(f"line {number}: Result is '<0, 1 or draw> <reason> <stones>-<stones>'")
    winner = None if match[1] == "draw" else int(match[1])
    return Result(winner, parse_reason(match[2]), (int(match[3]), int(match[4])))


def _timestamp(values: dict[str, tuple[int, str]], key: str) -> float | None:
    if key not in values:
        return None
    number, text = values[key]
    try:
        when = datetime.fromisoformat(text.replace("Z", "+00:00"))
    except ValueError:
        raise RecordError(f"line {number}: {key} is a time like 2026-01-31T18:05:00Z") from None
    if when.tzinfo is None:
        when = when.replace(tzinfo=UTC)
    return when.timestamp()


def parse_record(text: str) -> RecordFile:
    """Read a ``schotten-record`` file and check it: every move must be legal where it
    stands, and the game must end with the header's result. Raises :class:`RecordError`."""
    lines = text.splitlines()
    while lines and not lines[0].strip():
        lines.pop(0)
    if not lines:
        raise RecordError("the file is empty")
    _format_line(lines[0].strip().lstrip("\ufeff"))
    values, body = _header(lines)
    options = _options(values)
    seed = _int(values, "seed")
    players = (_player(values, "player0"), _player(values, "player1"))
    first = _int(values, "first", (0, 1))
    result = _result(values)
    game_id = _int(values, "game") if "game" in values else None
    game = Game.new(seed, options, first_player=first)
    moves: list[tuple[int, str]] = []
    for index in range(body, len(lines)):
        line = lines[index].strip()
        number = index + 1
        if not line or line.startswith("#"):
            continue
        match = _MOVE.match(line)
        if match is None:
            raise RecordError(f"line {number}: expected '<player 0 or 1> <move>', got {line[:60]!r}")
        player = int(match[1])
        if game.is_over:
            raise RecordError(f"line {number}: the game was already over")
        try:
            move = parse_log_move(match[2], max_value=options.rules.max_value)
            game.apply(move, player)
        except RulesError as error:
            raise RecordError(f"line {number}: {match[2][:60]!r} is not possible here ({error})") from None
        moves.append((player, str(move)))
    if not game.is_over:
        raise RecordError("the moves end before the game does")
    if game.result != result:
        assert game.result is not None
        raise RecordError(
            f"the moves end in '{_result_text(game.result)}', not in the recorded '{_result_text(result)}'"
        )
    return RecordFile(
        options=options,
        seed=seed,
        players=players,
        first_player=first,
        result=result,
        moves=tuple(moves),
        game_id=game_id,
        started_at=_timestamp(values, "started"),
        finished_at=_timestamp(values, "finished"),
    )


__all__ = [
    "FORMAT",
    "VERSION",
    "RecordError",
    "RecordFile",
    "RecordPlayer",
    "export_game",
    "parse_record",
]
