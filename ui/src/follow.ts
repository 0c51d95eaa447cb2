// Following a game's public event stream (bot/web/server.py: /watch/.../events), and
// reconnecting by itself when the stream is refused (429: too many pages from one
// address) or lost (the server restarts, a proxy answers 502). Every stream starts with
// the game as it is now, so a reconnected page catches up. The spectator's view
// (ui/src/spectator.ts, "game" events) and a player's seat (ui/src/table_view.ts, "state"
// events, the seat's own stream) use it.

/** The connection as a page shows it: live, reconnecting, refused (counting down), over. */
export type Connection = "live" | "reconnecting" | "refused" | "over";

export interface Listener {
  game(data: unknown): void; // the state now (the event named by FollowOptions.event)
  connection(state: Connection, seconds?: number): void;
}

export interface FollowOptions {
  signal?: AbortSignal; // aborted: the page left the game
  event?: string; // the name of the events that carry the state: "game" (the spectator's)
}

const RETRY_FIRST = 1000; // ms before the first retry; doubled each time, up to RETRY_MOST
const RETRY_MOST = 30000;

function retryDelay(attempt: number, retryAfter: number): number {
  const ceiling = Math.min(RETRY_MOST, RETRY_FIRST * Math.pow(2, attempt));
  const jittered = ceiling / 2 + Math.random() * (ceiling / 2); // spread pages that lost the server together
  return Math.max(jittered, Math.min(RETRY_MOST, retryAfter * 1000)); // the server's Retry-After, bounded
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => window.setTimeout(resolve, ms));
}

async function countDown(ms: number, listener: Listener): Promise<void> {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    listener.connection("refused", Math.ceil((until - Date.now()) / 1000));
    await sleep(Math.min(1000, until - Date.now()));
  }
}

/** Reads one event stream until it ends; calls onEvent(name, data) per event. */
async function readStream(body: ReadableStream<Uint8Array>, onEvent: (name: string, data: string) => void): Promise<void> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let buffer = "";
  for (;;) {
    const { value, done } = await reader.read();
    if (done) return;
    buffer += decoder.decode(value, { stream: true }).replace(/\r\n?/g, "\n");
    let end: number;
    while ((end = buffer.indexOf("\n\n")) >= 0) {
      const block = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      let name = "message";
      const data: string[] = [];
      for (const line of block.split("\n")) {
        if (line.startsWith("event:")) name = line.slice(6).trim();
        else if (line.startsWith("data:")) data.push(line.slice(5).replace(/^ /, ""));
      }
      if (data.length || name !== "message") onEvent(name, data.join("\n"));
    }
  }
}

/** Follows the game at ``url`` (read again before each connection: a URL may carry a
 * session that is renewed meanwhile) until it is over or ``options.signal`` aborts; on a
 * refused or lost stream tries again after a growing, jittered delay, saying so through
 * ``listener.connection``. */
export async function follow(url: string | (() => string), listener: Listener, options: FollowOptions = {}): Promise<void> {
  const { signal, event = "game" } = options;
  let attempt = 0;
  let over = false;
  while (!over) {
    if (signal?.aborted) return; // the page left the game: no "over" to say
    let retryAfter = 0;
    let refused = false;
    try {
      const address = typeof url === "string" ? url : url();
      const response = await fetch(address, { headers: { Accept: "text/event-stream" }, cache: "no-store", credentials: "omit", signal });
      if (response.ok && response.body) {
        await readStream(response.body, (name, text) => {
          if (name === event) {
            const data = JSON.parse(text) as { over?: boolean };
            listener.game(data);
            attempt = 0;
            over = Boolean(data.over);
            listener.connection(over ? "over" : "live");
          } else if (name === "end") {
            over = true;
          }
        });
      } else {
        refused = response.status === 429;
        retryAfter = Number(response.headers.get("Retry-After")) || 0;
        await response.body?.cancel();
      }
    } catch {
      // the network or the server went away (or the page left the game): try again below
    }
    if (signal?.aborted) return;
    if (over) break;
    const delay = retryDelay(attempt, retryAfter);
    attempt += 1;
    if (refused) {
      await countDown(delay, listener);
    } else {
      listener.connection("reconnecting");
      await sleep(delay);
    }
  }
  listener.connection("over");
}
