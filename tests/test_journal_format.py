"""The journal file: checksummed lines, durable appends, recovery up to the damage."""

import json

import pytest

from companion.bounds import MAX_LINE_BYTES
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


def test_a_line_longer_than_the_bound_is_damage_and_the_entries_before_it_are_kept(tmp_path):
    """bounds.MAX_LINE_BYTES: a runaway line (no newline for more than a megabyte) is not read
    into memory as one line; the entries before it are the game."""
    path = tmp_path / "j.jsonl"
    good = write(path)
    with open(path, "ab") as f:
        f.write(b"x" * (MAX_LINE_BYTES + 10) + b"\n" + format_line(4, ENTRIES[0]).encode())
    read = read_journal(path)
    assert read.entries == ENTRIES and read.good_bytes == len(good)
    assert read.damage.line == 4 and "a line of more than 1 MB" in read.damage.reason
    assert read.damage.lost_lines == 2 and read.damage.lost_bytes == MAX_LINE_BYTES + 10 + 1 + len(format_line(4, ENTRIES[0]))


def test_a_journal_past_the_size_bound_keeps_what_was_read_and_counts_the_rest_lost(tmp_path, monkeypatch):
    """bounds.MAX_JOURNAL_BYTES (64 MB; a small bound here): the entries within it are kept and
    what lies past it is counted lost, read a megabyte at a time, never held in memory."""
    import companion.journal as journal

    path = tmp_path / "j.jsonl"
    lines = [format_line(i + 1, {"type": "move", "n": i}).encode() for i in range(50)]
    path.write_bytes(b"".join(lines))
    bound = sum(len(x) for x in lines[:20]) + 5  # 20 whole lines and 5 bytes of the 21st
    monkeypatch.setattr(journal, "MAX_JOURNAL_BYTES", bound)
    read = journal.read_journal(path)
    assert [e["n"] for e in read.entries] == list(range(20))
    assert read.damage.line == 21 and "longer than" in read.damage.reason
    assert read.damage.lost_lines == 30 and read.damage.lost_bytes == sum(len(x) for x in lines[20:])


def test_an_entry_too_long_to_read_back_is_refused_and_nothing_is_written(tmp_path):
    path = tmp_path / "j.jsonl"
    before = write(path)
    j = Journal(path, next_seq=len(ENTRIES) + 1)
    with pytest.raises(RecordError, match="journal line has at most"):
        j.append({"type": "note", "text": "x" * MAX_LINE_BYTES})
    j.append({"type": "move", "move": "g1f3"})  # the journal goes on with the same number
    j.close()
    assert path.read_bytes().startswith(before)
    assert read_journal(path).entries == ENTRIES + [{"type": "move", "move": "g1f3"}]
