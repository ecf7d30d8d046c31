"""``companion link-match``'s options as ai-match's, refused in one line when wrong; ``companion
verify-dice`` on a linked game's record; the link's files readable by the app's user only."""

import json
import os
import stat
import subprocess
import sys

import pytest

from companion.dice.record import format_record
from companion.link.store import LinkStore
from companion.link.transport import parse_broker
from companion.errors import LinkError
from tests.link_helpers import Pair, play_out


def _cli(*args):
    return subprocess.run([sys.executable, "-m", "companion", *args], capture_output=True, text=True, timeout=120)


BAD_OPTIONS = [
    (["--a", "7", "--b", "1"], "--a '7': no such player"),
    (["--a", "1", "--b", "1", "--games", "0"], "--games"),
    (["--a", "1", "--b", "1", "--broker", "http://x"], "a broker is mqtt://host:port"),
    (["--a", "1", "--b", "1", "--variant", "go"], "unknown variant"),
    (["--a", "1", "--b", "1", "--variant", "dungeon", "--armies", "redskin-elite,nope"], "unknown army 'nope'"),
    (["--a", "1", "--b", "1", "--variant", "dungeon", "--armies", "skeleton-swarm,human-balanced"],
     "--armies: skeleton-swarm cannot play seat 1 on this map"),
]


@pytest.mark.parametrize("args, words", [
    pytest.param(*case, marks=[] if n == 0 else [pytest.mark.slow]) for n, case in enumerate(BAD_OPTIONS)])
def test_link_match_refuses_a_bad_option_in_one_line(args, words):
    """A real process (the quick loop keeps the first; the test below has every one in process)."""
    r = _cli("link-match", *args)
    assert r.returncode == 2
    assert words in r.stderr and len(r.stderr.strip().splitlines()) == 1


@pytest.mark.parametrize("args, words", BAD_OPTIONS)
def test_link_match_refuses_a_bad_option_in_one_line_in_process(args, words, cli_main):
    r = cli_main("link-match", *args)
    assert r.returncode == 2
    assert words in r.stderr and len(r.stderr.strip().splitlines()) == 1


def test_a_broker_address_is_read_or_refused_in_one_line():
    assert parse_broker("mqtt://u:p%40ss@broker.example:1884") == {
        "host": "broker.example", "port": 1884, "tls": False, "user": "u", "password": "p@ss"}
    assert parse_broker("mqtts://b.example")["port"] == 8883
    for bad in ("mqtt://", "mqtt://h:99999", "mqtt://h/path", "tcp://h"):
        with pytest.raises(LinkError):
            parse_broker(bad)


def test_verify_dice_checks_a_linked_games_record(tmp_path, capsys):
    """The record checked by a real process, the forged one through main in this process."""
    from companion.cli import main

    pair = Pair(seed="cli")
    pair.start("combat")
    play_out(pair, seed=4, max_plies=120)
    path = tmp_path / "linked.dice.jsonl"
    path.write_text(format_record(pair.a.session.record))
    r = _cli("verify-dice", str(path))
    assert r.returncode == 0 and r.stdout.startswith("verified:") and "both boards' secrets" in r.stdout
    lines = path.read_text().splitlines()
    lines[0] = lines[0].replace(pair.a.session.setup.chains[0], "0" * 64)  # another chain head
    path.write_text("\n".join(lines) + "\n")
    assert main(["verify-dice", str(path)]) == 1
    assert "does not lead to the chain" in capsys.readouterr().out


def test_the_links_files_are_readable_by_the_apps_user_only(tmp_path):
    store = LinkStore(tmp_path)
    store.save_pairing(role="host", nameplate="41", key=b"k" * 32, master=b"m" * 32, epoch=3, game=1)
    journal = store.open_game(1, 0)
    journal.append({"type": "mine", "k": 1, "note": {"kind": "accept"}})
    journal.close()
    for name in ("pairing.json", "game.jsonl"):
        mode = stat.S_IMODE(os.stat(tmp_path / "link" / name).st_mode)
        assert mode == 0o600, (name, oct(mode))
    assert store.pairing()["epoch"] == 3 and store.records()[-1]["note"] == {"kind": "accept"}


def test_a_finished_link_journal_never_overwrites_one_kept_before(tmp_path):
    """The app numbers every pairing's game 1 and a new pairing puts the last link journal away
    (link_room.py's _open_link, Cancel): each one is kept in ``link/games/``, none replaced."""
    store = LinkStore(tmp_path)
    for k in (1, 2, 3):
        journal = store.open_game(1, 0)
        journal.append({"type": "mine", "k": 1, "note": {"kind": "proposal", "n": k}})
        journal.close()
        store.end_game()
    kept = sorted((tmp_path / "link" / "games").glob("game-1*.jsonl"))
    assert len(kept) == 3 and (tmp_path / "link" / "games" / "game-1.jsonl") in kept
    notes = sorted(json.loads(p.read_text(encoding="utf-8").splitlines()[1])["entry"]["note"]["n"] for p in kept)
    assert notes == [1, 2, 3]


def test_the_pairing_saved_from_two_threads_at_once_is_whole_and_its_epoch_never_goes_back(tmp_path):
    """The link's thread saves the epoch before each hello while the board's loop saves the pairing
    (CI caught a rename of a temporary file that the other thread had already renamed)."""
    import threading

    store = LinkStore(tmp_path)
    errors: list[BaseException] = []
    start = threading.Barrier(4)

    def saver(first: int) -> None:
        start.wait()
        try:
            for epoch in range(first, 400, 4):
                store.save_pairing(role="host", nameplate="41", key=b"k" * 32, master=b"m" * 32, epoch=epoch, game=1)
        except BaseException as e:  # noqa: BLE001 -- reported below
            errors.append(e)

    threads = [threading.Thread(target=saver, args=(i,)) for i in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []
    assert store.pairing()["epoch"] == 399  # the highest, whichever thread wrote last
    store.save_pairing(role="host", nameplate="41", key=b"k" * 32, master=b"m" * 32, epoch=5, game=2)
    assert store.pairing()["epoch"] == 399 and store.pairing()["game"] == 2
    assert sorted(p.name for p in (tmp_path / "link").iterdir()) == ["pairing.json"]  # no temporary file left


def test_a_linked_games_text_loads_back_with_its_dice_secrets():
    from companion import gametext

    pair = Pair(seed="text")
    pair.start("combat")
    play_out(pair, seed=3, max_plies=80)
    session = pair.a.session
    text = gametext.format_game(session)
    assert "dice: linked" in text and '"link":' in text
    again = gametext.load_game(text)
    assert again.rules.position_text(again.pos) == session.rules.position_text(session.pos)
    assert format_record(again.record) == format_record(session.record)


@pytest.mark.slow
def test_link_match_plays_dungeon_armies_given_one_per_seat():
    """Two real board processes, each seat's preset from ``--armies`` (test_link_draft.py checks
    in one process that the game starts with them)."""
    r = _cli("link-match", "--variant", "dungeon", "--armies", "redskin-elite,human-balanced", "--a", "random",
             "--b", "random", "--games", "2", "--max-plies", "6", "--seed", "1")
    assert r.returncode == 0, r.stderr
    assert r.stdout.strip().splitlines()[-1] == "score 0-0-2"
