// The table's view: one player's seat of a game, drawn into an element (the table's own
// page, ui/src/table.ts, and the Activity's, ui/src/activity.ts).
//
// The server sends the seat's state with its legal moves; this script only draws it and
// guides a move step by step through those moves: it never decides what is legal. A
// move is posted with the version it was chosen at; the server answers with the new
// state, or refuses (409: the game moved on, and here is the table as it is now).
// Every change, made here, in Discord or by the AI, arrives on the event stream.

import { type Attrs, type Child, cardFace, deadlineLine, deckParts, discardsLine, drawStone as drawStoneOf, el, handLine, ownerMark, translator } from "./board";
import type { CardData, MoveData, State, StoneData, Texts } from "./model";
import { follow } from "./follow";
import { type Step, IDLE, movesOfCard, returnMove, targetsOf } from "./steps";

export interface PageData {
  texts: Texts;
  state: State;
  // The seat's routes; a function where it changes while the seat is open (the
  // Activity's session, renewed in the path).
  base: string | (() => string);
  // Called once when the game is over (the Activity then shows the result).
  onOver?: () => void;
}

/** Draw the seat of ``data`` into ``main`` and keep it up to date (its event stream). */
export function mountTable(data: PageData, main: HTMLElement): void {
  const texts = data.texts;
  const base = (): string => (typeof data.base === "string" ? data.base : data.base());
  let state = data.state;
  let step: Step = IDLE;
  let busy = false;
  let notice = "";
  let noticeIsError = false;
  let hint = "";
  let hintMove: MoveData | null = null; // the AI's suggestion, marked on the board
  let connection: "online" | "offline" = "online";


  const t = translator(texts);

  // ------------------------------------------------------------------ elements

  function button(key: string, name: string, onTap: (() => void) | null, attrs: Attrs = {}, ...children: Child[]): HTMLElement {
    const node = el("button", { type: "button", "data-key": key, "aria-label": name, ...attrs }, ...children);
    if (onTap === null || busy) {
      node.setAttribute("disabled", "");
    } else {
      node.addEventListener("click", onTap);
    }
    return node;
  }

  // ------------------------------------------------------------------ moves

  const mine = (): boolean => !state.over && state.current === state.seat;
  const legalOf = (kind: string): MoveData[] => state.legal.filter((m) => m.kind === kind);

  function choose(next: Step): void {
    step = next;
    notice = "";
    render();
  }

  async function send(move: MoveData): Promise<void> {
    if (busy) return;
    busy = true;
    notice = t("sending");
    noticeIsError = false;
    render();
    let answer: Response | null = null;
    let body: { error?: string; state?: State; replay?: string } & Partial<State> = {};
    // A move unanswered for long (a connection lost on the way): read the table again.
    const abort = new AbortController();
    const timer = window.setTimeout(() => abort.abort(), 8000);
    try {
      answer = await fetch(`${base()}/move`, {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ move: move.move, version: state.version }),
        credentials: "omit",
        signal: abort.signal,
      });
      body = await answer.json();
    } catch {
      answer = null;
    } finally {
      window.clearTimeout(timer);
    }
    busy = false;
    step = IDLE;
    if (answer === null) {
      show(t("offline"), true);
      await refresh();
      return;
    }
    if (answer.ok) {
      notice = "";
      take(body as State);
    } else if (answer.status === 409 && body.state) {
      notice = body.error ?? t("stale");
      noticeIsError = true;
      take(body.state, true);
    } else if (answer.status === 410) {
      over(body.error ?? t("step.over"), body.replay ?? null);
    } else {
      show(body.error ?? t("stale"), true);
      await refresh();
    }
  }

  function show(message: string, error: boolean): void {
    notice = message;
    noticeIsError = error;
    render();
  }

  function take(next: State, force = false): void {
    if (!force && next.version < state.version) {
      render(); // older than what the stream brought already (the AI's reply): keep that
      return;
    }
    if (next.version !== state.version) {
      step = IDLE;
      hint = "";
      hintMove = null;
    }
    state = next;
    render();
    if (state.over) stopStream();
  }

  async function refresh(): Promise<void> {
    try {
      const answer = await fetch(`${base()}/state`, { credentials: "omit" });
      const body = await answer.json();
      if (answer.ok) take(body as State, true);
      else if (answer.status === 410) over(body.error, body.replay ?? null);
    } catch {
      show(t("offline"), true);
    }
  }

  function over(message: string, replay: string | null): void {
    state = { ...state, over: true, legal: [], replay: replay ?? state.replay };
    notice = message;
    noticeIsError = false;
    stopStream();
    render();
  }

  async function askHint(): Promise<void> {
    try {
      const answer = await fetch(`${base()}/hint`, { method: "POST", credentials: "omit", headers: { "Content-Type": "application/json" }, body: "{}" });
      const body = await answer.json();
      hint = answer.ok ? body.text : body.error;
      hintMove = answer.ok ? (body.move as MoveData) : null;
    } catch {
      hint = t("offline");
    }
    render();
  }

  // ------------------------------------------------------------------ taps

  function tapHandCard(index: number, card: CardData): void {
    if (state.phase === "scout_return") {
      const chosen = step.kind === "return" ? [...step.chosen] : [];
      const at = chosen.indexOf(index);
      if (at >= 0) chosen.splice(at, 1);
      else if (chosen.length < 2) chosen.push(index);
      choose({ kind: "return", chosen });
      return;
    }
    if ((step.kind === "card" || step.kind === "ruse" || step.kind === "dest" || step.kind === "confirm") && "index" in step && step.index === index) {
      choose(IDLE); // a second tap puts the card back
      return;
    }
    const moves = movesOfCard(state.legal, card.id);
    if (moves.length === 0) return;
    const kind = moves[0].kind;
    if (kind === "play") choose({ kind: "card", index, card: card.id });
    else if (kind === "scout") choose({ kind: "confirm", index, move: moves[0] });
    else if (kind === "redeploy" || kind === "deserter" || kind === "traitor") choose({ kind: "ruse", index, card: card.id, ruse: kind });
  }

  function stoneMove(stone: number): MoveData | null {
    if (step.kind === "card") {
      const card = step.card;
      return state.legal.find((m) => m.kind === "play" && m.card === card && m.stone === stone) ?? null;
    }
    if (step.kind === "dest") {
      const s = step;
      return state.legal.find((m) => m.kind === s.ruse && m.target === s.target && m.source === s.source && m.to === stone) ?? null;
    }
    return null;
  }

  function tapStone(stone: number): void {
    const move = stoneMove(stone);
    if (move === null) return;
    if (step.kind === "card") void send(move);
    else if (step.kind === "dest") choose({ kind: "confirm", index: step.index, move });
  }

  function tableTarget(stone: number, card: string): (() => void) | null {
    if (step.kind !== "ruse") return null;
    const s = step;
    const moves = targetsOf(state.legal, s.ruse).filter((m) => m.source === stone && m.target === card);
    if (moves.length === 0) return null;
    return () => {
      if (s.ruse === "deserter") choose({ kind: "confirm", index: s.index, move: moves[0] });
      else choose({ kind: "dest", index: s.index, ruse: s.ruse, card: s.card, target: card, source: stone });
    };
  }

  // ------------------------------------------------------------------ drawing

  function names(): [string, string] {
    return [state.players[0].name, state.players[1].name];
  }

  function drawCard(card: CardData, stone: number, side: number): HTMLElement {
    const onTap = tableTarget(stone, card.id);
    const lit = onTap !== null;
    return button(
      `s${stone}-${side}-${card.id}`,
      card.label,
      onTap,
      { class: lit ? "slot lit" : "slot", title: card.label },
      cardFace(card),
      lit ? el("span", { class: "mark", "aria-hidden": "true" }, "◎") : null,
    );
  }

  function drawTerrain(stone: StoneData, which: "fog" | "mud"): HTMLElement | null {
    const owner = stone[which];
    if (owner === null) return null;
    const id = which === "fog" ? "Fog" : "Mud";
    const onTap = tableTarget(stone.number, id);
    const label = t(which);
    return button(`s${stone.number}-${which}`, label, onTap, { class: onTap ? "terrain lit" : "terrain" }, label, onTap ? " ◎" : "");
  }

  function drawStone(stone: StoneData): HTMLElement {
    const seat = state.seat;
    const playable = stoneMove(stone.number) !== null;
    const claim = mine() ? state.legal.find((m) => m.kind === "claim" && m.stone === stone.number) : undefined;
    const stoneName = t("stone", { number: stone.number });
    return drawStoneOf(stone, {
      far: 1 - seat,
      near: seat,
      labels: [`${t("their_side", { name: names()[1 - seat] })}, ${stoneName}`, `${t("your_side")}, ${stoneName}`],
      card: (card, side) => drawCard(card, stone.number, side),
      middle: [
        button(
          `stone-${stone.number}`,
          stoneName,
          playable ? () => tapStone(stone.number) : null,
          { class: playable ? "stone-button lit" : "stone-button" },
          el("span", { class: "number", "aria-hidden": "true" }, String(stone.number)),
          playable ? el("span", { class: "mark", "aria-hidden": "true" }, `▲ ${t("play_here")}`) : null,
          hintMove && hintMove.stone === stone.number ? el("span", { class: "mark hinted", "aria-hidden": "true" }, "💡") : null,
        ),
        drawTerrain(stone, "fog"),
        drawTerrain(stone, "mud"),
        ownerMark(stone, names(), t),
        claim ? button(`claim-${stone.number}`, t("claim", { number: stone.number }), () => void send(claim), { class: "claim" }, `⚑ ${t("claim", { number: stone.number })}`) : null,
      ],
    });
  }

  function drawDecks(): HTMLElement {
    const decks: HTMLElement[] = [];
    const draws = mine() ? legalOf("draw") : [];
    for (const deck of state.tactics ? (["clan", "tactic"] as const) : (["clan"] as const)) {
      const move = draws.find((m) => m.deck === deck);
      // Named by the deck alone; its count is its description (and shown).
      const parts = deckParts(deck, state.decks[deck], t);
      decks.push(
        button(
          `deck-${deck}`,
          parts.name,
          move ? () => void send(move) : null,
          { class: move ? `deck ${deck} lit` : `deck ${deck}`, "aria-describedby": parts.describedBy },
          ...parts.children,
          move ? el("span", { class: "mark", "aria-hidden": "true" }, "▲") : null,
        ),
      );
    }
    return el("section", { id: "decks" }, ...decks, discardsLine(state.discards, t));
  }

  function prompt(): string {
    if (state.over) return state.status;
    if (!mine()) return t("step.wait", { name: names()[state.current ?? 0] });
    const card = (id: string): string => state.hand.find((c) => c.id === id)?.label ?? id;
    switch (step.kind) {
      case "card":
        return t("step.stone", { card: card(step.card) });
      case "ruse":
        return t("step.target", { card: card(step.card) });
      case "dest":
        return t("step.dest", { card: card(step.card) });
      case "confirm":
        return t("step.confirm", { move: step.move.label });
      case "return": {
        const move = returnMove(state, step.chosen);
        return move ? t("step.confirm", { move: move.label }) : t("step.return");
      }
      default:
        break;
    }
    if (state.phase === "scout_draw") return t("step.scout_draw", { count: state.scout_draws_left });
    if (state.phase === "scout_return") return t("step.return");
    if (state.phase === "draw") return t("step.draw");
    return t("step.card");
  }

  function drawActions(): HTMLElement {
    const controls: HTMLElement[] = [];
    if (mine()) {
      if (step.kind === "confirm") {
        const move = step.move;
        controls.push(button("confirm", t("confirm"), () => void send(move), { class: "primary" }, `✔ ${t("confirm")}`));
      }
      if (step.kind === "dest") {
        const s = step;
        const discard = state.legal.find((m) => m.kind === s.ruse && m.target === s.target && m.source === s.source && m.to === null);
        if (discard) controls.push(button("discard", t("discard"), () => choose({ kind: "confirm", index: s.index, move: discard }), {}, t("discard")));
      }
      if (state.phase === "scout_return") {
        const move = step.kind === "return" ? returnMove(state, step.chosen) : null;
        controls.push(button("put-back", t("put_back"), move ? () => void send(move) : null, { class: "primary" }, `✔ ${t("put_back")}`));
      }
      if (step.kind !== "idle") controls.push(button("cancel", t("cancel"), () => choose(IDLE), {}, `✕ ${t("cancel")}`));
      const pass = legalOf("pass")[0];
      if (pass) controls.push(button("pass", t("pass"), () => void send(pass), {}, t("pass")));
      const end = legalOf("draw").find((m) => m.deck === null);
      if (end) controls.push(button("end-turn", t("end_turn"), () => void send(end), {}, t("end_turn")));
      if (state.vs_ai) controls.push(button("hint", t("hint"), () => void askHint(), {}, `💡 ${t("hint")}`));
    }
    return el(
      "section",
      { id: "actions" },
      el("p", { id: "prompt", "aria-live": "polite" }, prompt()),
      hint ? el("p", { id: "hint", role: "status" }, hint) : null,
      controls.length ? el("div", { class: "controls" }, ...controls) : null,
    );
  }

  function drawHand(): HTMLElement {
    const chosen = step.kind === "return" ? step.chosen : "index" in step ? [step.index] : [];
    const cards = state.hand.map((card, index) => {
      const picked = chosen.indexOf(index);
      const playable =
        mine() && (state.phase === "scout_return" || movesOfCard(state.legal, card.id).length > 0);
      return button(
        `hand-${index}-${card.id}`,
        card.label,
        playable ? () => tapHandCard(index, card) : null,
        { class: picked >= 0 ? "hand-card chosen" : playable ? "hand-card playable" : "hand-card", "aria-pressed": picked >= 0 ? "true" : "false", title: card.label },
        cardFace(card),
        picked >= 0 ? el("span", { class: "mark", "aria-hidden": "true" }, step.kind === "return" ? `✓${picked + 1}` : "✓") : null,
        hintMove && hintMove.card === card.id ? el("span", { class: "mark hinted", "aria-hidden": "true" }, "💡") : null,
      );
    });
    return el("section", { id: "hand", "aria-label": t("your_hand") }, el("h2", {}, t("your_hand")), el("div", { class: "cards" }, ...cards));
  }

  function drawHeader(): HTMLElement {
    const opponent = state.players[1 - state.seat];
    const deadline = deadlineLine(state.deadline, state.over, t);
    return el(
      "header",
      {},
      el("h1", {}, state.title),
      el("p", { id: "status", class: mine() ? "status mine" : "status" }, mine() ? `▶ ${state.status}` : state.status),
      deadline ? el("p", { id: "deadline" }, deadline) : null,
      el("p", { id: "opponent-hand" }, handLine(opponent, state.tactics, t)),
      el("p", { id: "connection", class: connection, role: "status" }, connection === "offline" ? t("offline") : ""),
      notice ? el("p", { id: "notice", class: noticeIsError ? "error" : "", role: noticeIsError ? "alert" : "status" }, notice) : null,
      state.over && state.replay ? el("p", {}, el("a", { href: state.replay, id: "replay" }, t("open_replay"))) : null,
    );
  }

  function drawMoves(): HTMLElement {
    const moves = state.moves.length ? el("ol", {}, ...state.moves.map((m) => el("li", {}, m))) : el("p", {}, t("no_moves"));
    return el("section", { id: "moves" }, el("h2", {}, t("last_moves")), moves);
  }

  function render(): void {
    const focused = (document.activeElement as HTMLElement | null)?.dataset?.key;
    const board = el(
      "section",
      { id: "board", "aria-label": state.title },
      ...state.stones.map(drawStone),
    );
    main.replaceChildren(drawHeader(), board, drawDecks(), el("div", { id: "dock" }, drawActions(), drawHand()), drawMoves());
    document.body.dataset.game = String(state.game);
    document.body.dataset.version = String(state.version);
    document.body.dataset.phase = state.over ? "over" : state.phase;
    document.body.dataset.turn = mine() ? "mine" : "theirs";
    document.body.dataset.busy = busy ? "1" : "0";
    if (focused) {
      const again = main.querySelector<HTMLElement>(`[data-key="${CSS.escape(focused)}"]`);
      if (again && !again.hasAttribute("disabled")) again.focus();
    }
  }

  // ------------------------------------------------------------------ the stream

  // The seat's own event stream, followed as the spectator's is (ui/src/follow.ts):
  // refused (429) or lost, it is tried again after a growing, jittered delay, at the
  // path read anew each time (the Activity's session is renewed in it).
  const following = new AbortController();

  function startStream(): void {
    void follow(
      () => `${base()}/events`,
      {
        game(next) {
          take(next as State);
        },
        connection(now) {
          if (now === "over") {
            stopStream();
            return;
          }
          const next = now === "live" ? "online" : "offline";
          if (next === connection) return;
          connection = next;
          render();
          if (next === "offline") void refresh(); // the table as it is, meanwhile
        },
      },
      { signal: following.signal, event: "state" },
    );
  }

  let toldOver = false;
  function tellOver(): void {
    if (toldOver || !state.over) return;
    toldOver = true;
    data.onOver?.();
  }

  function stopStream(): void {
    tellOver();
    following.abort();
  }

  document.addEventListener("keydown", (event) => {
    if (event.key === "Escape" && step.kind !== "idle") choose(IDLE);
  });

  render();
  if (!state.over) startStream();
  else tellOver();
}
