"""Property: every parser of outside input gives a valid value or a clear CompanionError, never
another exception, never a hang (Hypothesis).

Outside input is whatever a person, a file or a wire hands the program: map and variant TOML
(maps, rosters, armies, evaluation tables), board profiles, the position texts of every game
(FEN and the extended format), journal lines and whole journals replayed into a game, sensor
logs, dice records, serial frames. Each property starts from real, valid examples and damages
them (characters changed, cut, doubled; hostile tokens spliced in: thousands of digits, deep
nesting, NaN, control characters, non-ASCII digits), or builds hostile JSON values directly.

A hang is caught by a timer (:func:`no_hang`): an example that takes over ``HANG_SECONDS``
fails. The example database is off (tests/conftest.py), so nothing is written into the
repository; the budgets keep this module to well under a minute.
"""

from __future__ import annotations

import contextlib
import functools
import json
import os
import signal
import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.board import protocol
from companion.board.profiles import PROFILE_DIR, parse_profile
from companion.board.replay import replay as replay_log
from companion.core.rules import iter_perft
from companion.core.roster import DATA_DIR, load_roster
from companion.dice.record import format_record, parse_record
from companion.errors import CompanionError
from companion.games import GAMES, make_rules
from companion.games.draft import load_armies_file
from companion.ai.eval_table import TABLE_DIR, load_table
from companion.journal import format_line, parse_line, read_journal
from companion.maps import MAPS_DIR, available_maps, parse_map
from companion.session import GameSetup, Seat, Session
from tests.conftest import ROOT

pytestmark = pytest.mark.slow  # Hypothesis damages every format many times: out of the quick loop

HANG_SECONDS = 10
#: Examples per property; COMPANION_FUZZ_SCALE=20 runs twenty times as many (a longer hunt).
SCALE = float(os.environ.get("COMPANION_FUZZ_SCALE", "1"))
FUZZ = settings(max_examples=int(120 * SCALE), deadline=None, suppress_health_check=[HealthCheck.too_slow])

#: Tokens a hostile or damaged file is made of.
HOSTILE = ["9" * 5000, "-" + "9" * 30, "1e999999", "-1e400", "NaN", "Infinity", "[" * 3000, "{" * 500,
           '"' + "a" * 300, "\x00", "\u2028", "\ufeff", "\ud7ff", "²", "٣", "0x" + "f" * 40, "1_000", "-0",
           "null", "true", "[]", "{}", '""', "\\", "'''", '"""', "\n", "\r\n", "=", ",", ":", "/", " "]


@contextlib.contextmanager
def no_hang(seconds: float = HANG_SECONDS):
    """Fail (TimeoutError) if the block runs longer than ``seconds``."""

    def alarm(*_):
        raise TimeoutError(f"no answer within {seconds} s: a hang")

    previous = signal.signal(signal.SIGALRM, alarm)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


def clear_or_value(parse, *args):
    """``parse(*args)``: a value, or a CompanionError with a one-line message. Anything else
    (a KeyError, a RecursionError, a ValueError from int(), a hang) fails the property."""
    with no_hang():
        try:
            return parse(*args)
        except CompanionError as e:
            message = str(e)
            assert message.strip() and "Traceback" not in message, repr(message)
            return e


@st.composite
def damaged(draw, texts: list[str]):
    """One of ``texts`` with a few random edits: a hostile token spliced in, characters
    replaced, a piece cut out or doubled."""
    text = draw(st.sampled_from(texts))
    for _ in range(draw(st.integers(1, 4))):
        at = draw(st.integers(0, len(text)))
        kind = draw(st.sampled_from(["token", "char", "cut", "double"]))
        if kind == "token":
            text = text[:at] + draw(st.sampled_from(HOSTILE)) + text[at:]
        elif kind == "char":
            text = text[:at] + draw(st.characters(blacklist_categories=("Cs",))) + text[at + 1:]
        elif kind == "cut":
            text = text[:at] + text[at + draw(st.integers(1, 40)):]
        else:
            end = at + draw(st.integers(1, 60))
            text = text[:end] + text[at:]
    return text


@st.composite
def reshuffled(draw, texts: list[str]):
    """One of ``texts`` with a few characters replaced by others of the same text: the grammar
    mostly holds, so the parser gets past the syntax to the positions and values themselves
    (a piece where another stood, a king in check, a count one too high)."""
    text = list(draw(st.sampled_from(texts)))
    alphabet = sorted(set(text) | set("0123456789"))
    for _ in range(draw(st.integers(1, 3))):
        text[draw(st.integers(0, len(text) - 1))] = draw(st.sampled_from(alphabet))
    return "".join(text)


def read(path: Path) -> str:
    return path.read_text(encoding="utf-8")


# ----- TOML: maps, rosters, armies, evaluation tables, profiles -----------------------------------

MAP_TEXTS = [read(MAPS_DIR / f"{name}.toml") for name in available_maps()]
ROSTER_TEXTS = [read(p) for p in sorted(DATA_DIR.glob("*.toml")) if "armies" not in p.name]
ARMY_TEXTS = [read(DATA_DIR / "dungeon-armies.toml")]
TABLE_TEXTS = [read(p) for p in sorted(TABLE_DIR.glob("*.toml"))]
PROFILE_TEXTS = [read(p) for p in sorted(PROFILE_DIR.glob("*.toml"))]
#: damaged files are written here; removed when the test process ends (one per process: each
#: worker of a parallel run has its own)
_SCRATCH = tempfile.TemporaryDirectory(prefix="companion-fuzz-")
SCRATCH = Path(_SCRATCH.name)


def as_file(text: str, name: str) -> Path:
    path = SCRATCH / name
    path.write_text(text, encoding="utf-8", errors="surrogatepass")
    return path


@FUZZ
@given(damaged(MAP_TEXTS) | reshuffled(MAP_TEXTS))
def test_a_damaged_map_is_a_map_error_or_a_map(text):
    clear_or_value(parse_map, text)


@FUZZ
@given(damaged(ROSTER_TEXTS))
def test_a_damaged_roster_is_a_variant_error_or_a_roster(text):
    clear_or_value(load_roster, as_file(text, "roster.toml"))


@FUZZ
@given(damaged(ARMY_TEXTS))
def test_a_damaged_armies_file_is_a_draft_error_or_armies(text):
    clear_or_value(load_armies_file, as_file(text, "armies.toml"))


@FUZZ
@given(damaged(TABLE_TEXTS))
def test_a_damaged_evaluation_table_is_a_variant_error_or_a_table(text):
    clear_or_value(load_table, as_file(text, "table.toml"))


@FUZZ
@given(damaged(PROFILE_TEXTS))
def test_a_damaged_board_profile_is_a_profile_error_or_a_profile(text):
    clear_or_value(parse_profile, text, "profile.toml")


# ----- position texts of every game ---------------------------------------------------------------


#: (game, map) pairs whose position texts are damaged: every game, every map of Dungeon Chess
KEYS = sorted([(name, None) for name in GAMES] + [("dungeon", m) for m in available_maps() if m.startswith("dungeon")],
              key=str)


@functools.cache
def positions(key: tuple[str, str | None]) -> list[str]:
    """Position texts of one (game, map) to start from: the start position and a few from
    seeded play (made when a test first asks, not while the tests are collected)."""
    import random

    rules = make_rules(*key)
    pos = rules.start_position()
    texts = [rules.position_text(pos)]
    rng = random.Random(7)
    for _ in range(30):
        if pos.pending is not None:
            answers = rules.answers(pos) if not pos.pending.chance else [
                o.answer for o in rules.chance_outcomes(pos)]
            rules.play(pos, rng.choice(list(answers)))
            continue
        moves = rules.legal_moves(pos)
        if not moves or rules.outcome(pos) is not None:
            break
        rules.play(pos, rng.choice(moves))
        texts.append(rules.position_text(pos))
    return texts


@st.composite
def rearranged(draw, rules, texts: list[str]):
    """A real position with pieces taken off, put on (any kind, any player) and the turn
    changed, written out by the game itself: well-formed texts of odd positions (no King, a
    pawn on the last rank, the side not to move in check, a unit on water)."""
    pos = rules.position_from_text(draw(st.sampled_from(texts)))
    squares = [sq for sq in range(rules.geometry.size) if not rules.geometry.is_void(sq)]
    codes = sorted(rules.kind_index)
    for _ in range(draw(st.integers(1, 4))):
        sq = draw(st.sampled_from(squares))
        if pos.board[sq] is not None:
            pos.take(sq)
        if draw(st.booleans()):
            pos.put(sq, pos.new_piece(draw(st.sampled_from(codes)), draw(st.integers(0, pos.nplayers - 1))))
    pos.set_turn(draw(st.integers(0, pos.nplayers - 1)))
    return rules.position_text(pos)


@pytest.mark.slow
@pytest.mark.parametrize("key", KEYS, ids=lambda k: f"{k[0]}-{k[1] or 'default'}")
def test_a_damaged_position_text_of_every_game_is_a_position_error_or_a_position(key):
    rules = make_rules(*key)
    texts = positions(key)

    @FUZZ
    @given(damaged(texts) | reshuffled(texts) | rearranged(rules, texts))
    def check(text):
        pos = clear_or_value(rules.position_from_text, text)
        if not isinstance(pos, CompanionError):  # a position that parses can be played from
            clear_or_value(iter_perft, rules, pos, 2)
            clear_or_value(rules.position_text, pos)

    check()


# ----- journal lines, journals, whole games replayed ---------------------------------------------


def _journal() -> list[dict]:
    session, _ = Session.new(GameSetup("combat", (Seat("White"), Seat("Black")), "seeded", False, "fuzz", "ab" * 32))
    entries = []
    session.recorder = entries.append
    for text in ("e2e4", "d7d5", "e4d5"):
        session.play(session.rules.parse_move(session.pos, text))
    while session.pending_fight() is not None:
        session.roll()
    session.offer_draw(0)
    session.answer_draw(False)
    session.play(session.rules.parse_move(session.pos, "g8f6"))
    session.undo()
    from companion.session import start_to_json

    return [start_to_json(session.setup)] + entries


JOURNAL = _journal()
JOURNAL_LINES = [format_line(i, e) for i, e in enumerate(JOURNAL, start=1)]

json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-10**30, 10**30) | st.floats(allow_nan=True) | st.text(max_size=12),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=12,
)


@st.composite
def hostile_entries(draw):
    """A journal entry as the file might hold it: a real one with a field changed, removed or
    added, or any JSON value at all."""
    if draw(st.booleans()):
        return draw(json_values)
    entry = dict(draw(st.sampled_from(JOURNAL)))
    key = draw(st.sampled_from(sorted(entry) + ["extra"]))
    action = draw(st.sampled_from(["set", "drop", "nest"]))
    if action == "drop":
        entry.pop(key, None)
    elif action == "set":
        entry[key] = draw(json_values)
    elif isinstance(entry.get(key), dict):
        inner = dict(entry[key])
        inner[draw(st.sampled_from(sorted(inner) or ["x"]))] = draw(json_values)
        entry[key] = inner
    return entry


@FUZZ
@given(damaged(JOURNAL_LINES))
def test_a_damaged_journal_line_is_a_record_error_or_an_entry(line):
    clear_or_value(parse_line, line.rstrip("\n"), 1)


@FUZZ
@given(st.lists(st.sampled_from(JOURNAL_LINES), min_size=1, max_size=8).map("".join).flatmap(lambda t: damaged([t])))
def test_a_damaged_journal_file_reads_up_to_its_damage(text):
    path = as_file(text, "current.jsonl")
    read = clear_or_value(read_journal, path)
    assert not isinstance(read, CompanionError), read  # reading never fails: it reports damage
    assert all(isinstance(e, dict) for e in read.entries)


@pytest.mark.slow
@settings(max_examples=int(150 * SCALE), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(hostile_entries(), min_size=1, max_size=4), st.integers(0, len(JOURNAL)))
def test_any_journal_entries_replay_to_a_game_or_a_record_error(changed, at):
    entries = JOURNAL[:at] + changed
    result = clear_or_value(Session.replay, entries)
    if not isinstance(result, CompanionError):
        session, used, problem = result
        assert 1 <= used <= len(entries) and (problem is None) == (used == len(entries))


# ----- sensor logs ---------------------------------------------------------------------------------

LOGS = {p.stem: read(p).splitlines() for p in sorted((ROOT / "tests" / "data" / "sensor-logs").glob("*.jsonl"))}
LOG_LINES = [line for lines in LOGS.values() for line in lines[:40]]
CHESS = make_rules("chess")


@settings(max_examples=int(80 * SCALE), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(damaged(LOG_LINES) | st.sampled_from(LOG_LINES), min_size=1, max_size=25))
def test_a_damaged_sensor_log_replays_or_is_a_record_error(lines):
    clear_or_value(lambda: replay_log(CHESS, CHESS.start_position(), lines))


# ----- dice records ---------------------------------------------------------------------------------


def _dice_record_text() -> str:
    session, _ = Session.new(GameSetup("combat", (Seat("White"), Seat("Black")), "seeded", False, "fuzz-dice",
                                       "cd" * 32))
    for text in ("e2e4", "d7d5", "e4d5"):
        session.play(session.rules.parse_move(session.pos, text))
    while session.pending_fight() is not None:
        session.roll()
    session.resign(1)
    return format_record(session.record)


DICE_RECORDS = [_dice_record_text()]


@FUZZ
@given(damaged(DICE_RECORDS))
def test_a_damaged_dice_record_is_a_record_error_or_verifies_either_way(text):
    from companion.games.combat_verify import verify_game_record

    record = clear_or_value(parse_record, text, "record")
    if not isinstance(record, CompanionError):
        clear_or_value(verify_game_record, record)  # a record that parses is judged, never crashes


# ----- serial frames -----------------------------------------------------------------------------

FRAMES = [protocol.encode(m) for m in (
    protocol.Hello(), protocol.Welcome(1, (1, 0, 0), 8, 8, 0, 0, 0, 0, 0), protocol.Heartbeat(5, 7),
    protocol.Events(3, [(12, True), (28, False)]), protocol.LedAck(4),
)]


@settings(max_examples=int(300 * SCALE), deadline=None)
@given(st.lists(st.sampled_from(FRAMES) | st.binary(max_size=40), max_size=12), st.data())
def test_damaged_serial_frames_are_decoded_or_counted_never_raised(chunks, data):
    stream = bytearray(b"".join(chunks))
    for _ in range(data.draw(st.integers(0, 4))):
        if stream:
            at = data.draw(st.integers(0, len(stream) - 1))
            stream[at] = data.draw(st.integers(0, 255))
    decoder = protocol.Decoder()
    with no_hang():
        messages = decoder.feed(bytes(stream))
    assert all(type(m) in protocol.MESSAGE_CLASSES.values() for m in messages)


@settings(max_examples=int(300 * SCALE), deadline=None)
@given(st.sampled_from(sorted(protocol.MESSAGE_CLASSES)), st.binary(max_size=300))
def test_any_payload_of_any_message_type_is_a_message_or_a_protocol_error(type_code, payload):
    clear_or_value(protocol.MESSAGE_CLASSES[type_code].decode_payload, payload)


def test_the_hostile_tokens_are_read_as_the_bounds_say():
    """The pieces the properties splice in, one by one, where a number is expected."""
    from companion.bounds import load_json
    from companion.errors import RecordError

    for token in HOSTILE:
        value = clear_or_value(load_json, token, "x")
        assert isinstance(value, (RecordError, int, float, str, list, dict, bool, type(None))), token
    assert json.dumps(clear_or_value(load_json, "[" * 16 + "]" * 16, "x"))
