// The table inside Discord: the Activity's page (bot/web/activity.py serves it).
//
// Discord frames this page; Discord's Embedded App SDK speaks to the client: ready(),
// authorize (scope identify) for a code, which our server exchanges with Discord for our
// own session and Discord's access token, then authenticate with that token. Every
// request goes through Discord's proxy (/.proxy/, the SDK's URL mapping) when the page
// is not on our own host. Then: the channel's games, the member's own first at their
// seat (the table's view), the others to watch, and a game to start: a challenge to
// someone in the Activity (Discord names the instance's participants), an answer to
// one, a game against the AI. In a DM, the member's own games (the one with the person
// here opened first). At a game's end, the result with the ratings' change. The
// session is renewed before it ends. The member's language is Discord's.

import { DiscordSDK, attemptRemap, patchUrlMappings } from "@discord/embedded-app-sdk";
import { fill } from "./model";
import { NotShown, mountSpectator } from "./spectator";
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
  opponent?: string; // the other player's user id, for one's own games
}

interface ChallengeEntry {
  id: number;
  answer: boolean; // made to this member: theirs to accept or decline
  text: string;
}

interface Listed {
  dm: boolean;
  lobby: boolean; // games may be started here
  mine: GameEntry[];
  watch: GameEntry[];
  challenges: ChallengeEntry[];
}

interface Signed {
  session: string; // renewed before it ends (renewSession): always read it from here
  renew_in: number; // seconds after which to renew it
  access_token: string;
  language: string;
  user: { id: string };
  texts: Record<string, string>;
  table_texts: Record<string, string>;
}

interface Participant {
  id: string;
  username: string;
  global_name?: string | null;
  nickname?: string;
  bot: boolean;
}

const LEVELS = ["easy", "medium", "hard"];
const MAX_NAME = 32; // characters of a participant's name shown (names are the members')

const data = JSON.parse(document.getElementById("activity-data")!.textContent!) as ActivityData;
const main = document.getElementById("table")!;
const publicURL = new URL(data.public_url);
const inDiscord = window.location.host !== publicURL.host;
let texts = data.texts;
let participants: Participant[] = []; // who is in this Activity's instance (Discord says)

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
  view += 1; // no list refreshes over this
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
  let body: unknown = {};
  try {
    body = await answer.json();
  } catch {
    body = {}; // not JSON (a 404 page): the status says enough
  }
  return { status: answer.status, body: body as T };
}

function postJSON<T>(path: string, body: object): Promise<{ status: number; body: T }> {
  return json<T>(path, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) });
}

function el(tag: string, className: string, text = ""): HTMLElement {
  const made = document.createElement(tag);
  if (className) made.className = className;
  if (text) made.textContent = text; // never HTML: names are the members'
  return made;
}

function button(label: string, onTap: () => void, data: Record<string, string> = {}): HTMLButtonElement {
  const press = document.createElement("button");
  press.type = "button";
  press.textContent = label;
  Object.assign(press.dataset, data);
  press.addEventListener("click", onTap);
  return press;
}

function gameButton(entry: GameEntry, key: string, onTap: () => void): HTMLElement {
  const item = document.createElement("li");
  const press = button(t(key, { game_id: entry.game }), onTap, { game: String(entry.game) });
  press.className = "game";
  item.append(press, " ", el("span", "status", `${entry.title} · ${entry.status}`));
  return item;
}

async function openSeat(signed: Signed, entry: GameEntry): Promise<void> {
  view += 1; // the list stops refreshing
  stopWatching();
  // The seat's routes with the session of the moment (renewed while one plays).
  const base = (): string => url(`s/${signed.session}/game/${entry.game}`);
  const answer = await fetch(`${base()}/state`, { credentials: "omit" });
  if (answer.status === 401) return say("expired", true);
  if (!answer.ok) return showGames(signed);
  document.body.dataset.activity = "table";
  const seat = el("div", "seat");
  const end = el("section", "result");
  end.hidden = true;
  main.replaceChildren(seat, end);
  const onOver = (): void => void showResult(signed, entry, end);
  mountTable({ texts: signed.table_texts, state: await answer.json(), base, onOver }, seat);
}

/** The end of one's game: who won and how, and the ratings before and after. */
async function showResult(signed: Signed, entry: GameEntry, box: HTMLElement): Promise<void> {
  const { status, body } = await json<{ over: boolean; text?: string; ratings?: string[]; unrated?: string }>(
    `s/${signed.session}/game/${entry.game}/result`,
  );
  if (status === 401) return say("expired", true);
  if (status !== 200 || !body.over) return;
  const ratings = el("ul", "ratings");
  for (const line of body.ratings ?? []) ratings.append(el("li", "", line));
  box.replaceChildren(
    el("h2", "", t("result")),
    el("p", "outcome", body.text ?? ""),
    ...(body.ratings?.length ? [ratings] : [el("p", "unrated", body.unrated ?? "")]),
    button(t("back"), () => void showGames(signed), { back: "1" }),
  );
  box.hidden = false;
  document.body.dataset.activity = "over";
}

let watched: AbortController | null = null; // the spectator's stream of the game watched

/** Stop following a watched game (the page shows something else now). */
function stopWatching(): void {
  watched?.abort();
  watched = null;
}

/** A game one does not play, as a spectator sees it: the table's spectator view
 * (ui/src/spectator.ts) on the Activity's own routes, authorised by the session (read
 * anew at each connection: it is renewed while one watches); the server sends its public
 * view only. */
async function openWatch(signed: Signed, entry: GameEntry, channel: string | null): Promise<void> {
  view += 1; // the list stops refreshing
  stopWatching();
  const controller = (watched = new AbortController());
  const base = (): string => url(`s/${signed.session}/watch/${entry.game}`);
  const box = el("section", "watched");
  box.dataset.game = String(entry.game);
  const back = button(t("back"), () => {
    stopWatching();
    void showGames(signed, channel, false);
  }, { back: "1" });
  main.replaceChildren(back, box);
  document.body.dataset.activity = "watch";
  try {
    await mountSpectator(box, { state: () => `${base()}/state`, events: () => `${base()}/events` }, undefined, controller.signal);
  } catch (error) {
    if (controller.signal.aborted) return; // left meanwhile
    if (error instanceof NotShown && error.status === 401) return say("expired", true);
    void showGames(signed, channel, false); // the game is gone (or its links were turned off)
  }
}

function shownName(person: Participant): string {
  return Array.from(person.nickname || person.global_name || person.username).slice(0, MAX_NAME).join("");
}

/** Tell the member what the server answered (a refusal is theirs alone), in the
 * lobby's notice of the moment (the list may have been refreshed meanwhile). */
function answered(status: number, body: { error?: string }, ok: string): boolean {
  if (status === 401) {
    say("expired", true);
    return false;
  }
  const box = main.querySelector<HTMLElement>(".lobby .told");
  if (box === null) return status === 200;
  const line = el("p", status === 200 ? "notice" : "notice error", status === 200 ? ok : (body.error ?? t("failed")));
  line.setAttribute("role", status === 200 ? "status" : "alert");
  box.replaceChildren(line);
  return status === 200;
}

/** Start a game: answer a challenge, challenge someone in the Activity, or play the AI. */
function lobby(signed: Signed, listed: Listed, channel: string | null): HTMLElement {
  const box = el("section", "lobby");
  const told = el("div", "told");
  told.setAttribute("aria-live", "polite");
  const challenges = el("ul", "challenges");
  for (const entry of listed.challenges) {
    const item = el("li", "", entry.text);
    item.dataset.challenge = String(entry.id);
    if (entry.answer) {
      for (const answer of ["accept", "decline"]) {
        item.append(
          " ",
          button(t(answer), async () => {
            const { status, body } = await postJSON<{ error?: string }>(
              `s/${signed.session}/challenge/${entry.id}/${answer}`,
              {},
            );
            if (answered(status, body, "")) void showGames(signed, channel);
          }),
        );
      }
    }
    challenges.append(item);
  }
  const others = participants.filter((person) => person.id !== signed.user.id && !person.bot);
  const start = el("div", "start");
  if (!listed.dm && channel !== null) {
    for (const person of others) {
      start.append(
        button(
          t("challenge", { name: shownName(person) }),
          async () => {
            const { status, body } = await postJSON<{ error?: string }>(`s/${signed.session}/challenge`, {
              channel,
              opponent: person.id,
            });
            if (answered(status, body, t("challenge_sent"))) void showGames(signed, channel, false);
          },
          { opponent: person.id },
        ),
        " ",
      );
    }
    if (others.length === 0) start.append(el("p", "", t("no_one_here")));
  }
  for (const level of LEVELS) {
    start.append(
      button(
        t("practice", { level: t(`level.${level}`) }),
        async () => {
          const { status, body } = await postJSON<{ error?: string }>(`s/${signed.session}/practice`, {
            channel: listed.dm ? null : channel,
            level,
          });
          if (answered(status, body, "")) void showGames(signed, channel);
        },
        { level },
      ),
      " ",
    );
  }
  box.append(el("h2", "", t("new_game")), ...(listed.challenges.length ? [challenges] : []), start, told);
  return box;
}

let view = 0; // the list shown; a newer one (or a seat) stops its refreshes

async function showGames(signed: Signed, channel: string | null = sdk.channelId, openOwn = true): Promise<void> {
  const shown = ++view;
  const dm = sdk.guildId === null;
  const query = `channel=${encodeURIComponent(channel ?? "0")}${dm ? "&dm=1" : ""}`;
  const { status, body } = await json<Listed>(`s/${signed.session}/games?${query}`);
  if (shown !== view) return; // something newer is on the page
  if (status === 401) return say("expired", true);
  const here = new Set(participants.map((person) => person.id));
  // One's own game: in a server channel the one there; in a DM the one with the person here.
  const own = dm ? body.mine.filter((entry) => here.has(entry.opponent ?? "")) : body.mine;
  if (openOwn && own.length > 0) return openSeat(signed, own[0]);
  const heading = el("h1", "", t("title"));
  const parts: HTMLElement[] = [heading];
  if (body.mine.length > 0) {
    const list = el("ul", "games mine");
    for (const entry of body.mine) list.append(gameButton(entry, "open_game", () => void openSeat(signed, entry)));
    parts.push(el("h2", "", t(dm ? "your_games_dm" : "your_games")), list);
  } else if (dm) {
    parts.push(el("p", "", t("no_games_dm")));
  }
  if (body.lobby) parts.push(lobby(signed, body, channel));
  if (!dm) {
    const list = el("ul", "games");
    for (const entry of body.watch) {
      list.append(gameButton(entry, "watch_game", () => void openWatch(signed, entry, channel)));
    }
    parts.push(...(body.watch.length ? [el("h2", "", t("watch_games")), list] : [el("p", "", t("no_games"))]));
  }
  const told = main.querySelector(".lobby .told");
  main.replaceChildren(...parts);
  const again = main.querySelector(".lobby .told");
  if (told && again) again.replaceWith(told); // what the server answered stays shown
  document.body.dataset.activity = "games";
  window.setTimeout(() => {
    if (shown === view) void showGames(signed, channel, openOwn || body.mine.length === 0);
  }, 3000); // the games and challenges change
}

/** Renew the session before it ends (the server answers a new one, once per session);
 * refused, the member is told to open the Activity again. */
function renewSession(signed: Signed): void {
  window.setTimeout(async () => {
    let answer: { status: number; body: { session?: string; renew_in?: number } };
    try {
      answer = await postJSON(`s/${signed.session}/renew`, {});
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

/** Who is in the Activity: asked once, then kept up to date by Discord's event. */
async function followParticipants(): Promise<void> {
  try {
    participants = (await sdk.commands.getInstanceConnectedParticipants()).participants;
    await sdk.subscribe("ACTIVITY_INSTANCE_PARTICIPANTS_UPDATE", (update: { participants: Participant[] }) => {
      participants = update.participants;
    });
  } catch {
    participants = []; // the list stays without challenges to people here
  }
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
  const { status, body } = await postJSON<Signed>("token", { code });
  if (status !== 200) return say("refused", true);
  await sdk.commands.authenticate({ access_token: body.access_token });
  texts = body.texts;
  document.documentElement.lang = body.language;
  renewSession(body);
  await followParticipants();
  await showGames(body);
}

if (!new URLSearchParams(window.location.search).has("frame_id")) {
  say("outside", true); // opened as a plain page: no Discord client to speak to
} else {
  start().catch(() => say("refused", true));
}
