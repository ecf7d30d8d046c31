"""A damaged clock checkpoint after a power cut (issue 26): it is said on screen that the clock
could not be restored, the clocks show the journal's times (each move's clock is there), and the
arbiter may set them; it is never ignored silently (the thinking time since the last move lost
without a word). An intact checkpoint, a slot torn by the power cut, and one that belongs to an
earlier move are no damage. The window test of the same: tests/test_ui_clock_poison.py.
"""

from __future__ import annotations

import json
import os
import zlib

import pytest

from companion.app import texts as T
from companion.tournament.checkpoint import NAME, SLOT, read_checkpoint_state
from tests.test_presenter_tournament import by_hand, press, tournament_app
from tests.ui_flow_helpers import App


def _slot(body: dict, crc: str | None = None) -> bytes:
    text = json.dumps(body, sort_keys=True, separators=(",", ":"))
    line = json.dumps({"cp": body, "crc": crc or f"{zlib.crc32(text.encode()) & 0xFFFFFFFF:08x}"},
                      separators=(",", ":")).encode()
    return line + b" " * (SLOT - 1 - len(line)) + b"\n"


def _flip(path):
    data = bytearray(path.read_bytes())
    for i in range(0, len(data), SLOT):
        data[i + 20] ^= 0x01  # inside each slot's JSON: its CRC no longer matches
    path.write_bytes(bytes(data))


#: every damaged form: how to make it from the intact checkpoint at ``path``, and words of its reason
DAMAGED = {
    "binary": (lambda p: p.write_bytes(os.urandom(2 * SLOT)), "nothing in it can be read"),
    "both slots' checksums wrong": (_flip, "nothing in it can be read"),
    "cut off": (lambda p: p.write_bytes(p.read_bytes()[:40]), "nothing in it can be read"),
    "empty": (lambda p: p.write_bytes(b""), "it is empty"),
    "spaces": (lambda p: p.write_bytes(b" " * (2 * SLOT)), "it is empty"),
    "nested JSON": (lambda p: p.write_bytes((b"[" * 95 + b"]" * 95).ljust(SLOT - 1) + b"\n"),
                    "nothing in it can be read"),
    "wrong types": (lambda p: p.write_bytes(_slot({"entries": "7", "running": 1, "moves": [1, 1], "spent": -5,
                                                   "counter": 1}) * 2), "nothing in it can be read"),
    "a folder": (lambda p: (p.unlink(), p.mkdir()), "a folder"),
    "a named pipe": (lambda p: (p.unlink(), os.mkfifo(p)), "not a file"),
    "a link to nothing": (lambda p: (p.unlink(), p.symlink_to(p.parent / "gone")), "link"),
}


def a_power_cut(tmp_path, damage=None, think_ms: int = 7000, pause: bool = False) -> App:
    """A rapid tournament game: 1. e4, Black thinks ``think_ms`` (a checkpoint on disk), the
    power goes; the checkpoint is damaged as ``damage`` says; the app comes back and resumes."""
    app = tournament_app(tmp_path, clock="rapid")
    press(app, 1)
    by_hand(app, "e2", "e4")
    press(app, 0, ms=4000)
    app.clock.t += think_ms
    app.pump()  # a checkpoint: Black has thought 7 s
    if pause:
        app.clock_screen.pause()
        app.pump()
    assert app.flow.clock.checkpoints.flush()
    app.flow.game.journal.close()  # the power goes
    app.flow.clock.checkpoints.close()
    path = tmp_path / "data" / NAME
    if damage is not None:
        DAMAGED[damage][0](path)
    back = App(tmp_path / "data", computer=False)
    assert back.flow.display.screen == "resume"
    back.resume.accept()
    back.pump()
    return back


def test_an_intact_checkpoint_restores_the_thinking_time_and_says_nothing_more(tmp_path):
    back = a_power_cut(tmp_path)
    assert back.flow.display.prompt is None
    assert back.flow.display.notice.startswith("The board was switched off. The clocks stopped at 15:06 \u2013 14:53")


@pytest.mark.parametrize("damage", sorted(DAMAGED))
def test_a_damaged_checkpoint_is_said_and_the_journals_times_shown(tmp_path, damage):
    back = a_power_cut(tmp_path, damage)
    prompt = back.flow.display.prompt
    assert prompt is not None and prompt.kind == "clock-not-restored", back.flow.display.notice
    # Black's 7 s since 1. e4 are not on disk any more: the journal's times (15:06 and 15:00)
    expected = T.CLOCK_NOT_RESTORED.format(reason=DAMAGED[damage][1], times="15:06 \u2013 15:00")
    if damage in ("binary", "both slots' checksums wrong", "cut off", "nested JSON", "wrong types", "empty",
                  "spaces"):
        assert prompt.title == expected
    else:
        assert DAMAGED[damage][1] in prompt.title and "15:06 \u2013 15:00" in prompt.title
    assert back.flow.display.notice == T.CLOCK_NOT_RESTORED_SHORT.format(times="15:06 \u2013 15:00")
    assert [o.label for o in prompt.options] == [T.SET_CLOCKS] and prompt.cancel
    back.setup.fill()
    back.pump()
    v = back.clock_screen.view()
    assert v.paused and (v.halves[0].face, v.halves[1].face) == ("15:06", "15:00")
    # the damaged file is set aside, and the next checkpoints are written anew
    data = tmp_path / "data"
    assert os.path.lexists(data / (NAME + ".damaged")) and not os.path.lexists(data / NAME)


def test_the_arbiter_sets_the_clocks_from_the_message(tmp_path):
    back = a_power_cut(tmp_path, "binary")
    back.prompt.answer("arbiter")  # "Arbiter: set the clocks"
    assert back.entry.view().title == T.PIN_SET  # the first PIN of this board (else: the PIN)
    back.type("2468")
    back.type("2468")
    assert back.flow.display.screen == "arbiter"
    back.arbiter.set_time(1)
    back.type("1453")  # what Black had: 14:53
    back.arbiter.back()
    assert back.flow.display.screen == "setup"  # the board is set up after the power cut, as before
    back.setup.fill()
    back.pump()
    v = back.clock_screen.view()
    assert (v.halves[0].face, v.halves[1].face) == ("15:06", "14:53")
    assert any("Black's clock set to 14:53" in n.text for n in back.flow.game.table.notes)


def test_a_damaged_checkpoint_while_the_clock_was_paused_costs_nothing_and_is_not_a_warning(tmp_path):
    back = a_power_cut(tmp_path, "binary", pause=True)
    assert back.flow.display.prompt is None
    assert not os.path.lexists(tmp_path / "data" / NAME)  # set aside all the same


def test_a_torn_slot_or_a_checkpoint_of_an_earlier_move_is_no_damage(tmp_path):
    path = tmp_path / NAME
    good = _slot({"entries": 7, "running": 1, "moves": [1, 0], "spent": 7000, "counter": 2})
    path.write_bytes(good + os.urandom(SLOT))  # the newer slot torn by the power cut
    state = read_checkpoint_state(path)
    assert state.damage == "" and state.checkpoint.spent == 7000
    stale = _slot({"entries": 5, "running": 0, "moves": [0, 0], "spent": 3000, "counter": 1})
    path.write_bytes(stale + stale)  # intact, of an earlier move: the journal's time is right
    assert read_checkpoint_state(path).damage == "" and read_checkpoint_state(path).checkpoint.entries == 5
    nothing = read_checkpoint_state(tmp_path / "none")  # no file: nothing to restore, no damage
    assert nothing.damage == "" and nothing.checkpoint is None


def test_an_unreadable_checkpoint_is_damage(tmp_path):
    path = tmp_path / NAME
    path.write_bytes(_slot({"entries": 7, "running": 1, "moves": [1, 0], "spent": 7000, "counter": 2}) * 2)
    path.chmod(0)
    if os.geteuid() == 0:  # as root nothing is unreadable: a read that fails stands for it
        from unittest import mock

        with mock.patch("builtins.open", side_effect=PermissionError(13, "Permission denied")):
            state = read_checkpoint_state(path)
    else:
        state = read_checkpoint_state(path)
    assert state.checkpoint is None and state.damage == "it cannot be read (Permission denied)"
