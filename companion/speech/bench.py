"""Benchmark: speech (``companion bench --only speech``).

* **Time to the first sound**: from the moment a move is handed to the voice
  (:meth:`~companion.speech.espeak.Voice.say`, what the wiring does as the game takes the
  move) to the first bytes of sound espeak-ng gives for it, which are written to ALSA as they
  come. The target is 300 ms (the Pi is 5-10x slower at starting espeak-ng than this
  machine: a budget for it).
* **Event to LED frame with speech on**: the tracker's benchmark cycle (the 8x8 start: pieces
  lifted, put down and back) with and without the announcer listening to every event and the
  voice speaking (a real espeak-ng on its own thread, every lift said and cut short by the
  next), in the same run: the p99 of both and their ratio. Speech must not slow the LEDs.

Nothing is played: the voice's sink writes to /dev/null. Timed with ``perf_counter`` here.
"""

from __future__ import annotations

import statistics
import time

from ..board.tracker_bench import START, _p99, _start_cycle
from ..i18n import Language
from .announcements import Announcement, Kind, Priority, SpeechSettings
from .announcer import Announcer
from .espeak import Voice, find_espeak

Row = tuple[str, float, str]
SINK = ["sh", "-c", "cat > /dev/null"]


def _first_sound(voice: Voice, moves: int) -> list[float]:
    texts = ["Knight takes e5, check", "Pawn e4", "Queen takes f7, checkmate", "Castles kingside"]
    before = len(voice.latencies_ms)
    for i in range(moves):
        voice.say([Announcement(texts[i % len(texts)], "en", Priority.MOVE, Kind.MOVE)])
        voice.wait_idle(30)
    return list(voice.latencies_ms)[before:]


def _led_path(events: int, speak: Voice | None) -> list[float]:
    """Seconds from each sensor event to its LED frame, with the announcer and the voice (as
    the app wires them: after the frame) when ``speak`` is given."""
    from ..board.palette import render
    from ..board.ports import SquareChanged
    from ..board.tracker import LedsChanged, Tracker
    from ..games import make_rules

    rules = make_rules("chess")
    pos = rules.position_from_text(START)
    tracker = Tracker(rules, pos)
    announcer = Announcer(Language.load("en"), ["white", "black"], rules, lambda: pos)
    cycle = _start_cycle(rules.geometry)
    size = rules.geometry.size
    meanings: dict = {}
    wall = []
    for i in range(events):
        sq, occupied = cycle[i % len(cycle)]
        t_ms = i * 40  # a quick hand: 25 changes a second
        event = SquareChanged(sq, occupied, t_ms)
        start = time.perf_counter()
        outputs = tracker.feed(event)
        for o in outputs:
            if isinstance(o, LedsChanged):
                meanings = o.meanings
        render(meanings, size, t_ms=t_ms)
        wall.append(time.perf_counter() - start)
        if speak is not None:  # after the frame, as the wiring does
            speak.say(announcer.hear([event, *outputs], t_ms) + announcer.tick(t_ms))
        time.sleep(0.002)  # the UI loop's other work; the voice's thread and espeak-ng run meanwhile
    return wall


def bench_speech(quick: bool = False) -> list[Row]:
    if find_espeak() is None:
        return [("speech: espeak-ng is not installed (no figures)", 0.0, "")]
    voice = Voice(SpeechSettings(on=True), sink=SINK).start()
    try:
        _first_sound(voice, 2)  # warm the disk cache: the first espeak-ng start reads its voice data
        latencies = _first_sound(voice, 10 if quick else 40)
        events = 400 if quick else 3000
        _led_path(100, None)
        off = _led_path(events, None)
        on = _led_path(events, voice)
        voice.wait_idle(30)
    finally:
        voice.close()
    lat = sorted(latencies)
    return [
        ("speech: move to first sound median", statistics.median(lat), "ms"),
        ("speech: move to first sound p95", lat[min(len(lat) - 1, int(len(lat) * 0.95))], "ms"),
        ("speech: move to first sound max", lat[-1], "ms"),
        ("speech: event to LED frame p99, speech off", _p99(off) * 1000, "ms"),
        ("speech: event to LED frame p99, speech on", _p99(on) * 1000, "ms"),
        ("speech: event to LED p99 ratio on/off", _p99(on) / _p99(off), "x"),
    ]
