// The table as a spectator sees it: the board a seat sees (ui/src/board.ts), fed with
// the public state only (bot/web/spectator.py: both hands as counts, the decks as
// counts, the claims, whose turn, the deadline, the moves a turn at a time, the board in
// words), kept up to date from the game's public event stream, which reconnects by
// itself (ui/src/follow.ts) and says so.
//
// Meant to be mounted by more than one page: the watch page (ui/src/watch.ts) and the
// Discord Activity, for a game the member watches (call mountSpectator with its own
// element and its own routes' URLs: what the element shows depends only on them). Like
// the seat's view, it marks <body> with the game, its version and the connection
// (data-game, data-version, data-connection) for tests and styles.

import { type Translate, deadlineLine, deckParts, discardsLine, drawStone, el, handLine, ownerMark, cardFace, translator } from "./board";
import { type Connection, follow } from "./follow";
import type { CardData, PlayerData, StoneData, Texts } from "./model";

export interface SpectatorUrls {
  // A function where the URL may change while the page is open (the Activity's session).
  state: string | (() => string); // GET: {texts, state} as JSON
  events: string | (() => string); // the event stream: "game" events carry the state
}

/** What the server answered instead of the spectator's state (a refused session, a game
 * gone): the page that mounted the spectator decides what to say. */
export class NotShown extends Error {
  constructor(readonly status: number) {
    super(`the spectator's state was refused (${status})`);
  }
}

export interface SpectatorPlayer extends PlayerData {
  rating: string;
}

export interface SpectatorState {
  game: number;
  version: number;
  over: boolean;
  tactics: boolean;
  title: string;
  status: string;
  players: [SpectatorPlayer, SpectatorPlayer];
  stones: StoneData[];
  decks: { clan: number; tactic: number };
  discards: { player: number; card: CardData }[];
  current: number | null;
  deadline: number | null;
  turns: { text: string; step: number }[]; // a turn: one player's moves in a row; step: the position after it
  replay: string | null; // the replay's path once the game is over
  description: string[]; // the board in words
}

export interface SpectatorData {
  texts: Texts;
  state: SpectatorState;
}

const CONNECTION_TEXTS: Record<Connection, string> = {
  live: "connection.live",
  reconnecting: "connection.reconnecting",
  refused: "connection.refused",
  over: "connection.over",
};

async function fetchState(url: string | (() => string), signal?: AbortSignal): Promise<SpectatorData> {
  const response = await fetch(typeof url === "string" ? url : url(), { credentials: "omit", cache: "no-store", signal });
  if (!response.ok) throw new NotShown(response.status);
  return (await response.json()) as SpectatorData;
}

/** Show the game of ``urls`` in ``root`` as a spectator sees it, and follow it until it is
 * over or ``signal`` aborts (the page shows something else). ``initial``: the texts and
 * state the page brought (else read from ``urls.state``; a refusal throws NotShown). */
export async function mountSpectator(
  root: HTMLElement,
  urls: SpectatorUrls,
  initial?: SpectatorData,
  signal?: AbortSignal,
): Promise<void> {
  const data = initial ?? (await fetchState(urls.state, signal));
  const t: Translate = translator(data.texts);
  let state = data.state;
  let connection: Connection | null = state.over ? "over" : null; // null: not yet connected
  let seconds = 0;

  function names(): [string, string] {
    return [state.players[0].name, state.players[1].name];
  }

  function card(c: CardData): HTMLElement {
    return el("span", { class: "slot", role: "img", "aria-label": c.label, title: c.label }, cardFace(c));
  }

  function stone(s: StoneData): HTMLElement {
    const name = t("stone", { number: s.number });
    const terrain = (["fog", "mud"] as const).filter((which) => s[which] !== null).map((which) => el("span", { class: "terrain" }, t(which)));
    return drawStone(s, {
      far: 1,
      near: 0,
      labels: [`${t("their_side", { name: names()[1] })}, ${name}`, `${t("their_side", { name: names()[0] })}, ${name}`],
      card,
      middle: [el("span", { class: "stone-button" }, el("span", { class: "number" }, String(s.number))), ...terrain, ownerMark(s, names(), t)],
    });
  }

  function player(p: SpectatorPlayer, seat: number): HTMLElement {
    const turn = !state.over && state.current === seat;
    return el(
      "p",
      { class: turn ? "player to-play" : "player", "data-seat": seat },
      turn ? "▶ " : "",
      el("span", { class: "hand" }, handLine(p, state.tactics, t)),
      ` · ${t("rating")}: ${p.rating} · ${t("stones")}: ${p.stones}`,
    );
  }

  function decks(): HTMLElement {
    const shown: HTMLElement[] = [];
    for (const deck of state.tactics ? (["clan", "tactic"] as const) : (["clan"] as const)) {
      const parts = deckParts(deck, state.decks[deck], t);
      shown.push(el("div", { class: `deck ${deck}`, role: "group", "aria-label": parts.name, "aria-describedby": parts.describedBy }, ...parts.children));
    }
    return el("section", { id: "decks" }, ...shown, discardsLine(state.discards, t));
  }

  function turns(): HTMLElement {
    // Newest first, so the latest turn is in view; numbered as played.
    const items = state.turns.map((turn, index) =>
      el(
        "li",
        { value: index + 1 },
        state.replay ? el("a", { href: `${state.replay}?step=${turn.step}` }, turn.text) : turn.text,
      ),
    );
    const list = items.length ? el("ol", { id: "turns", reversed: true }, ...items.reverse()) : el("p", {}, t("no_moves"));
    return el(
      "section",
      { id: "moves" },
      el("h2", {}, t("moves")),
      state.replay ? el("p", {}, el("a", { href: state.replay, id: "replay" }, t("open_replay"))) : null,
      list,
    );
  }

  // One element for the page's life: a live region re-created on every move would be
  // read out again each time.
  const connectionLine = el("p", { id: "connection", role: "status", "aria-live": "polite" });

  function showConnection(): void {
    connectionLine.hidden = connection === null;
    if (connection === null) return;
    connectionLine.className = `connection ${connection}`;
    connectionLine.textContent = t(CONNECTION_TEXTS[connection], { seconds });
    document.body.dataset.connection = connection;
  }

  function render(): void {
    const open = root.querySelector("details.described")?.hasAttribute("open") ?? false;
    const deadline = deadlineLine(state.deadline, state.over, t);
    root.replaceChildren(
      el(
        "header",
        {},
        el("h1", {}, state.title),
        el("p", { class: "note" }, t("live_note")),
        connectionLine,
        el("p", { id: "status" }, state.status),
        deadline ? el("p", { id: "deadline" }, deadline) : null,
        el("div", { id: "players" }, player(state.players[1], 1), player(state.players[0], 0)),
      ),
      el("section", { id: "board", "aria-label": state.title, "aria-describedby": "description" }, ...state.stones.map(stone)),
      decks(),
      el(
        "details",
        { class: "described", open },
        el("summary", {}, t("describe")),
        el("ul", { id: "description" }, ...state.description.map((line) => el("li", {}, line))),
      ),
      turns(),
    );
    const body = document.body.dataset;
    body.game = String(state.game);
    body.version = String(state.version);
  }

  showConnection();
  render();
  if (state.over) return;
  await follow(
    urls.events,
    {
      game(next) {
        state = next as SpectatorState;
        render();
      },
      connection(now, left) {
        connection = now;
        seconds = left ?? 0;
        showConnection();
      },
    },
    { signal },
  );
}
