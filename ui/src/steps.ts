// The steps of a move on the table, each taken from the seat's legal moves only.

import type { MoveData, State } from "./model";

export type Ruse = "redeploy" | "deserter" | "traitor";

export type Step =
  | { kind: "idle" }
  | { kind: "card"; index: number; card: string } // a card to play: its stones light up
  | { kind: "ruse"; index: number; card: string; ruse: Ruse } // its targets on the table light up
  | { kind: "dest"; index: number; card: string; ruse: Ruse; target: string; source: number } // where it goes
  | { kind: "confirm"; index: number; move: MoveData } // the last step of a ruse: Confirm
  | { kind: "return"; chosen: number[] }; // Scout: the cards to put back, in order

export const IDLE: Step = { kind: "idle" };

/** The legal moves that start with this card of the hand. */
export function movesOfCard(legal: MoveData[], card: string): MoveData[] {
  return legal.filter((m) => m.kind !== "return" && m.card === card);
}

/** The legal moves of a ruse (each names its target and where it is). */
export function targetsOf(legal: MoveData[], ruse: Ruse): MoveData[] {
  return legal.filter((m) => m.kind === ruse);
}

/** Scout's return of the chosen cards, in their order, if the rules allow it. */
export function returnMove(state: State, chosen: number[]): MoveData | null {
  if (chosen.length !== 2) return null;
  const cards = chosen.map((index) => state.hand[index].id);
  return (
    state.legal.find((m) => m.kind === "return" && m.cards !== undefined && m.cards[0] === cards[0] && m.cards[1] === cards[1]) ?? null
  );
}
