// The web companion's one script (the Content Security Policy allows no other).
// The live page follows its game's event stream and reconnects by itself when the stream
// is refused or lost, saying so; the replay steps a turn at a time without reloading.
// Everything from the server is written with textContent, never as HTML.
"use strict";

// ------------------------------------------------------------------------- live

function setText(id, text) {
  const element = document.getElementById(id);
  if (element) element.textContent = text;
}

function setList(id, lines) {
  const list = document.getElementById(id);
  if (!list) return;
  list.replaceChildren();
  for (const line of lines) {
    const item = document.createElement("li");
    item.textContent = line;
    list.appendChild(item);
  }
}

function liveUpdate(data) {
  document.body.dataset.version = String(data.version);
  setText("title", data.title);
  setText("status", data.status);
  const board = document.getElementById("board");
  if (board.getAttribute("src") !== data.board) {
    board.setAttribute("src", data.board);
  }
  const rows = document.querySelectorAll("#players tbody tr");
  data.players.forEach(function (player, seat) {
    const row = rows[seat];
    if (!row) return;
    for (const key of ["name", "rating", "stones", "hand"]) {
      row.querySelector("." + key).textContent = String(player[key]);
    }
  });
  setList("moves", data.moves);
  setList("description", data.description || []);
  const none = document.getElementById("no-moves");
  if (none) none.hidden = data.moves.length > 0;
  if (data.replay && !document.getElementById("replay")) {
    const paragraph = document.createElement("p");
    const link = document.createElement("a");
    link.id = "replay";
    link.href = data.replay;
    link.textContent = data.replay_label;
    paragraph.appendChild(link);
    document.getElementById("moves").after(paragraph);
  }
}

// The connection's state, shown and in data-connection for tests:
// live, reconnecting, refused (too many pages from this address), over.
function showConnection(state, seconds) {
  const line = document.getElementById("connection");
  if (!line) return;
  const texts = document.body.dataset;
  const text = {
    live: texts.textLive,
    reconnecting: texts.textReconnecting,
    refused: (texts.textRefused || "").replace("{seconds}", String(seconds)),
    over: texts.textOver,
  }[state];
  document.body.dataset.connection = state;
  line.textContent = text || "";
  line.hidden = !text;
  line.className = "connection " + state;
}

const RETRY_FIRST = 1000; // ms before the first retry; doubled each time, up to RETRY_MOST
const RETRY_MOST = 30000;

function retryDelay(attempt, retryAfter) {
  const ceiling = Math.min(RETRY_MOST, RETRY_FIRST * Math.pow(2, attempt));
  const jittered = ceiling / 2 + Math.random() * (ceiling / 2); // spread pages that lost the server together
  return Math.max(jittered, Math.min(RETRY_MOST, retryAfter * 1000)); // the server's Retry-After, bounded
}

function sleep(ms) {
  return new Promise(function (resolve) {
    setTimeout(resolve, ms);
  });
}

async function countDown(ms) {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    showConnection("refused", Math.ceil((until - Date.now()) / 1000));
    await sleep(Math.min(1000, until - Date.now()));
  }
}

// Reads one event stream until it ends; calls onEvent(name, data) per event.
async function readStream(body, onEvent) {
  const reader = body.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = "";
  for (;;) {
    const { value, done } = await reader.read();
    if (done) return;
    buffer += value.replace(/\r\n?/g, "\n");
    let end;
    while ((end = buffer.indexOf("\n\n")) >= 0) {
      const block = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      let name = "message";
      const data = [];
      for (const line of block.split("\n")) {
        if (line.startsWith("event:")) name = line.slice(6).trim();
        else if (line.startsWith("data:")) data.push(line.slice(5).replace(/^ /, ""));
      }
      if (data.length || name !== "message") onEvent(name, data.join("\n"));
    }
  }
}

// Follows the game; on a refused or lost stream tries again after a growing, jittered
// delay. Every stream starts with the game as it is now, so a reconnected page catches up.
async function follow(url) {
  let attempt = 0;
  let over = document.body.dataset.over === "1";
  if (over) {
    showConnection("over");
    return;
  }
  while (!over) {
    let retryAfter = 0;
    let refused = false;
    try {
      const response = await fetch(url, { headers: { Accept: "text/event-stream" }, cache: "no-store" });
      if (response.ok && response.body) {
        await readStream(response.body, function (name, text) {
          if (name === "game") {
            const data = JSON.parse(text);
            liveUpdate(data);
            attempt = 0;
            over = Boolean(data.over);
            showConnection(over ? "over" : "live");
          } else if (name === "end") {
            over = true;
            showConnection("over");
          }
        });
      } else {
        refused = response.status === 429;
        retryAfter = Number(response.headers.get("Retry-After")) || 0;
        await response.body?.cancel();
      }
    } catch (error) {
      // the network or the server went away: try again below
    }
    if (over) break;
    const delay = retryDelay(attempt, retryAfter);
    attempt += 1;
    if (refused) {
      await countDown(delay);
    } else {
      showConnection("reconnecting");
      await sleep(delay);
    }
  }
  showConnection("over");
}

// ----------------------------------------------------------------------- replay

// Steps a replay a turn at a time without reloading: the positions come as JSON once;
// the links still work without the script (and until the positions have arrived).
function replayer() {
  const body = document.body.dataset;
  let positions = null;
  let ends = [];
  let turn = Number(body.turn || 0);

  function show(next) {
    if (!positions) return false;
    turn = Math.max(0, Math.min(positions.length - 1, next));
    const position = positions[turn];
    body.turn = String(turn);
    body.step = String(position.step);
    setText("step", position.label);
    setText("status", position.status);
    document.getElementById("board").setAttribute("src", position.board);
    document.querySelectorAll("p.hand").forEach(function (hand, seat) {
      hand.textContent = position.hands[seat];
    });
    setList("description", position.description);
    document.querySelectorAll("#moves li").forEach(function (item, index) {
      item.classList.toggle("current", index + 1 === turn);
    });
    const here = window.location.pathname;
    const links = { first: 0, back: ends[Math.max(0, turn - 1)], forward: ends[Math.min(ends.length - 1, turn + 1)], last: ends[ends.length - 1] };
    for (const [id, step] of Object.entries(links)) {
      const link = document.getElementById(id);
      if (link) link.href = here + "?step=" + step;
    }
    history.replaceState(null, "", here + "?step=" + position.step);
    for (const near of [turn - 1, turn + 1]) {
      if (positions[near]) new Image().src = positions[near].board; // the next picture, ready
    }
    return true;
  }

  const moves = { first: () => 0, back: () => turn - 1, forward: () => turn + 1, last: () => Infinity };
  document.addEventListener("keydown", function (event) {
    if (event.altKey || event.ctrlKey || event.metaKey) return;
    const target = { ArrowLeft: "back", ArrowRight: "forward", Home: "first", End: "last" }[event.key];
    const link = target && document.getElementById(target);
    if (!link) return;
    event.preventDefault();
    if (!show(moves[target]())) window.location.assign(link.href);
  });
  document.addEventListener("click", function (event) {
    if (event.button !== 0 || event.altKey || event.ctrlKey || event.metaKey || event.shiftKey) return;
    const link = event.target.closest("nav.steps a, #moves a");
    if (!link || !positions) return;
    event.preventDefault();
    show(link.dataset.turn !== undefined ? Number(link.dataset.turn) : moves[link.id]());
  });
  if (!body.positions) return;
  fetch(body.positions, { cache: "no-store" })
    .then(function (response) {
      return response.ok ? response.json() : null;
    })
    .then(function (data) {
      if (!data) return;
      ends = data.ends;
      positions = data.positions;
      body.stepping = "1";
    })
    .catch(function () {
      // the links still step the replay
    });
}

document.addEventListener("DOMContentLoaded", function () {
  const page = document.body.dataset.page;
  if (page === "live" && document.body.dataset.events) follow(document.body.dataset.events);
  if (page === "replay") replayer();
});
