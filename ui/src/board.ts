// The board as both views draw it: a seat's (ui/src/table_view.ts, which makes parts of
// it tappable) and a spectator's (ui/src/spectator.ts, which only shows it). Same
// elements, same classes, one style sheet; only what a part does differs.

import type { CardData, PlayerData, StoneData, Texts } from "./model";
import { fill } from "./model";

export type Child = Node | string | null | undefined | false;
export type Attrs = Record<string, string | boolean | number | undefined>;
export type Translate = (key: string, params?: Record<string, string | number>) => string;

/** A translator of the page's texts (the catalogue's, sent with the page). */
export function translator(texts: Texts): Translate {
  return (key, params = {}) => fill(texts[key] ?? key, params);
}

export function el(tag: string, attrs: Attrs = {}, ...children: Child[]): HTMLElement {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs)) {
    if (value === undefined || value === false) continue;
    node.setAttribute(name, value === true ? "" : String(value));
  }
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    node.append(typeof child === "string" ? document.createTextNode(child) : child);
  }
  return node;
}

export function cardFace(card: CardData): HTMLElement {
  const classes = ["card", card.colour ? `c-${card.colour}` : "tactic"];
  return el("span", { class: classes.join(" "), "aria-hidden": "true" }, card.short);
}

/** How one stone is drawn: whose side is at the far end, what its groups are called,
 * how a card and the middle (the stone itself, its terrain, a claim) are made. */
export interface StoneLook {
  far: number; // the player whose cards are drawn at the far side (the opponent; player 1 for a spectator)
  near: number;
  labels: [string, string]; // the far side's group name, the near side's
  card(card: CardData, side: number): HTMLElement;
  middle: Child[];
}

export function drawStone(stone: StoneData, look: StoneLook): HTMLElement {
  const won = stone.owner === null ? "" : stone.owner === look.near ? " won mine" : " won theirs";
  return el(
    "div",
    { class: `stone${won}`, id: `stone-${stone.number}` },
    el("div", { class: "side theirs", role: "group", "aria-label": look.labels[0] }, ...stone.sides[look.far].map((c) => look.card(c, look.far))),
    el("div", { class: "middle" }, ...look.middle),
    el("div", { class: "side mine", role: "group", "aria-label": look.labels[1] }, ...stone.sides[look.near].map((c) => look.card(c, look.near))),
  );
}

/** The stone's owner, under its number. */
export function ownerMark(stone: StoneData, names: [string, string], t: Translate): Child {
  return stone.owner !== null ? el("span", { class: "owner" }, `★ ${t("won_by", { name: names[stone.owner] })}`) : null;
}

/** A deck's name (its accessible name) and its count, shown and given as the deck's
 * description (``aria-describedby`` of the deck's element names the count's id). */
export function deckParts(deck: "clan" | "tactic", count: number, t: Translate): { name: string; describedBy: string; children: HTMLElement[] } {
  const id = `deck-${deck}-count`;
  return {
    name: t(`${deck}_deck`),
    describedBy: id,
    children: [el("span", { class: "deck-name", "aria-hidden": "true" }, t(`${deck}_deck`)), el("span", { class: "deck-count", id }, t("deck_left", { count }))],
  };
}

/** A player's hand as everybody sees it: its size and, in a tactics game, how many of
 * those are tactic cards (their backs differ). */
export function handLine(player: PlayerData, tactics: boolean, t: Translate): string {
  const size = t("cards_in_hand", { name: player.name, count: player.hand });
  return tactics ? `${size}, ${t("tactics_in_hand", { count: player.tactics })}` : size;
}

/** "Move by …" in the page's language, or null without a deadline. */
export function deadlineLine(deadline: number | null, over: boolean, t: Translate): string | null {
  if (deadline === null || over) return null;
  const time = new Intl.DateTimeFormat(document.documentElement.lang || undefined, { dateStyle: "short", timeStyle: "short" }).format(new Date(deadline * 1000));
  return t("deadline", { time });
}

export function discardsLine(discards: { card: CardData }[], t: Translate): HTMLElement | null {
  return discards.length ? el("p", { class: "discards" }, `${t("discards")}: `, discards.map((d) => d.card.label).join(" ")) : null;
}
