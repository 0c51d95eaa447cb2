"""Plain-text rendering of a board and a hand, 40 columns wide unless asked otherwise.

Pure functions of a :class:`rules.view.PlayerView`: no Discord, no I/O. The Discord
cogs wrap the board in a code block; the terminal game prints it as is.

    render_board(view, names=("Alice", "Bob"))   # the table, the viewer at the bottom
    render_hand(view)                            # "B2 G7 R7 Leader" (command notation)
    render_move(player, move, names)             # "Alice played R7 at 3"
    render_move(0, move, names, you=0)           # "You played R7 at 3" (second person)

A board never shows a hand: only the cards on the table, hand sizes and deck sizes, so
it is safe for a public channel whichever player's view it is drawn from.

Layout (9 stones, one 4-character column each)::

    Bob (6 cards)
      .   .  B3   .   .   .   .   .   .
      .  G5  B4   .   .   .   .   .   .
     ^1   2   3M v4   5   6   7   8   9
     R7   .   .  P9   .   .   .   .   .
    Alice (5 cards)
    ^ Bob  v Alice
    Deck: 38   Turn: Alice
    Last: Bob played B3 at 3

Cards nearest the stone row were played first. ``^``/``v`` before a stone number marks
its owner (the top or the bottom player); ``M``/``F`` after it marks Mud and Fog
(:func:`render_legend` explains the marks and abbreviations in the current language).

The Discord board is exactly 40 columns (``WIDTH``). The terminal passes its own
``width`` (its status lines then use the whole line) and ``whole_names``, so that
wrapping never cuts a name such as "AI (hard)" in two; the stone columns stay 36
characters wide at any width.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING

from bot.text import notation
from bot.text.catalogue import CATALOGUE, t
from bot.text.notation import card_text, short_card
from rules.cards import CARDS_BY_ID, Card, TacticCard, TacticKind, parse_card
from rules.errors import NotationError
from rules.game import LogMove, Result
from rules.moves import Claim, Deserter, Draw, Move, Pass, PlayCard, Redeploy, Scout, ScoutReturn, Traitor
from rules.rulesets import get_ruleset
from rules.view import PlayerView, StoneView

if TYPE_CHECKING:  # the AI is imported only where it runs
    from rules.ai import Hint

WIDTH = 40  # the Discord board's columns
CELL = 4  # one stone column: a card right-aligned in 3 characters and a space


def sort_hand(cards: Iterable[Card]) -> list[Card]:
    """Clan cards by colour then value, tactic cards last."""
    return sorted(cards, key=lambda c: (c.is_tactic, c.id))


def render_hand(view: PlayerView) -> str:
    """The viewer's own hand in command notation, sorted: ``"B2 G7 R7 Leader"``."""
    return " ".join(card_text(c) for c in sort_hand(view.hand))


def _fit(text: str, width: int = WIDTH) -> str:
    return text if len(text) <= width else text[: width - 1] + "…"


def _short_name(name: str, width: int = 16) -> str:
    return name if len(name) <= width else name[: width - 1] + "…"


# Hand lines keep 24 columns for " (6 cards) tactics: 2"; the legend 6 for "^ " and "  v ".
# At WIDTH that is 16 and 17 characters of a name, as the Discord board always had.
def _hand_name_width(width: int) -> int:
    return width - 24


def _legend_name_width(width: int) -> int:
    return (width - 6) // 2


def _move_parts(move: LogMove) -> tuple[str, dict[str, object]]:
    """A move's catalogue key (after ``move.`` or ``choice.move.``) and its parameters:
    the one place that takes a move apart into words."""
    if isinstance(move, PlayCard):
        return "play", {"card": card_text(move.card), "stone": move.stone}
    if isinstance(move, Claim):
        return "claim", {"stone": move.stone}
    if isinstance(move, Pass):
        return "pass", {}
    if isinstance(move, Draw):
        return f"draw.{move.deck or 'none'}", {}
    if isinstance(move, Scout):
        return "scout", {}
    if isinstance(move, ScoutReturn):
        # The narration's text never names them: which cards went back is private.
        return "return", {"first": card_text(move.cards[0]), "second": card_text(move.cards[1])}
    if isinstance(move, Redeploy):
        params: dict[str, object] = {"card": card_text(move.card), "from_stone": move.from_stone}
        if move.to_stone is None:
            return "redeploy_discard", params
        return "redeploy", {**params, "to_stone": move.to_stone}
    if isinstance(move, Deserter):
        return "deserter", {"card": card_text(move.card), "stone": move.stone}
    if isinstance(move, Traitor):
        return "traitor", {
            "card": card_text(move.card),
            "from_stone": move.from_stone,
            "to_stone": move.to_stone,
        }
    # An entry that ends the game (resign, forfeit, withdraw, kick): its word is its key.
    return str(move), {}


def render_move(player: int, move: LogMove | None, names: Sequence[str], *, you: int | None = None) -> str:
    """One public move as a sentence: ``"Alice played R7 at 3"``. A draw never says
    which card was drawn, a Scout's return never which cards went back (None: a move
    the viewer may not see).

    ``you``: the player addressed in the second person (the terminal's "You"): their
    moves have their own texts (``move.<kind>.you``: "Du hast R7 an 3 gespielt"), since
    a pronoun put into a third-person sentence is wrong in German and French."""
    key, params = ("return", {}) if move is None else _move_parts(move)
    if player == you:
        return t(f"move.{key}.you", **params)
    return t(f"move.{key}", name=names[player], **params)


def describe_move(move: Move) -> str:
    """A legal move as a choice for its player: ``"Play R7 at stone 3"``."""
    key, params = _move_parts(move)
    return t(f"choice.move.{key}", **params)


def last_turn(moves: Sequence[tuple[int, LogMove | None]]) -> tuple[int, list[LogMove | None]] | None:
    """The most recent player's moves of their latest turn, draws left out."""
    if not moves:
        return None
    player = moves[-1][0]
    turn: list[LogMove | None] = []
    for who, move in reversed(moves):
        if who != player:
            break
        if not isinstance(move, Draw):
            turn.append(move)
    turn.reverse()
    return player, turn


def render_last(
    moves: Sequence[tuple[int, LogMove | None]], names: Sequence[str], *, you: int | None = None
) -> str | None:
    """The latest turn in one line (``"Bob claimed stone 4, Bob played G3 at 2"``);
    ``you`` as in :func:`render_move`."""
    found = last_turn(moves)
    if found is None or not found[1]:
        return None
    player, turn = found
    return "; ".join(render_move(player, m, names, you=you) for m in turn)


def render_result(result: Result | None, names: Sequence[str], *, you: int | None = None) -> str:
    """The end of a game as a sentence. ``you``: the player addressed as "you" (whose
    name is "You", as in the terminal game), for "You win" rather than "You wins", and
    "You resigned; ..." rather than "Du hat aufgegeben; ..." (the results that name the
    loser, ``result.you_lose.*``: resigned, timeout, withdrawn, kicked)."""
    if result is None:
        return ""
    winner, stones = result.winner, result.stones
    if winner is None:
        return t("result.draw")
    if winner == you:
        kind = "you_win"
    elif 1 - winner == you and f"result.you_lose.{result.reason}" in CATALOGUE:
        kind = "you_lose"
    else:
        kind = "win"
    return t(
        f"result.{kind}.{result.reason}",
        winner=names[winner],
        loser=names[1 - winner],
        n0=stones[winner],
        n1=stones[1 - winner],
    )


# ---------------------------------------------------------------------- board


def _terrain(stone: StoneView) -> str:
    marks = ""
    if stone.mud is not None:
        marks += "M"
    if stone.fog is not None:
        marks += "F"
    return marks


def _card_rows(stones: Sequence[StoneView], player: int, *, top: bool) -> list[str]:
    columns = [list(s.sides[player]) for s in stones]
    height = max([1, *(len(c) for c in columns)])
    rows = []
    for depth in range(height):
        cells = []
        for cards in columns:
            cell = short_card(cards[depth]) if depth < len(cards) else "."
            cells.append(cell.rjust(CELL - 1) + " ")
        rows.append("".join(cells).rstrip())
    # The first card played lies next to the stone: above the stones that is the
    # lowest row, so the top player's rows are reversed.
    return rows[::-1] if top else rows


def _stone_row(stones: Sequence[StoneView], bottom: int) -> str:
    cells = []
    for number, stone in enumerate(stones, start=1):
        owner = stone.owner
        mark = " " if owner is None else ("v" if owner == bottom else "^")
        cells.append(f"{mark}{number}{_terrain(stone)}".ljust(CELL))
    return "".join(cells).rstrip()


def render_board(
    view: PlayerView,
    names: Sequence[str] = ("Player 1", "Player 2"),
    *,
    bottom: int | None = None,
    game_id: int | None = None,
    you: int | None = None,
    width: int = WIDTH,
    whole_names: bool = False,
) -> str:
    """The table as text lines (no code fence), at most ``width`` characters wide
    (at least 40: the stone columns take 36).

    ``names`` are the players' display names (player 0, player 1). ``bottom`` is the
    player drawn below the stones; by default the view's own player, so each player
    sees their opponent's cards above the stones. ``you``: the player addressed in the
    second person (see ``render_move``, ``render_result``). ``whole_names``: long lines
    wrap between names, never inside one (the terminal; Discord's board keeps the
    wrapping it always had). Only public information is drawn.
    """
    width = max(width, WIDTH)
    keep = tuple(names) if whole_names else None
    if bottom is None:
        bottom = view.player
    top = 1 - bottom
    stones = view.stones
    hand_sizes = _hand_sizes(view)
    lines: list[str] = []
    if game_id is not None:
        lines.append(_fit(t("board.title", game_id=game_id, ruleset=_ruleset_title(view)), width))
    lines.append(_hand_line(view, names, top, hand_sizes, width))
    lines.extend(_card_rows(stones, top, top=True))
    lines.append(_stone_row(stones, bottom))
    lines.extend(_card_rows(stones, bottom, top=False))
    lines.append(_hand_line(view, names, bottom, hand_sizes, width))
    name_width = _legend_name_width(width)
    legend = t(
        "board.legend", top=_short_name(names[top], name_width), bottom=_short_name(names[bottom], name_width)
    )
    lines.append(_fit(legend, width))
    if any(_terrain(s) for s in stones):
        lines.append(t("board.terrain"))
    if view.options.tactics:
        lines.extend(_tactic_lines(view, names, (top, bottom), you, width, keep))
    decks = view.deck_sizes
    if view.options.tactics:
        lines.append(_fit(t("board.decks", clan=decks[0], tactic=decks[1]), width))
    else:
        lines.append(_fit(t("board.deck", clan=decks[0]), width))
    last = render_last(view.last_moves, names, you=you)
    if last:
        lines.extend(_wrap(t("board.last", text=last), width, keep))  # a tactic turn can be long
    if view.result is not None:
        lines.extend(_wrap(t("board.over", result=render_result(view.result, names, you=you)), width, keep))
    elif view.current_player is not None:
        lines.append(_fit(t("board.turn", name=names[view.current_player]), width))
    return "\n".join(lines)


def _hand_line(
    view: PlayerView, names: Sequence[str], player: int, hand_sizes: tuple[int, int], width: int = WIDTH
) -> str:
    """``Bob (6 cards)``; with tactics also the tactic cards Bob has played."""
    name = _short_name(names[player], _hand_name_width(width))
    line = t("board.hand_size", name=name, cards=hand_sizes[player])
    if view.options.tactics:
        line += t("board.hand_tactics", n=view.tactics_played[player])
    return _fit(line, width)


def _tactic_lines(
    view: PlayerView,
    names: Sequence[str],
    order: tuple[int, int],
    you: int | None,
    width: int = WIDTH,
    keep: Sequence[str] | None = None,
) -> list[str]:
    """The ruses each side has played and the other cards lying face up in the discard.
    (Morale and terrain cards in play are drawn at their stones.)"""
    ruses: list[list[Card]] = [[], []]
    discarded: list[Card] = []
    for owner, card in view.discards:
        if isinstance(card, TacticCard) and card.kind is TacticKind.RUSE:
            ruses[owner].append(card)
        else:
            discarded.append(card)
    lines: list[str] = []
    for p in order:
        if ruses[p]:
            cards = " ".join(card_text(c) for c in ruses[p])
            if p == you:
                lines.extend(_wrap(t("board.your_ruses", cards=cards), width, keep))
            else:
                name = _short_name(names[p], _hand_name_width(width))
                lines.extend(_wrap(t("board.ruses", name=name, cards=cards), width, keep))
    if discarded:
        discards = t("board.discarded", cards=" ".join(card_text(c) for c in discarded))
        lines.extend(_wrap(discards, width, keep))
    return lines


# The tactic cards that lie in the stone columns, abbreviated (terrain shows as M/F marks).
_COLUMN_TACTICS = (TacticKind.MORALE,)


def _abbreviated(card: Card) -> bool:
    return isinstance(card, TacticCard) and card.kind in _COLUMN_TACTICS


def _abbreviations(cards: Iterable[Card]) -> str:
    """``"Ldr = Leader, Rnf = Reinforcement"``: each card once, in the deck's order."""
    unique = sorted({c.id: c for c in cards}.values(), key=lambda c: c.id)
    seen: dict[str, str] = {}
    for card in unique:
        seen.setdefault(short_card(card), card_text(card))
    return ", ".join(t("legend.abbreviation", short=short, name=name) for short, name in seen.items())


def render_abbreviations(view: PlayerView) -> str | None:
    """A line under the terminal's board naming the abbreviated cards on it
    (``"Anf = Anführer, Vst = Verstärkung"``), or None when there are none."""
    cards = [c for s in view.stones for side in s.sides for c in side if _abbreviated(c)]
    return t("legend.on_board", cards=_abbreviations(cards)) if cards else None


def render_legend() -> str:
    """What the board's marks and abbreviations mean, in the current language (the
    terminal's ``help``)."""
    colours = ", ".join(
        t("legend.abbreviation", short=notation.colour_letter(c), name=t(f"legend.colour.{c}"))
        for c in "ROYGBP"
    )
    morale = _abbreviations(c for c in CARDS_BY_ID if _abbreviated(c))
    return t(
        "legend.board",
        colours=colours,
        example=card_text(parse_card("R7")),
        morale=morale,
        tactics=t("board.hand_tactics", n=2).strip(),
    )


def _ruleset_title(view: PlayerView) -> str:
    return get_ruleset(view.options.ruleset).title


def _hand_sizes(view: PlayerView) -> tuple[int, int]:
    sizes = [0, 0]
    sizes[view.player] = len(view.hand)
    sizes[1 - view.player] = view.opponent_hand_size
    return sizes[0], sizes[1]


def _wrap(text: str, width: int = WIDTH, keep: Sequence[str] | None = None) -> list[str]:
    """Greedy word wrap (the board's long lines: results).

    With ``keep`` (the terminal), lines break only at ordinary spaces: never inside one
    of the names in ``keep`` ("AI (hard)") nor at a no-break space (French "Tour\u00a0:").
    Without it, at any whitespace, as the Discord board always has."""
    glue = "\x00"  # stands for a space inside a kept name while the text is split
    for name in sorted({n for n in keep or () if " " in n}, key=len, reverse=True):
        text = text.replace(name, name.replace(" ", glue))
    words = text.split() if keep is None else [w for w in text.split(" ") if w]
    lines: list[str] = []
    current = ""
    for word in words:
        if current and len(current) + 1 + len(word) > width:
            lines.append(current)
            current = word
        else:
            current = f"{current} {word}" if current else word
    if current:
        lines.append(current)
    return [_fit(line.replace(glue, " "), width) for line in lines]


def wrap(text: str, width: int, names: Sequence[str] = ()) -> str:
    """``text`` wrapped at ``width`` columns, each of its lines on its own, never inside
    one of ``names`` (the terminal's narration and messages)."""
    return "\n".join("\n".join(_wrap(line, width, tuple(names)) or [""]) for line in text.splitlines())


def describe_hint(hint: Hint) -> str:
    """The AI's suggestion in one line: the move, the reason (by its code) and the
    chances, in the current language (the terminal's ``hint``, ``/schotten hint``)."""
    params = {k: _shown(v) if k == "card" else v for k, v in hint.params.items()}
    why = t(f"hint.reason.{hint.reason}", **params)
    chance = "" if hint.win_chance is None else t("hint.chance", chance=f"{hint.win_chance:.0%}")
    return t("hint.line", move=notation.move_text(hint.move), reason=why, chance=chance)


def _shown(card: object) -> object:
    """A card named in a hint (engine notation), as the reader sees cards."""
    try:
        return card_text(parse_card(str(card)))
    except NotationError:
        return card


def code_block(text: str) -> str:
    """Wrap rendered text in a Discord code block."""
    return f"```\n{text}\n```"
