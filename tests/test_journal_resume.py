"""Resuming an unfinished game from its journal: exactly where it was, or up to the damage."""

from companion.dice.record import format_record
from companion.journal import JournalStore, format_line, read_journal, resume
from companion.session import Session
from tests.session_helpers import play_all, setup


def journaled_game(tmp_path):
    store = JournalStore(tmp_path)
    s_setup = setup(dice="seeded")
    journal = store.create()
    session, _ = Session.new(s_setup, recorder=journal.append)
    play_all(session, "e2e4", "d7d5", "e4d5")
    while session.pending_fight() is not None:
        session.roll()
    play_all(session, "g8f6", "b1c3")
    journal.close()
    return store, session


def test_resume_brings_back_position_fatigue_and_dice_record(tmp_path):
    store, played = journaled_game(tmp_path)
    back = resume(store, Session.replay)
    assert back.loss is None
    s = back.game
    assert s.pos.snapshot() == played.pos.snapshot()
    assert format_record(s.record) == format_record(played.record)
    assert s.moves == played.moves and s.actions == played.actions
    tired = [p.state for _, p in s.pos.pieces() if p.state.get("fatigue")]
    assert tired == [{"fatigue": 1}]


def test_a_resumed_game_goes_on_in_the_same_journal(tmp_path):
    store, played = journaled_game(tmp_path)
    back = resume(store, Session.replay)
    back.game.recorder = back.journal.append
    back.game.play("e7e5")
    back.journal.close()
    again = resume(store, Session.replay)
    assert again.game.moves[-1].san == "e5" and again.loss is None


def test_resume_reports_progress_while_replaying(tmp_path):
    store, played = journaled_game(tmp_path)
    seen = []
    resume(store, lambda entries: Session.replay(entries, progress=lambda i, n: seen.append((i, n))))
    assert seen[-1][0] == seen[-1][1] == played.actions + 1


def test_a_cut_off_journal_resumes_up_to_the_damage_and_says_what_was_lost(tmp_path):
    store, played = journaled_game(tmp_path)
    data = store.current.read_bytes()
    store.current.write_bytes(data[:-7])
    back = resume(store, Session.replay)
    assert back.game.actions == played.actions - 1
    assert back.game.moves[-1].san == "Nf6"
    assert "cut off" in back.loss and "1 entry" in back.loss


def test_an_entry_that_cannot_be_replayed_is_dropped_with_the_rest_and_reported(tmp_path):
    store, played = journaled_game(tmp_path)
    entries = read_journal(store.current).entries
    with open(store.current, "a") as f:
        f.write(format_line(len(entries) + 1, {"type": "move", "move": "e1e8"}))
        f.write(format_line(len(entries) + 2, {"type": "move", "move": "e7e5"}))
    back = resume(store, Session.replay)
    assert back.game.actions == played.actions
    assert "e1e8" in back.loss and "2 entries dropped" in back.loss
    assert len(read_journal(store.current).entries) == len(entries)


def test_a_journal_without_a_usable_start_is_archived_and_reported(tmp_path):
    store = JournalStore(tmp_path)
    journal = store.create()
    journal.append({"type": "start", "version": 1, "setup": {}, "commitment": None})
    journal.close()
    back = resume(store, Session.replay)
    assert back.game is None and "missing" in back.loss
    assert not store.current.exists() and (tmp_path / "games" / "damaged.jsonl").exists()


def test_an_empty_or_unreadable_journal_is_set_aside(tmp_path):
    store = JournalStore(tmp_path)
    tmp_path.mkdir(exist_ok=True)
    store.current.write_bytes(b'{"seq": 1, "entr')
    back = resume(store, Session.replay)
    assert back.game is None and "cut off" in back.loss
    assert resume(store, Session.replay) is None


def test_nothing_to_resume_without_a_journal(tmp_path):
    assert resume(JournalStore(tmp_path), Session.replay) is None
