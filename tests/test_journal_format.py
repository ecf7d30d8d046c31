"""The journal file: checksummed lines, durable appends, recovery up to the damage."""

import json

import pytest

from companion.errors import RecordError
from companion.journal import (
    Journal, JournalStore, checksum, describe_loss, format_line, parse_line, read_journal,
)

ENTRIES = [{"type": "start", "n": 1}, {"type": "move", "move": "e2e4"}, {"type": "move", "move": "é7e5"}]


def start(store, entry):
    journal = store.create()
    journal.append(entry)
    return journal


def write(path, entries=ENTRIES):
    j = Journal(path)
    for e in entries:
        j.append(e)
    j.close()
    return path.read_bytes()


def test_a_line_round_trips_and_carries_its_checksum(tmp_path):
    line = format_line(3, {"type": "move", "move": "e2e4"})
    assert line.endswith("\n") and json.loads(line)["crc"] == checksum(3, {"type": "move", "move": "e2e4"})
    assert parse_line(line.rstrip("\n"), 3) == {"type": "move", "move": "e2e4"}


def test_appended_entries_read_back_in_order(tmp_path):
    write(tmp_path / "j.jsonl")
    read = read_journal(tmp_path / "j.jsonl")
    assert read.entries == ENTRIES and read.damage is None


def test_a_journal_cut_at_any_byte_keeps_every_complete_entry(tmp_path):
    data = write(tmp_path / "full.jsonl")
    ends = [i + 1 for i, b in enumerate(data) if b == ord("\n")]
    for cut in range(len(data) + 1):
        (tmp_path / "cut.jsonl").write_bytes(data[:cut])
        read = read_journal(tmp_path / "cut.jsonl")
        complete = sum(1 for e in ends if e <= cut)
        assert read.entries == ENTRIES[:complete], cut
        if cut in ends or cut == 0:
            assert read.damage is None
        else:
            assert read.damage.line == complete + 1 and "cut off" in read.damage.reason
            assert read.damage.lost_lines == 1 and read.damage.lost_bytes == cut - read.good_bytes


def test_a_damaged_line_stops_the_reading_and_says_what_was_lost(tmp_path):
    data = bytearray(write(tmp_path / "j.jsonl"))
    second = data.index(b"\n") + 1
    data[second + data[second:].index(b"e2e4")] = ord("f")  # e2e4 -> f2e4, checksum now wrong
    (tmp_path / "j.jsonl").write_bytes(bytes(data))
    read = read_journal(tmp_path / "j.jsonl")
    assert read.entries == ENTRIES[:1]
    assert read.damage.line == 2 and "checksum" in read.damage.reason and read.damage.lost_lines == 2
    assert "line 2" in read.damage.describe() and "2 entries" in read.damage.describe()


@pytest.mark.parametrize("bad, reason", [
    (b"not json\n", "not valid JSON"),
    (b'{"seq": 2, "entry": {}}\n', "seq, entry and crc"),
    (b"\xff\xfe\n", "not UTF-8"),
])
def test_garbage_lines_count_as_damage(tmp_path, bad, reason):
    data = write(tmp_path / "j.jsonl", ENTRIES[:1]) + bad
    (tmp_path / "j.jsonl").write_bytes(data)
    read = read_journal(tmp_path / "j.jsonl")
    assert read.entries == ENTRIES[:1] and reason in read.damage.reason


def test_a_line_out_of_sequence_is_damage(tmp_path):
    (tmp_path / "j.jsonl").write_text(format_line(1, ENTRIES[0]) + format_line(3, ENTRIES[1]))
    read = read_journal(tmp_path / "j.jsonl")
    assert read.entries == ENTRIES[:1] and "entry number 3 where 2" in read.damage.reason


def test_reopening_a_damaged_journal_keeps_a_copy_and_continues_after_the_last_good_entry(tmp_path):
    store = JournalStore(tmp_path)
    start(store, ENTRIES[0]).close()
    with open(store.current, "ab") as f:
        f.write(format_line(2, ENTRIES[1]).encode()[:-9])  # cut off
    read = store.unfinished()
    assert read.damage is not None and read.entries == ENTRIES[:1]
    j = store.reopen(read)
    j.append(ENTRIES[2])
    j.close()
    again = read_journal(store.current)
    assert again.entries == [ENTRIES[0], ENTRIES[2]] and again.damage is None
    saved = list((tmp_path / "games").glob("damaged*.jsonl"))
    assert len(saved) == 1 and saved[0].read_bytes() != store.current.read_bytes()


def test_reopen_can_drop_entries_that_could_not_be_replayed(tmp_path):
    store = JournalStore(tmp_path)
    j = start(store, ENTRIES[0])
    j.append(ENTRIES[1])
    j.append(ENTRIES[2])
    j.close()
    store.reopen(store.unfinished(), keep=2).close()
    assert read_journal(store.current).entries == ENTRIES[:2]


def test_starting_a_game_never_overwrites_an_unfinished_one(tmp_path):
    store = JournalStore(tmp_path)
    start(store, ENTRIES[0]).close()
    start(store, {"type": "start", "n": 2}).close()
    assert read_journal(store.current).entries == [{"type": "start", "n": 2}]
    assert read_journal(tmp_path / "games" / "abandoned.jsonl").entries == ENTRIES[:1]


def test_a_finished_game_is_archived_with_its_dice_record(tmp_path):
    store = JournalStore(tmp_path)
    start(store, ENTRIES[0]).close()
    path = store.archive("game 1", {".dice.jsonl": "{}\n"})
    assert path.name == "game-1.jsonl" and not store.current.exists()
    assert (tmp_path / "games" / "game-1.dice.jsonl").read_text() == "{}\n"
    assert store.unfinished() is None and store.archive("x") is None


def test_a_closed_journal_refuses_appends(tmp_path):
    j = Journal(tmp_path / "j.jsonl")
    j.close()
    with pytest.raises(RecordError, match="closed"):
        j.append({"type": "move"})


def test_the_loss_is_described_in_one_sentence():
    assert describe_loss(None, None, 5, 5) is None
    text = describe_loss(None, "e2e5 is not a legal move", 4, 6)
    assert "entry 5" in text and "2 entries dropped" in text
