// The web companion's one script (the Content Security Policy allows no other):
// the live page follows its game's event stream; the replay steps with the arrow keys.
"use strict";

function liveUpdate(data) {
  document.body.dataset.version = String(data.version);
  document.getElementById("title").textContent = data.title;
  document.getElementById("status").textContent = data.status;
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
  const list = document.getElementById("moves");
  list.replaceChildren();
  for (const move of data.moves) {
    const item = document.createElement("li");
    item.textContent = move;
    list.appendChild(item);
  }
  const none = document.getElementById("no-moves");
  if (none) none.hidden = data.moves.length > 0;
  if (data.replay && !document.getElementById("replay")) {
    const paragraph = document.createElement("p");
    const link = document.createElement("a");
    link.id = "replay";
    link.href = data.replay;
    link.textContent = data.replay_label;
    paragraph.appendChild(link);
    list.after(paragraph);
  }
}

// The stream refused (too many pages: 429) or cut (a restart behind a proxy: 502) is
// opened again after a growing pause, and the page says so meanwhile.
function follow(url, retry) {
  const state = document.getElementById("connection");
  const source = new EventSource(url);
  let ended = false;
  source.addEventListener("open", function () {
    retry = 1000;
    if (state) state.hidden = true;
  });
  source.addEventListener("game", function (event) {
    if (state) state.hidden = true;
    liveUpdate(JSON.parse(event.data));
  });
  source.addEventListener("end", function () {
    ended = true;
    source.close();
  });
  source.addEventListener("error", function () {
    if (ended) return;
    if (state) {
      state.textContent = state.dataset.offline;
      state.hidden = false;
    }
    if (source.readyState === EventSource.CLOSED) {
      window.setTimeout(function () {
        follow(url, Math.min(retry * 2, 30000));
      }, retry);
    }
  });
}

// A replay steps without reloading the page: the step's page is fetched and its <main>
// put in place (the scroll position stays), the address follows (Back works). Anything
// that fails loads the step as a page.
function stepTo(url, push) {
  fetch(url, { credentials: "omit" })
    .then(function (response) {
      if (!response.ok) throw new Error(String(response.status));
      return response.text();
    })
    .then(function (text) {
      const next = new DOMParser().parseFromString(text, "text/html");
      const main = next.querySelector("main");
      if (!main || next.body.dataset.page !== "replay") throw new Error("not a replay");
      document.querySelector("main").replaceWith(document.adoptNode(main));
      document.body.dataset.step = next.body.dataset.step || "";
      document.title = next.title;
      if (push) window.history.pushState(null, "", url);
    })
    .catch(function () {
      window.location.assign(url);
    });
}

function stepWithKeys() {
  document.addEventListener("keydown", function (event) {
    if (event.altKey || event.ctrlKey || event.metaKey) return;
    const target = { ArrowLeft: "back", ArrowRight: "forward", Home: "first", End: "last" }[event.key];
    const link = target && document.getElementById(target);
    if (link) {
      event.preventDefault();
      stepTo(link.href, true);
    }
  });
  document.addEventListener("click", function (event) {
    const link = event.target instanceof Element ? event.target.closest("nav.steps a, #moves a") : null;
    if (!link || event.button !== 0 || event.altKey || event.ctrlKey || event.metaKey || event.shiftKey) return;
    event.preventDefault();
    stepTo(link.href, true);
  });
  window.addEventListener("popstate", function () {
    stepTo(window.location.href, false);
  });
}

document.addEventListener("DOMContentLoaded", function () {
  const page = document.body.dataset.page;
  if (page === "live" && document.body.dataset.events) follow(document.body.dataset.events, 1000);
  if (page === "replay") stepWithKeys();
});
