// Shared by the spectator page and the hall page: clock faces, a clock that runs on between
// two updates, and small DOM helpers. Text from the network is only ever set as textContent;
// the only markup inserted is the board's SVG, made by our own server from checked data.
"use strict";

var Companion = (function () {
  var T = window.TEXTS || {};
  if (T.lang) { document.documentElement.lang = T.lang; }  // the words' language (the spectator's)

  function fmt(template, values) {
    return String(template).replace(/\{(\w+)\}/g, function (_, k) { return values[k] === undefined ? "" : values[k]; });
  }

  // The same faces as the touchscreen's clock: 1:29:58, 4:07, tenths under ten seconds.
  function face(ms) {
    ms = Math.max(0, Math.floor(ms));
    if (ms < 10000) {
      var tenths = Math.ceil(ms / 100);
      return Math.floor(tenths / 10) + "." + (tenths % 10);
    }
    var s = Math.ceil(ms / 1000), h = Math.floor(s / 3600), m = Math.floor((s % 3600) / 60);
    s = s % 60;
    var two = function (n) { return (n < 10 ? "0" : "") + n; };
    return h ? h + ":" + two(m) + ":" + two(s) : m + ":" + two(s);
  }

  // Each side's time now: the running side's counts down from when the data was true
  // (received, less its age in the hall; after the delay of a simple-delay control).
  function times(clock, receivedAt, now) {
    var out = clock.times_ms.slice();
    if (clock.counting && clock.running !== null && clock.flagged === null) {
      var used = Math.max(0, now - receivedAt) + (clock.age_ms || 0) - (clock.delay_ms || 0);
      if (used > 0) out[clock.running] = Math.max(0, out[clock.running] - used);
    }
    return out;
  }

  function el(tag, cls, text) {
    var e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined && text !== null) e.textContent = text;
    return e;
  }

  // EventSource with a first plain fetch, so the page shows the game at once; the stream is
  // opened a moment later (a headless browser taking a screenshot never waits on it).
  function follow(jsonUrl, streamUrl, eventName, onData, onLost) {
    fetch(jsonUrl, { cache: "no-store" }).then(function (r) { return r.json(); })
      .then(onData).catch(function () { onLost(); });
    setTimeout(function () {
      if (!window.EventSource) return;
      var source = new EventSource(streamUrl);
      source.addEventListener(eventName, function (e) { onData(JSON.parse(e.data)); });
      source.onerror = onLost;
    }, 1500);
  }

  return { T: T, fmt: fmt, face: face, times: times, el: el, follow: follow };
})();
