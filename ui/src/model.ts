// What the server sends (bot/web/seat_state.py): a seat's state and its legal moves.

export interface CardData {
  id: string; // the engine's notation: what a move names
  label: string; // as the text board writes it, in the reader's language
  short: string;
  colour?: string;
  tactic?: string;
  kind?: string;
}

export interface MoveData {
  move: string; // posted back as is
  label: string; // a sentence, for the confirmation step
  kind: "play" | "claim" | "pass" | "draw" | "scout" | "return" | "redeploy" | "deserter" | "traitor";
  card?: string;
  stone?: number;
  deck?: "clan" | "tactic" | null;
  cards?: string[];
  target?: string;
  source?: number;
  to?: number | null;
}

export interface StoneData {
  number: number;
  sides: [CardData[], CardData[]];
  owner: number | null;
  fog: number | null;
  mud: number | null;
  needed: number;
}

export interface PlayerData {
  name: string;
  hand: number;
  tactics: number; // tactic cards in the hand (their backs differ: public)
  stones: number;
}

export interface State {
  game: number;
  seat: number;
  version: number;
  over: boolean;
  tactics: boolean;
  vs_ai: boolean;
  title: string;
  status: string;
  players: [PlayerData, PlayerData];
  hand: CardData[];
  stones: StoneData[];
  decks: { clan: number; tactic: number };
  discards: { player: number; card: CardData }[];
  current: number | null;
  phase: "play" | "draw" | "scout_draw" | "scout_return" | "over";
  scout_draws_left: number;
  deadline: number | null;
  moves: string[];
  legal: MoveData[];
  replay: string | null;
}

export type Texts = Record<string, string>;

/** A text of the catalogue with its placeholders ({number}) filled in. */
export function fill(template: string, params: Record<string, string | number>): string {
  return template.replace(/\{(\w+)\}/g, (whole, name: string) => (name in params ? String(params[name]) : whole));
}
