// The replay's and the ladder's script (the Content Security Policy allows no inline one).
// The replay steps a turn at a time without reloading. (The watch page is the table's:
// ui/src/spectator.ts, its event stream followed by ui/src/follow.ts.)
// Everything from the server is written with textContent, never as HTML.
"use strict";

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
  if (document.body.dataset.page === "replay") replayer();
});
