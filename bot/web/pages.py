"""The HTML of the pages: plain strings, every value from outside written through
``html.escape`` (names are what members call themselves: ``<script>`` is a name too).

No script or style inside a page: the Content Security Policy allows only the site's
own files (``/static/``). A page's data for its script is a JSON block
(:func:`script_json`) that the script writes with ``textContent``, never as HTML.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from html import escape
from typing import Any

from bot.text import i18n
from bot.text.catalogue import t
from bot.web.replay_steps import Position


def e(value: object) -> str:
    return escape(str(value), quote=True)


@dataclass(frozen=True)
class OpenGraph:
    title: str
    description: str
    image: str  # absolute URL of the board picture
    url: str


def document(
    title: str,
    body: str,
    *,
    page: str,
    og: OpenGraph | None = None,
    data: str = "",
    script: str = "/static/app.js",
    style: str = "/static/style.css",
) -> str:
    """A whole page; ``data``: attributes of ``<body>`` already escaped (``attrs``);
    ``script`` and ``style``: its one script and style sheet (the watch page's are the
    table's)."""
    meta = ""
    if og is not None:
        meta = (
            f'<meta property="og:type" content="website">'
            f'<meta property="og:site_name" content="{e(t("web.site"))}">'
            f'<meta property="og:title" content="{e(og.title)}">'
            f'<meta property="og:description" content="{e(og.description)}">'
            f'<meta property="og:image" content="{e(og.image)}">'
            f'<meta property="og:url" content="{e(og.url)}">'
            f'<meta name="twitter:card" content="summary_large_image">'
        )
    return (
        f'<!doctype html><html lang="{e(i18n.current())}"><head><meta charset="utf-8">'
        f'<meta name="viewport" content="width=device-width, initial-scale=1">'
        f'<meta name="referrer" content="no-referrer">'
        f"<title>{e(title)}</title>{meta}"
        f'<link rel="stylesheet" href="{e(style)}">'
        f'<script src="{e(script)}" defer></script></head>'
        f'<body data-page="{e(page)}"{data}><main>{body}</main></body></html>'
    )


def script_json(data: dict[str, Any]) -> str:
    """JSON inside an HTML ``<script type="application/json">``: no ``<``, ``>`` or
    ``&`` can close the element or start markup (a name is what a member typed)."""
    text = json.dumps(data, ensure_ascii=False, separators=(",", ":"))
    return text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")


def attrs(**values: str) -> str:
    return "".join(f' data-{name.replace("_", "-")}="{e(value)}"' for name, value in values.items())


def scrolling(table: str) -> str:
    """A table in a box of its own that scrolls sideways on a narrow screen, so that the
    page itself never does."""
    return f'<div class="scroll">{table}</div>'


def description(lines: Sequence[str]) -> str:
    """The board in words (``bot.web.describe``), next to its picture: folded, and read
    by a screen reader as the picture's description."""
    items = "".join(f"<li>{e(line)}</li>" for line in lines)
    return (
        f'<details class="described"><summary>{e(t("web.describe"))}</summary>'
        f'<ul id="description">{items}</ul></details>'
    )


def board_picture(src: str, alt: str) -> str:
    return f'<img id="board" src="{e(src)}" alt="{e(alt)}" width="960" aria-describedby="description">'


def not_found() -> str:
    return message_page(t("web.not_found"))


def message_page(text: str) -> str:
    """A page that only says ``text`` (not found, unavailable)."""
    return document(t("web.site"), f"<h1>{e(t('web.site'))}</h1><p>{e(text)}</p>", page="none")


# --------------------------------------------------------------------- replay


@dataclass(frozen=True)
class ReplayStep:
    game_id: int
    names: tuple[str, str]
    position: Position  # what this step shows (bot.web.replay_steps)
    turns: list[str]  # each turn's moves as text
    ends: list[int]  # the position (moves applied) at the end of each turn; ends[0] == 0
    base: str  # the replay's path: ?step=N links
    links: dict[str, str]  # first, back, forward, last -> URL
    record: str  # URL of the record file
    positions: str  # URL of every turn's position as JSON (the script steps without reloading)


def turn_list(step: ReplayStep) -> str:
    """The turns, each a link to the position at its end."""
    if not step.turns:
        return f'<ol id="moves"></ol><p id="no-moves">{e(t("web.no_moves"))}</p>'
    current = ' class="current"'
    items = "".join(
        f"<li{current if step.position.turn == k else ''}>"
        f'<a href="{e(step.base)}?step={step.ends[k]}" data-turn="{k}">{e(text)}</a></li>'
        for k, text in enumerate(step.turns, start=1)
    )
    return f'<ol id="moves">{items}</ol>'


def replay_page(step: ReplayStep, og: OpenGraph) -> str:
    title = t("web.replay_title", game_id=step.game_id, name0=step.names[0], name1=step.names[1])
    nav = "".join(
        f'<a id="{key}" class="button" href="{e(step.links[key])}">{e(t("web." + key))}</a>'
        for key in ("first", "back", "forward", "last")
    )
    position = step.position
    alt = t("web.board_alt", game_id=step.game_id)
    hands = "".join(
        f'<p class="hand" data-seat="{seat}">{e(text)}</p>' for seat, text in enumerate(position.hands)
    )
    body = (
        f"<h1>{e(title)}</h1>"
        f'<nav class="steps">{nav}</nav>'
        f'<p id="step" aria-live="polite">{e(position.label)}</p>'
        f'<p class="note">{e(t("web.keys"))}</p>'
        f'<p id="status" class="status">{e(position.status)}</p>'
        f"{board_picture(f'{step.base}/board/{position.step}.png', alt)}"
        f"{description(position.description)}"
        f"{hands}"
        f'<p><a id="record" href="{e(step.record)}" download>{e(t("web.download"))}</a></p>'
        f"<h2>{e(t('web.moves'))}</h2>{turn_list(step)}"
    )
    data = attrs(step=str(position.step), turn=str(position.turn), positions=step.positions)
    return document(title, body, page="replay", og=og, data=data)


# --------------------------------------------------------------------- ladder


@dataclass(frozen=True)
class LadderRow:
    rank: int
    name: str
    rating: int
    record: str
    history: list[float]  # ratings after each game, oldest first (the chart)


def chart(points: Sequence[float], *, width: int = 160, height: int = 36) -> str:
    """A rating history as a small SVG line (no script, no style: the CSP allows it)."""
    if len(points) < 2:
        return ""
    low, high = min(points), max(points)
    span = (high - low) or 1.0
    step = width / (len(points) - 1)
    line = " ".join(
        f"{i * step:.1f},{height - 2 - (value - low) / span * (height - 4):.1f}"
        for i, value in enumerate(points)
    )
    label = e(t("web.history"))
    return (
        f'<svg class="chart" role="img" aria-label="{label}" width="{width}" height="{height}"'
        f' viewBox="0 0 {width} {height}" xmlns="http://www.w3.org/2000/svg">'
        f'<polyline fill="none" stroke="#2b6cb0" stroke-width="2" points="{line}"/></svg>'
    )


@dataclass(frozen=True)
class StandingRow:
    rank: int
    name: str
    points: str
    tiebreak: str  # the first tie-break: Buchholz cut-1 (Swiss), the direct encounter (round robin)
    sonneborn: str  # Sonneborn-Berger
    stones: int
    withdrawn: bool


@dataclass(frozen=True)
class PairingLine:
    board: int
    white: str  # moves first
    black: str | None  # None: a bye
    result: str  # "1-0", "0-1", "½-½", a tie's games ("2-1"), or "in play"
    watch: str | None = None  # the live game's watch page while it is played


@dataclass(frozen=True)
class TournamentView:
    """A tournament on the ladder: its line in the list and, once it has started, its
    standings (Swiss, round robin) or bracket lines (knockout) and a round's pairings."""

    id: int
    name: str
    format: str
    round: str
    status: str
    standings: list[StandingRow]
    bracket: list[str]
    pairings_round: int
    pairings: list[PairingLine]
    round_robin: bool = False  # standings tie-broken by the direct encounter, not Buchholz

    @property
    def started(self) -> bool:
        return bool(self.standings or self.bracket or self.pairings)


def _head(*keys: str) -> str:
    return "<thead><tr>" + "".join(f"<th>{e(t(key))}</th>" for key in keys) + "</tr></thead>"


def _standings_table(rows: Sequence[StandingRow], *, round_robin: bool) -> str:
    body = "".join(
        f'<tr><td>{row.rank}</td><td class="name">{e(row.name)}'
        + (f' <span class="withdrawn">({e(t("web.withdrawn"))})</span>' if row.withdrawn else "")
        + f"</td><td>{e(row.points)}</td><td>{e(row.tiebreak)}</td><td>{e(row.sonneborn)}</td>"
        f"<td>{row.stones}</td></tr>"
        for row in rows
    )
    tiebreak = "web.direct" if round_robin else "web.buchholz"  # the order of bot/tournaments/standings.py
    head = _head("web.rank", "web.player", "web.points", tiebreak, "web.sonneborn", "web.stones")
    table = f'<table class="standings">{head}<tbody>{body}</tbody></table>'
    return f"<h4>{e(t('web.standings'))}</h4>{scrolling(table)}"


def _pairings_table(round_no: int, lines: Sequence[PairingLine]) -> str:
    body = "".join(
        f'<tr><td>{line.board}</td><td class="name">{e(line.white)}</td>'
        + (
            f'<td class="bye">{e(t("tournament.bye"))}</td>'
            if line.black is None
            else f'<td class="name">{e(line.black)}</td>'
        )
        + (
            f'<td class="result"><a class="watch" href="{e(line.watch)}">{e(line.result)}</a></td></tr>'
            if line.watch
            else f'<td class="result">{e(line.result)}</td></tr>'
        )
        for line in lines
    )
    head = _head("web.board_no", "web.moves_first", "web.moves_second", "web.result")
    return f"<h4>{e(t('web.pairings', round=round_no))}</h4>" + scrolling(
        f'<table class="pairings">{head}<tbody>{body}</tbody></table>'
    )


def tournaments_section(tournaments: Sequence[TournamentView]) -> str:
    """The server's tournaments: a list, then each started one's standings or bracket
    and pairings. Nothing when the server has none."""
    if not tournaments:
        return ""
    rows = "".join(
        '<tr><td class="name">'
        + (f'<a href="#tournament-{tour.id}">' if tour.started else "")
        + f"#{tour.id} {e(tour.name)}"
        + ("</a>" if tour.started else "")
        + f"</td><td>{e(tour.format)}</td><td>{e(tour.round)}</td><td>{e(tour.status)}</td></tr>"
        for tour in tournaments
    )
    listing = scrolling(
        f'<table id="tournament-list">{_head("web.tournament", "web.format", "web.round", "web.status")}'
        f"<tbody>{rows}</tbody></table>"
    )
    details = []
    for tour in tournaments:
        if not tour.started:
            continue
        parts = [f"<h3>#{tour.id} {e(tour.name)}</h3>"]
        if tour.bracket:
            lines = "\n".join(e(line) for line in tour.bracket)
            parts.append(f'<h4>{e(t("web.bracket"))}</h4><pre class="bracket">{lines}</pre>')
        elif tour.standings:
            parts.append(_standings_table(tour.standings, round_robin=tour.round_robin))
        if tour.pairings:
            parts.append(_pairings_table(tour.pairings_round, tour.pairings))
        details.append(f'<section class="tournament" id="tournament-{tour.id}">{"".join(parts)}</section>')
    return (
        f'<section id="tournaments"><h2>{e(t("web.tournaments"))}</h2>{listing}{"".join(details)}</section>'
    )


def now_playing(games: Sequence[tuple[str, str]]) -> str:
    """The server's games being played now, each a link to its watch page."""
    if not games:
        items = f'<p class="note">{e(t("web.nobody_playing"))}</p>'
    else:
        lines = "".join(f'<li><a class="watch" href="{e(url)}">{e(line)}</a></li>' for line, url in games)
        items = f"<ul>{lines}</ul>"
    return f'<section id="now-playing"><h2>{e(t("web.now_playing"))}</h2>{items}</section>'


def ladder_page(
    *,
    title: str,
    rows: Sequence[LadderRow],
    page: int,
    pages: int,
    links: dict[str, str],
    recent: Sequence[tuple[str, str | None]],  # (line, replay URL)
    tournaments: Sequence[TournamentView] = (),
    playing: Sequence[tuple[str, str]] = (),  # (line, watch URL) of the live games
) -> str:
    if rows:
        head = "".join(
            f"<th>{e(t(key))}</th>"
            for key in ("web.rank", "web.player", "web.rating", "web.record", "web.history")
        )
        body_rows = "".join(
            f'<tr><td>{row.rank}</td><td class="name">{e(row.name)}</td><td>{row.rating}</td>'
            f"<td>{e(row.record)}</td><td>{chart(row.history)}</td></tr>"
            for row in rows
        )
        table = scrolling(
            f'<table id="ladder"><thead><tr>{head}</tr></thead><tbody>{body_rows}</tbody></table>'
        )
    else:
        table = f'<p id="ladder">{e(t("web.nobody"))}</p>'
    nav = "".join(
        f'<a id="{key}" class="button" href="{e(url)}">{e(t("web." + key))}</a>' for key, url in links.items()
    )
    items = "".join(
        f'<li><a href="{e(url)}">{e(line)}</a></li>' if url else f"<li>{e(line)}</li>" for line, url in recent
    )
    body = (
        f"<h1>{e(title)}</h1>{table}"
        f'<nav class="steps"><span>{e(t("web.page", page=page + 1, pages=pages))}</span>{nav}</nav>'
        f"{now_playing(playing)}"
        f'<h2>{e(t("web.recent"))}</h2><ul id="recent">{items}</ul>'
        f"{tournaments_section(tournaments)}"
    )
    return document(title, body, page="ladder")
