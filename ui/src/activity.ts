// The table inside Discord: the Activity's page (bot/web/activity.py serves it).
//
// Discord frames this page; Discord's Embedded App SDK speaks to the client: ready(),
// authorize (scope identify) for a code, which our server exchanges with Discord for our
// own session and Discord's access token, then authenticate with that token. Every
// request goes through Discord's proxy (/.proxy/, the SDK's URL mapping) when the page
// is not on our own host. Then: the channel's games, the member's own first at their
// seat (the table's view), the others to watch. The member's language is Discord's.

import { DiscordSDK, attemptRemap, patchUrlMappings } from "@discord/embedded-app-sdk";
import { fill } from "./model";
import { mountTable } from "./table_view";

interface ActivityData {
  client_id: string;
  public_url: string; // PUBLIC_URL: what Discord's URL mapping points at
  texts: Record<string, string>; // the sign-in's texts, in the browser's language
}

interface GameEntry {
  game: number;
  title: string;
  status: string;
  seat?: number;
  base?: string;
  view?: { players: { name: string; stones: number; hand: number }[]; moves: string[] };
}

interface Signed {
  session: string; // renewed before it ends (renewSession): always read it from here
  renew_in: number; // seconds after which to renew it
  access_token: string;
  language: string;
  texts: Record<string, string>;
  table_texts: Record<string, string>;
}

const data = JSON.parse(document.getElementById("activity-data")!.textContent!) as ActivityData;
const main = document.getElementById("table")!;
const publicURL = new URL(data.public_url);
const inDiscord = window.location.host !== publicURL.host;
let texts = data.texts;

function t(key: string, params: Record<string, string | number> = {}): string {
  return fill(texts[key] ?? key, params);
}

function say(key: string, error = false): void {
  const line = document.createElement("p");
  line.className = error ? "notice error" : "notice";
  line.setAttribute("role", error ? "alert" : "status");
  line.textContent = t(key);
  main.replaceChildren(line);
  document.body.dataset.activity = error ? "error" : "waiting";
}

/** Our server's URL of ``path``, through Discord's proxy inside Discord. */
function url(path: string): string {
  const absolute = new URL(`activity/${path}`, publicURL.href.endsWith("/") ? publicURL.href : `${publicURL.href}/`);
  return inDiscord ? attemptRemap({ url: absolute, mappings: mappings() }).toString() : absolute.toString();
}

function mappings(): { prefix: string; target: string }[] {
  // The Activity's URL mapping in the Developer Portal: / -> PUBLIC_URL's host/activity.
  return [{ prefix: "/.proxy", target: `${publicURL.host}${publicURL.pathname.replace(/\/$/, "")}/activity` }];
}

async function json<T>(path: string, init: RequestInit = {}): Promise<{ status: number; body: T }> {
  const answer = await fetch(url(path), { credentials: "omit", ...init });
  return { status: answer.status, body: (await answer.json()) as T };
}

function gameButton(entry: GameEntry, key: string, onTap: () => void): HTMLElement {
  const item = document.createElement("li");
  const press = document.createElement("button");
  press.type = "button";
  press.className = "game";
  press.dataset.game = String(entry.game);
  press.textContent = t(key, { game_id: entry.game });
  press.addEventListener("click", onTap);
  const status = document.createElement("span");
  status.className = "status";
  status.textContent = `${entry.title} · ${entry.status}`;
  item.append(press, " ", status);
  return item;
}

async function openSeat(signed: Signed, entry: GameEntry): Promise<void> {
  // The seat's routes with the session of the moment (renewed while one plays).
  const base = (): string => url(`s/${signed.session}/game/${entry.game}`);
  const answer = await fetch(`${base()}/state`, { credentials: "omit" });
  if (answer.status === 401) return say("expired", true);
  if (!answer.ok) return showGames(signed);
  document.body.dataset.activity = "table";
  mountTable({ texts: signed.table_texts, state: await answer.json(), base }, main);
}

/** Renew the session before it ends (the server answers a new one, once per session);
 * refused, the member is told to open the Activity again. */
function renewSession(signed: Signed): void {
  window.setTimeout(async () => {
    let answer: { status: number; body: { session?: string; renew_in?: number } };
    try {
      answer = await json(`s/${signed.session}/renew`, {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: "{}",
      });
    } catch {
      signed.renew_in = 30; // the connection failed: try again while the session lasts
      return renewSession(signed);
    }
    if (answer.status !== 200 || !answer.body.session) return say("expired", true);
    signed.session = answer.body.session;
    signed.renew_in = answer.body.renew_in ?? 0;
    renewSession(signed);
  }, signed.renew_in * 1000);
}

function watched(entry: GameEntry): HTMLElement {
  // A game one does not play: its public view only (the server sends nothing else).
  const box = document.createElement("section");
  box.className = "watched";
  box.dataset.game = String(entry.game);
  const title = document.createElement("h2");
  title.textContent = entry.title;
  const status = document.createElement("p");
  status.className = "status";
  status.textContent = entry.status;
  const players = document.createElement("p");
  players.textContent = (entry.view?.players ?? []).map((p) => `${p.name}: ${p.stones}`).join(" · ");
  const moves = document.createElement("ol");
  for (const move of (entry.view?.moves ?? []).slice(-8)) {
    const line = document.createElement("li");
    line.textContent = move;
    moves.append(line);
  }
  box.append(title, status, players, moves);
  return box;
}

let watching: number | null = null;

async function showGames(signed: Signed, channel: string | null = sdk.channelId): Promise<void> {
  const { status, body } = await json<{ mine: GameEntry[]; watch: GameEntry[] }>(
    `s/${signed.session}/games?channel=${encodeURIComponent(channel ?? "0")}`,
  );
  if (status === 401) return say("expired", true);
  if (body.mine.length > 0) return openSeat(signed, body.mine[0]); // one's own game first
  const heading = document.createElement("h1");
  heading.textContent = t("title");
  const list = document.createElement("ul");
  list.className = "games";
  for (const entry of body.watch) {
    list.append(
      gameButton(entry, "watch_game", () => {
        watching = entry.game;
        void showGames(signed, channel);
      }),
    );
  }
  const shown = body.watch.find((entry) => entry.game === watching);
  const empty = document.createElement("p");
  empty.textContent = t("no_games");
  const title = document.createElement("h2");
  title.textContent = t("watch_games");
  main.replaceChildren(heading, ...(body.watch.length ? [title, list] : [empty]), ...(shown ? [watched(shown)] : []));
  document.body.dataset.activity = "games";
  window.setTimeout(() => void showGames(signed, channel), 3000); // the games change
}

const sdk = new DiscordSDK(data.client_id);

async function start(): Promise<void> {
  say("signing_in");
  if (inDiscord) patchUrlMappings(mappings());
  await sdk.ready();
  const { code } = await sdk.commands.authorize({
    client_id: data.client_id,
    response_type: "code",
    state: "",
    prompt: "none",
    scope: ["identify"],
  });
  const { status, body } = await json<Signed>("token", {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ code }),
  });
  if (status !== 200) return say("refused", true);
  await sdk.commands.authenticate({ access_token: body.access_token });
  texts = body.texts;
  document.documentElement.lang = body.language;
  renewSession(body);
  await showGames(body);
}

if (!new URLSearchParams(window.location.search).has("frame_id")) {
  say("outside", true); // opened as a plain page: no Discord client to speak to
} else {
  start().catch(() => say("refused", true));
}
