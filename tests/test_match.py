"""A match of several games: who may switch army, colours, the score, and the file that keeps it
through a power cut (companion/match.py)."""

from __future__ import annotations

import json

import pytest

from companion.errors import RecordError, VariantError
from companion.match import MATCH_FILE, Match, MatchStore
from companion.session import Seat

ANN, BEN = Seat("Ann"), Seat("Ben")


def match(length: int = 3) -> Match:
    return Match("m1", "chess2", (ANN, BEN), length)


def played(m: Match, *results: str) -> Match:
    """Games with white/black winners ("w", "b", "d")."""
    for i, r in enumerate(results):
        white = m.next_white
        choices = tuple(m.last_choice(p) or "classic" for p in (0, 1))
        m = m.with_game(f"g{len(m.games) + 1}", white, choices)
        m = m.with_result(f"g{len(m.games)}", {"w": {0}, "b": {1}, "d": set()}[r])
    return m


def test_colours_alternate_from_game_to_game():
    m = match()
    assert m.next_white == 0
    m = played(m, "w")
    assert m.next_white == 1 and m.seats_for(m.next_white) == (BEN, ANN)


def test_the_loser_of_a_game_may_switch_army_the_winner_may_not():
    """"the loser of a game may switch to any army for the next game. The winner of the previous
    game may not switch.\""""
    m = played(match(), "w")  # Ann (white) won
    assert m.may_choose(1) and not m.may_choose(0)
    with pytest.raises(VariantError, match="Ann won the last game and may not switch"):
        m.with_game("g2", 1, ("animals", "reaper"))
    m = m.with_game("g2", 1, ("classic", "reaper"))
    assert m.current.choices == ("classic", "reaper")


def test_at_the_start_of_a_match_and_after_a_draw_both_choose():
    """"Players choose their armies ... at the start of each match"; a draw has no winner."""
    assert match().may_choose(0) and match().may_choose(1)
    m = played(match(), "d")
    assert m.may_choose(0) and m.may_choose(1)


def test_the_score_counts_a_win_one_point_and_a_draw_half():
    m = played(match(5), "w", "d")  # Ann won game 1 with white, game 2 drawn
    assert m.score == (1.5, 0.5) and not m.is_over


def test_the_match_ends_when_the_leader_cannot_be_caught():
    m = played(match(3), "w", "b")  # Ann wins both: with white, then with black
    assert m.score == (2.0, 0.0) and m.is_over and m.winner == 0
    with pytest.raises(VariantError, match="the match is over"):
        m.with_game("g3", 0, ("classic", "classic"))


def test_the_match_ends_after_its_last_game_and_may_be_tied():
    m = played(match(2), "w", "w")  # Ann won game 1 with white, Ben game 2 with white
    assert m.is_over and m.winner is None and m.score == (1.0, 1.0)


def test_a_result_recorded_again_is_the_same_match():
    m = match().with_game("g1", 0, ("classic", "animals"))
    once = m.with_result("g1", {1})
    assert once.with_result("g1", {1}) == once and once.games[0].result == 1
    with pytest.raises(VariantError, match="already ended"):
        once.with_result("g1", {0})
    with pytest.raises(VariantError, match="not part of match"):
        once.with_result("other", {0})


def test_a_second_game_cannot_start_while_one_is_played():
    m = match().with_game("g1", 0, ("classic", "animals"))
    with pytest.raises(VariantError, match="still being played"):
        m.with_game("g2", 1, ("classic", "animals"))
    assert m.without_current() == match()


@pytest.mark.parametrize("length", [0, 26, True, "3"])
def test_a_match_length_out_of_range_is_refused(length):
    with pytest.raises(VariantError, match="a match has 1 to 25 games"):
        Match("m", "chess2", (ANN, BEN), length)


def test_the_store_keeps_the_match_whole_across_writes(tmp_path):
    store = MatchStore(tmp_path)
    assert store.load() is None
    m = played(match(), "w").with_game("g2", 1, ("classic", "nemesis"))
    store.save(m)
    assert store.load() == m
    assert not (tmp_path / "match.json.new").exists()
    store.archive(m)
    assert store.load() is None and (tmp_path / "games" / "m1.match.json").exists()


@pytest.mark.parametrize("damage,message", [
    ("{", "match.json"),
    ('{"type": "match"}', "field 'version' is missing"),
    (None, "game 1: expected an id"),
])
def test_a_damaged_match_file_is_one_clear_error_and_can_be_set_aside(tmp_path, damage, message):
    store = MatchStore(tmp_path)
    store.save(played(match(), "w"))
    if damage is None:
        data = json.loads((tmp_path / MATCH_FILE).read_text())
        data["games"][0]["white"] = 7
        damage = json.dumps(data)
    (tmp_path / MATCH_FILE).write_text(damage)
    with pytest.raises(RecordError, match=message):
        store.load()
    store.set_aside()
    assert store.load() is None and (tmp_path / "games" / "damaged.match.json").exists()


def test_a_write_cut_short_leaves_the_last_match(tmp_path, monkeypatch):
    """The new file is renamed over the old only once it is whole on the disk."""
    store = MatchStore(tmp_path)
    first = played(match(), "w")
    store.save(first)

    def broken(*_):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr("companion.match.os.fsync", broken)
    with pytest.raises(OSError):
        store.save(played(match(), "w", "b"))
    monkeypatch.undo()
    assert store.load() == first


def test_the_match_keeps_its_games_clock_and_reads_a_file_from_before_tables(tmp_path):
    """Every game of a match is played at the table chosen on the start screen (its clock), so
    the clock comes back with the match after a power cut; a match.json written before games
    had a table reads as no clock."""
    from companion.tournament.table import TableSetup

    table = TableSetup(time_control="300+3")
    store = MatchStore(tmp_path)
    store.save(Match("m1", "chess2", (ANN, BEN), 3, table=table))
    assert store.load().table == table
    old = json.loads((tmp_path / MATCH_FILE).read_text())
    del old["table"]
    (tmp_path / MATCH_FILE).write_text(json.dumps(old))
    assert store.load().table is None
    old["table"] = {"type": "table"}
    (tmp_path / MATCH_FILE).write_text(json.dumps(old))
    with pytest.raises(RecordError, match="table"):
        store.load()
