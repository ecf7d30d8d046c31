// The spectator page of one board: the board as SVG, the clocks running, the moves with
// their fights and comments; it follows the board's event stream.
"use strict";

(function () {
  var C = Companion, T = C.T;
  var state = null, receivedAt = 0;

  document.getElementById("pgn-link").textContent = T.pgn;
  document.getElementById("json-link").textContent = T.json;
  document.getElementById("moves-title").textContent = T.moves;

  function render(data) {
    state = data;
    receivedAt = Date.now();
    document.body.classList.remove("lost");
    var title = document.getElementById("title"), sub = document.getElementById("subtitle");
    if (data.state === "idle") {
      title.textContent = data.name || T.boardTitle;
      sub.textContent = T.noGame;
      document.getElementById("board").textContent = "";
      document.getElementById("clocks").textContent = "";
      document.getElementById("moves").textContent = "";
      document.getElementById("status").textContent = "";
      return;
    }
    title.textContent = data.players.join(" – ");
    var parts = [];
    if (data.event) parts.push(data.event);
    if (data.round) parts.push(C.fmt(T.round, { round: data.round }));
    if (data.board) parts.push(C.fmt(T.board, { board: data.board }));
    parts.push(data.name);
    sub.textContent = parts.join(" · ");
    if (data.svg) document.getElementById("board").innerHTML = data.svg;
    renderMoves(data);
    renderClocks();
    renderStatus(data);
  }

  function renderStatus(data) {
    var s = document.getElementById("status"), text;
    if (data.state === "over") text = C.fmt(T.over, { result: T.resultWords[data.result] || data.result });
    else if (data.state === "paused") text = T.paused;
    else if (data.pending) text = C.fmt(T.waitingFor, { what: data.pending === "fight" ? T.fight : T.decision });
    else text = C.fmt(T.toMove, { name: data.players[data.turn] || "" });
    s.textContent = text;
  }

  function renderMoves(data) {
    var list = document.getElementById("moves");
    list.textContent = "";
    var per = data.players.length > 2 ? data.players.length : 2, row = null;
    data.moves.forEach(function (m, i) {
      if (i % per === 0) {
        row = C.el("li", "move-row");
        list.appendChild(row);
      }
      var cell = C.el("span", "move", m.move);
      if (m.fight) {
        var word = m.fight === "attacker" ? T.fightWon : m.fight === "defender" ? T.fightLost : T.fightBounced;
        cell.appendChild(C.el("span", "fight-mark " + m.fight, " (" + word + ")"));
      }
      if (m.comment) cell.title = m.comment;
      row.appendChild(cell);
    });
    list.scrollTop = list.scrollHeight;
  }

  function renderClocks() {
    var box = document.getElementById("clocks");
    if (!state || state.state === "idle") return;
    box.textContent = "";
    var clock = state.clock, now = Date.now();
    var shown = clock ? C.times(clock, receivedAt, now) : null;
    state.players.forEach(function (name, i) {
      var running = clock ? clock.running === i && clock.counting : state.turn === i && state.state === "playing";
      var row = C.el("div", "clock" + (running ? " running" : "") + (clock && clock.flagged === i ? " flagged" : ""));
      row.appendChild(C.el("span", "marker", running ? "▶" : ""));
      var swatch = C.el("span", "swatch");
      var colours = state.board_picture ? state.board_picture.colours : [];
      if (colours[i]) swatch.style.background = colours[i];
      row.appendChild(swatch);
      row.appendChild(C.el("span", "name", name));
      var out = (state.out || []).indexOf(i) >= 0;
      if (out) row.classList.add("out");
      // a game that keeps points (four-player chess): each player's, and who is out
      var detail = state.points ? C.fmt(T.points, { n: state.points[i] }) + (out ? " · " + T.out : "") : (out ? T.out : "");
      if (detail) row.appendChild(C.el("span", "points", detail));
      if (shown) row.appendChild(C.el("span", "time", C.face(shown[i]) + (clock.flagged === i ? " ⚑" : "")));
      box.appendChild(row);
    });
  }

  function lost() {
    document.body.classList.add("lost");
    document.getElementById("status").textContent = T.connectionLost;
  }

  C.follow("/live.json", "/events", "game", render, lost);
  setInterval(renderClocks, 100);
})();
