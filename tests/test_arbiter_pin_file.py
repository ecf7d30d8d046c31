"""The arbiter's PIN file (issue 26): a damaged ``arbiter.json`` in any form locks arbiter mode
and says how the arbiter resets it; it never crashes the app and is never taken as "no PIN"
(which let anyone at the table set a new one). ``companion arbiter --reset-pin`` resets it.

Every damaged form is tried three ways: the reader (companion.tournament.pin_file), the app's
Menu -> Arbiter and a paused tournament clock's Resume (no crash, no keypad, the lock said on
screen), and ``companion arbiter`` (exit 1, the reason in one line). The window test of the same
(a SIGKILL, the file poisoned, the app started again) is tests/test_ui_clock_poison.py.
"""

from __future__ import annotations

import io
import json
import os
import stat
import subprocess
import sys
from argparse import Namespace
from pathlib import Path

import pytest

from companion import arbiter_cli
from companion.app import texts as T
from companion.tournament.arbiter import make_pin, pin_matches
from companion.tournament.pin_file import NAME, PinFile, read_pin, reset_pin, write_pin
from tests.test_presenter_tournament import press, tournament_app

GOOD = make_pin("2468", b"\x02" * 16).to_json()
GOOD_VALUE = json.loads(GOOD)


def _json(**changes) -> bytes:
    value = dict(GOOD_VALUE, **changes)
    return json.dumps({k: v for k, v in value.items() if v is not ...}).encode()


#: every damaged form: how to make it in a data folder, and words its reason must contain
DAMAGED = {
    "binary": (lambda p: p.write_bytes(b"\x89PNG\r\n\x1a\n\x00\xff\xfe" * 20), "not text"),
    "nested JSON": (lambda p: p.write_text("[" * 1000 + "]" * 1000), "nested"),
    "nested object": (lambda p: p.write_text('{"a":' * 40 + "1" + "}" * 40), "nested"),
    "truncated": (lambda p: p.write_text(GOOD[: len(GOOD) // 2]), "not valid JSON"),
    "empty": (lambda p: p.write_bytes(b""), "empty"),
    "blank": (lambda p: p.write_text("  \n\n"), "empty"),
    "NUL bytes": (lambda p: p.write_bytes(b"\x00" * 64), "not valid JSON"),
    "a list": (lambda p: p.write_text("[1, 2, 3]"), "list"),
    "a string": (lambda p: p.write_text('"2468"'), "string"),
    "null": (lambda p: p.write_text("null"), "null"),
    "salt a number": (lambda p: p.write_bytes(_json(salt=1234)), "salt"),
    "salt too short": (lambda p: p.write_bytes(_json(salt="0202")), "salt"),
    "salt not hex": (lambda p: p.write_bytes(_json(salt="zz" * 16)), "salt"),
    "digest upper case": (lambda p: p.write_bytes(_json(digest=GOOD_VALUE["digest"].upper())), "digest"),
    "digest a list": (lambda p: p.write_bytes(_json(digest=[1, 2])), "digest"),
    "rounds a string": (lambda p: p.write_bytes(_json(rounds="100000")), "rounds"),
    "rounds a float": (lambda p: p.write_bytes(_json(rounds=100000.0)), "rounds"),
    "rounds true": (lambda p: p.write_bytes(_json(rounds=True)), "rounds"),
    "rounds other": (lambda p: p.write_bytes(_json(rounds=1)), "rounds"),
    "a key missing": (lambda p: p.write_bytes(_json(digest=...)), "keys"),
    "a key too many": (lambda p: p.write_bytes(_json(pin="2468")), "keys"),
    "a number of 40 digits": (lambda p: p.write_text(GOOD.replace("100000", "1" * 40)), "digits"),
    "NaN": (lambda p: p.write_text(GOOD.replace("100000", "NaN")), "not a JSON number"),
    "too large": (lambda p: p.write_text(GOOD + " " * 10_000), "bytes"),
    "a folder": (lambda p: p.mkdir(), "folder"),
    "a link to nothing": (lambda p: p.symlink_to(p.parent / "gone.json"), "link"),
    "a named pipe": (lambda p: os.mkfifo(p), "not a file"),
    "unreadable": (lambda p: (p.write_text(GOOD), p.chmod(0)), "cannot be read"),
}


def _damage(folder: Path, kind: str) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / NAME
    DAMAGED[kind][0](path)
    return path


def _read_as_nobody(path: Path) -> PinFile:
    """As root nothing is unreadable: read the file in a child that gave root up."""
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child
        os.close(read)
        try:
            os.setgid(65534)
            os.setuid(65534)
            state = read_pin(path)
            os.write(write, json.dumps([state.record is not None, state.damage]).encode())
        finally:
            os._exit(0)
    os.close(write)
    with os.fdopen(read) as f:
        has_record, damage = json.loads(f.read())
    os.waitpid(pid, 0)
    assert not has_record
    return PinFile(None, damage)


def _reader(path: Path):
    if os.geteuid() == 0 and path.is_file() and stat.S_IMODE(path.stat().st_mode) == 0:
        return _read_as_nobody(path)
    return read_pin(path)


@pytest.fixture
def nobody_can_traverse(tmp_path):
    """tmp_path's parents are private to root: a folder the child that gave root up can reach."""
    if os.geteuid() != 0:
        return tmp_path
    import tempfile

    folder = Path(tempfile.mkdtemp(prefix="companion-pin-"))
    folder.chmod(0o755)
    yield folder
    import shutil

    for p in folder.rglob("*"):
        try:
            p.chmod(0o700)
        except OSError:
            pass
    shutil.rmtree(folder, ignore_errors=True)


@pytest.mark.parametrize("kind", sorted(DAMAGED))
def test_every_damaged_form_of_the_pin_file_is_damage_never_no_pin(nobody_can_traverse, kind):
    folder = nobody_can_traverse / "data"
    path = _damage(folder, kind)
    state = _reader(path)
    assert state.locked and state.record is None, state
    assert DAMAGED[kind][1] in state.damage, state.damage
    assert "\n" not in state.damage and len(state.damage) < 200


def test_no_file_is_no_pin_and_a_good_file_is_the_pin(tmp_path):
    assert read_pin(tmp_path / NAME) == PinFile()
    write_pin(tmp_path / NAME, make_pin("2468", b"\x02" * 16))
    state = read_pin(tmp_path / NAME)
    assert not state.locked and pin_matches(state.record, "2468") and not pin_matches(state.record, "1357")
    assert stat.S_IMODE((tmp_path / NAME).stat().st_mode) == 0o600  # the PIN's hash: this user only


@pytest.mark.parametrize("kind", sorted(set(DAMAGED) - {"unreadable"}))
def test_menu_arbiter_on_a_damaged_pin_file_is_locked_and_says_how_to_reset_it(tmp_path, kind):
    app = tournament_app(tmp_path)
    _damage(tmp_path / "data", kind)
    app.flow.display.screen = "game"
    app.game.menu()
    app.prompt.answer("arbiter")
    app.pump()
    prompt = app.flow.display.prompt
    assert app.entry.view() is None, "no keypad: nobody may set a PIN over a damaged file"
    assert prompt is not None and prompt.kind == "pin-damaged" and not prompt.options
    assert prompt.title.startswith("Arbiter mode is locked: the arbiter's PIN file is damaged (")
    assert DAMAGED[kind][1] in prompt.title and "companion arbiter --reset-pin" in prompt.title
    app.prompt.answer(None)  # Close
    assert app.flow.display.prompt is None and app.flow.display.screen == "game"


def test_a_paused_tournament_clock_cannot_be_restarted_past_a_damaged_pin(tmp_path):
    app = tournament_app(tmp_path)
    press(app, 1)
    app.clock_screen.pause()
    _damage(tmp_path / "data", "binary")
    app.clock_screen.resume()  # in a tournament only the arbiter restarts it
    assert app.flow.display.prompt.kind == "pin-damaged" and app.entry.view() is None
    assert app.flow.game.table.clock.view(app.clock.t).paused


def test_a_pin_file_damaged_after_the_first_pin_was_asked_is_not_written_over(tmp_path):
    """The keypad was open to choose the first PIN when the file turned up damaged: the new PIN
    is not written over it."""
    app = tournament_app(tmp_path)
    app.flow.arbiter.open()
    assert app.entry.view().title == T.PIN_SET
    app.type("2468")
    path = _damage(tmp_path / "data", "truncated")
    app.type("2468")
    assert app.flow.display.prompt.kind == "pin-damaged" and app.flow.display.screen != "arbiter"
    assert path.read_text() == GOOD[: len(GOOD) // 2]


def test_the_arbiter_resets_the_pin_on_the_command_line_and_arbiter_mode_opens_with_it(tmp_path):
    app = tournament_app(tmp_path)
    data = tmp_path / "data"
    path = _damage(data, "nested JSON")
    out, err = io.StringIO(), io.StringIO()
    assert arbiter_cli.run(Namespace(reset_pin=False, data=str(data)), out, err) == 1
    assert out.getvalue() == (f"The arbiter's PIN file {path} is damaged: values nested more than 16 levels deep. "
                              "Arbiter mode is locked on the board; set a new PIN with: companion arbiter --reset-pin\n")
    out = io.StringIO()
    assert arbiter_cli.run(Namespace(reset_pin=True, data=str(data)), out, err, io.StringIO("1357\n1357\n")) == 0
    assert out.getvalue().endswith("what was there is kept as arbiter.json.old-1. Arbiter mode opens with it on "
                                   "the board.\n")
    assert (data / "arbiter.json.old-1").read_text().startswith("[[[")  # kept, to be looked at
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    app.flow.arbiter.open()
    assert app.entry.view().title == T.PIN_ENTER
    app.type("1357")
    assert app.flow.display.screen == "arbiter"


def test_a_folder_in_the_pin_files_place_is_set_aside_by_the_reset(tmp_path):
    path = _damage(tmp_path, "a folder")
    (path / "inside").write_text("x")
    kept = reset_pin(path, make_pin("2468", b"\x03" * 16))
    assert kept.name == "arbiter.json.old-1" and (kept / "inside").exists()
    assert not read_pin(path).locked


@pytest.mark.parametrize("answers, line", [
    ("12\n12\n", "arbiter: a PIN is 4 to 8 digits; nothing was changed"),
    ("1357\n2468\n", "arbiter: the two PINs differ; nothing was changed"),
    ("", "arbiter: a PIN is 4 to 8 digits; nothing was changed"),
])
def test_a_bad_new_pin_changes_nothing(tmp_path, answers, line):
    path = _damage(tmp_path, "binary")
    before = path.read_bytes()
    err = io.StringIO()
    assert arbiter_cli.run(Namespace(reset_pin=True, data=str(tmp_path)), io.StringIO(), err,
                           io.StringIO(answers)) == 2
    assert err.getvalue() == line + "\n"
    assert path.read_bytes() == before


def test_companion_arbiter_says_the_pin_state_and_resets_it_from_the_command_line(tmp_path, monkeypatch):
    monkeypatch.setenv("COMPANION_DATA", str(tmp_path))  # the app's data folder, as the app finds it
    out = io.StringIO()
    assert arbiter_cli.run(Namespace(reset_pin=False, data=None), out, io.StringIO()) == 0
    assert out.getvalue().startswith("No arbiter PIN is set") and str(tmp_path / NAME) in out.getvalue()
    done = subprocess.run([sys.executable, "-m", "companion", "arbiter", "--reset-pin"], input="2468\n2468\n",
                          env=dict(os.environ), capture_output=True, text=True, timeout=60)
    assert done.returncode == 0 and done.stdout.startswith("The arbiter's PIN is set") and not done.stderr
    assert pin_matches(read_pin(tmp_path / NAME).record, "2468")
    out = io.StringIO()
    assert arbiter_cli.run(Namespace(reset_pin=False, data=None), out, io.StringIO()) == 0
    assert out.getvalue() == f"The arbiter's PIN is set ({tmp_path / NAME}).\n"
