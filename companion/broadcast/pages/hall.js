// The hall page: every board small, its players, clocks, result and status; boards that
// are off the network stay with their last known game, marked as such.
"use strict";

(function () {
  var C = Companion, T = C.T;
  var boards = {}, cards = {};

  document.getElementById("title").textContent = T.hallTitle;
  document.getElementById("round-link").textContent = T.roundPgn;
  document.getElementById("results-link").textContent = T.results;

  function update(data) {
    document.body.classList.remove("lost");
    var now = Date.now();
    data.boards.forEach(function (b) { b.receivedAt = now; boards[b.key] = b; draw(b); });
    order();
    var n = Object.keys(boards).length;
    document.getElementById("subtitle").textContent = n ? C.fmt(T.boardsCount, { n: n }) : T.noBoards;
  }

  function sortKey(b) {
    var num = function (t) { var n = parseInt(t, 10); return isNaN(n) ? 1e9 : n; };
    return [num(b.round || ""), num(b.board || ""), b.name || b.key];
  }

  function order() {
    var list = Object.keys(boards).map(function (k) { return boards[k]; });
    list.sort(function (a, b) {
      var x = sortKey(a), y = sortKey(b);
      for (var i = 0; i < x.length; i++) { if (x[i] < y[i]) return -1; if (x[i] > y[i]) return 1; }
      return 0;
    });
    var main = document.getElementById("boards");
    list.forEach(function (b) { main.appendChild(cards[b.key]); });
  }

  function draw(b) {
    var card = cards[b.key];
    if (!card) {
      card = cards[b.key] = C.el("article", "card");
      card.appendChild(C.el("h2", "card-title"));
      card.appendChild(C.el("div", "mini"));
      card.appendChild(C.el("div", "clocks"));
      card.appendChild(C.el("p", "card-status"));
    }
    card.className = "card status-" + b.status.replace(" ", "-");
    var title = [];
    if (b.board) title.push(C.fmt(T.board, { board: b.board }));
    if (b.round) title.push(C.fmt(T.round, { round: b.round }));
    if (!title.length) title.push(b.name || C.fmt(T.unnamed, { address: b.key }));
    card.querySelector(".card-title").textContent = title.join(" · ");
    var mini = card.querySelector(".mini");
    if (b.svg) mini.innerHTML = b.svg; else mini.textContent = "";
    var words = { live: T.live, stale: T.stale, off: T.off, waiting: T.waiting, "no game": T.noGameYet,
                  refused: C.fmt(T.refused, { reason: b.problem }) }[b.status];
    var status = b.players ? (T.resultWords[b.result] || b.result) + " · " + words : words;
    if (b.status === "off" && b.problem) status += " (" + b.problem + ")";
    card.querySelector(".card-status").textContent = status;
    drawClocks(b);
  }

  function drawClocks(b) {
    var box = cards[b.key].querySelector(".clocks");
    box.textContent = "";
    if (!b.players) return;
    var live = b.status === "live" || b.status === "stale";
    var shown = b.clock ? (live ? C.times(b.clock, b.receivedAt, Date.now()) : b.clock.times_ms) : null;
    b.players.forEach(function (name, i) {
      var running = b.clock && b.clock.running === i && b.clock.counting;
      var row = C.el("div", "clock" + (running ? " running" : ""));
      row.appendChild(C.el("span", "marker", running ? "▶" : ""));
      row.appendChild(C.el("span", "name", name));
      if (shown) row.appendChild(C.el("span", "time", C.face(shown[i])));
      box.appendChild(row);
    });
  }

  function tick() {
    Object.keys(boards).forEach(function (k) { if (boards[k].clock) drawClocks(boards[k]); });
  }

  function lost() {
    document.body.classList.add("lost");
    document.getElementById("subtitle").textContent = T.connectionLost;
  }

  C.follow("/hall.json", "/events", "boards", update, lost);
  setInterval(tick, 200);
})();
