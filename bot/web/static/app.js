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

function follow(url) {
  const source = new EventSource(url);
  source.addEventListener("game", function (event) {
    liveUpdate(JSON.parse(event.data));
  });
  source.addEventListener("end", function () {
    source.close();
  });
}

function stepWithKeys() {
  document.addEventListener("keydown", function (event) {
    if (event.altKey || event.ctrlKey || event.metaKey) return;
    const target = { ArrowLeft: "back", ArrowRight: "forward", Home: "first", End: "last" }[event.key];
    const link = target && document.getElementById(target);
    if (link) {
      event.preventDefault();
      window.location.assign(link.href);
    }
  });
}

document.addEventListener("DOMContentLoaded", function () {
  const page = document.body.dataset.page;
  if (page === "live" && document.body.dataset.events) follow(document.body.dataset.events);
  if (page === "replay") stepWithKeys();
});
