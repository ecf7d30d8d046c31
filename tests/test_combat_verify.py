"""Issue 3: "Every roll is recorded with the fight it belongs to ... an arbiter can re-derive
every roll: `companion verify-dice RECORD` checks a finished game's record and says which
roll, if any, does not match".

A version 2 dice record carries the game (options, start position, every move), and
verify-dice replays it with the real rules, so that a forger who changes a fighter's
fatigue, weapon choice or dice, a move, a result or the order of fights, and rescores the
round, is still caught. Games here are played through the session, as the app plays them.
"""

from __future__ import annotations

import dataclasses
import json
import random
import re
import subprocess
import sys
from functools import lru_cache

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.verify_dice import main  # the command moved above the dice and the games
from companion.dice.odds import DiceSpec
from companion.dice.record import (
    SIDES,
    DiceRecord,
    FighterRoll,
    GameRecord,
    MoveRecord,
    RoundRecord,
    format_record,
    parse_record,
    score_round,
    start_record,
)
from companion.dice.sources import SeededDice
from companion.dice.verify import VERSION_1_NOTE, verify_record
from companion.errors import DiceError, RecordError
from companion.games import make_rules
from companion.games.combat_verify import replay_fights, verify_game_record
from companion.session import GameSetup, Session
from tests.dice_games import seeded_game
from tests.session_helpers import HUMANS, SEED_HEX
from tests.test_dice_record import arbiter_snippet

PREROGATIVE = "4r2k/8/8/8/8/8/4q3/4K3 w - - 0 1 fatigue=e1:1,e8:2"  # Qe2+ defended by Re8


class ReplayableSystemDice:
    """Dice that the record calls "system" (so nothing can be re-derived from a seed) but
    that are the same in every test run."""

    name = "system"
    commitment = None

    def __init__(self, seed: bytes) -> None:
        self._dice = SeededDice(seed)

    def roll_side(self, specs, fight_id, roll_index, side):
        return self._dice.roll_side(specs, fight_id, roll_index, side)


def play_session(dice: str = "seeded", choice_seed: int = 3, plies: int = 120, d6_only: bool = False,
                 start: str | None = None, first_moves: tuple[str, ...] = ()) -> Session:
    """A game played through the session: moves chosen by a fixed RNG (captures preferred),
    every fight rolled by the game's source; resigned at the end if nobody won."""
    source = ReplayableSystemDice(b"system dice of the test") if dice == "system" else None
    setup = GameSetup("combat", HUMANS, "virtual" if dice == "system" else dice, d6_only, "verify-game",
                      SEED_HEX if dice == "seeded" else None, start)
    session, _ = Session.new(setup, source=source)
    rng = random.Random(choice_seed)
    for text in first_moves:
        session.play(text)
        while session.pending_fight() is not None:
            session.roll()
    for _ in range(plies):
        if session.is_over:
            break
        if session.pending_fight() is not None:
            session.roll()
            continue
        moves = session.rules.legal_moves(session.pos)
        captures = [m for m in moves if m.capture is not None]
        session.play(rng.choice(captures) if captures and rng.random() < 0.7 else rng.choice(moves))
    if not session.is_over:
        session.resign(session.turn)
    return session


@lru_cache(maxsize=None)
def game_text(dice: str = "seeded", choice_seed: int = 3, d6_only: bool = False) -> str:
    return format_record(play_session(dice, choice_seed, d6_only=d6_only).record)


def game(dice: str = "seeded", choice_seed: int = 3, d6_only: bool = False) -> DiceRecord:
    return parse_record(game_text(dice, choice_seed, d6_only), name="game.dice")


def with_round(record: DiceRecord, index: int, entry: RoundRecord) -> DiceRecord:
    rounds = list(record.rounds)
    rounds[index] = entry
    return dataclasses.replace(record, rounds=tuple(rounds))


def rescored(record: DiceRecord, index: int, side: str, fighter: int = 0, **change) -> DiceRecord:
    """A careful forger: change one fighter of round ``index`` and rescore totals and result."""
    entry = record.rounds[index]
    fighters = {name: list(entry.side(name).fighters) for name in SIDES}
    fighters[side][fighter] = dataclasses.replace(fighters[side][fighter], **change)
    forged = score_round(entry.fight, entry.round, entry.move, fighters["attacker"], fighters["defender"],
                         record.max_ties)
    return with_round(record, index, forged)


def first_round(record: DiceRecord, where) -> int:
    return next(i for i, r in enumerate(record.rounds) if where(r))


def single_round_fights(record: DiceRecord) -> list[int]:
    """Numbers of the fights decided in their first round."""
    return [r.fight for r in record.rounds if r.round == 1 and r.result != "tie"]


def verify_text(text: str):
    return verify_game_record(parse_record(text, name="game.dice"))


def run_cli(capsys, path) -> tuple[int, list[str], list[str]]:
    code = main(["verify-dice", str(path)])
    out, err = capsys.readouterr()
    return code, out.splitlines(), err.splitlines()


# --- an honest game -------------------------------------------------------------------------


def test_the_session_writes_a_version_2_record_that_carries_the_game():
    session = play_session()
    record = session.record
    assert record.version == 2 and record.revealed_seed is not None
    game_record = record.game_record
    assert game_record.start == session.rules.position_text(session.rules.start_position())
    assert game_record.options == (("d6_only", False),) and game_record.board_map is None
    assert [m.ply for m in game_record.moves] == list(range(1, len(session.moves) + 1))
    assert [m.text for m in game_record.moves] == [m.move for m in session.moves]
    text = format_record(record)
    header = json.loads(text.splitlines()[0])
    assert header["version"] == 2 and header["options"] == {"d6_only": False} and header["start"] == game_record.start
    assert parse_record(text) == record and format_record(parse_record(text)) == text
    # each fight's rounds follow the move that started it
    kinds = [json.loads(line)["type"] for line in text.splitlines()]
    assert kinds[0] == "header" and kinds[-1] == "reveal" and kinds[1] == "move"
    for line, following in zip(text.splitlines(), text.splitlines()[1:]):
        value, after = json.loads(line), json.loads(following)
        if after["type"] == "round" and after["round"] == 1:
            assert value["type"] == "move" and value["text"] == after["move"]


def test_an_honest_seeded_game_verifies_roll_for_roll_and_move_for_move(capsys, tmp_path):
    record = game()
    result = verify_game_record(record)
    assert result.status == "verified" and result.problems == () and result.notes == ()
    assert result.moves == len(record.game_record.moves) and result.fights == len({r.fight for r in record.rounds})
    assert replay_fights(record) == []
    path = tmp_path / "game.dice"
    path.write_text(game_text(), encoding="utf-8")
    code, out, err = run_cli(capsys, path)
    assert code == 0 and err == [] and len(out) == 1
    assert out[0].startswith("verified: ") and f"the game's {result.moves} moves replayed" in out[0]


def test_an_honest_game_with_system_dice_is_consistent_and_its_fights_are_the_games():
    result = verify_game_record(game("system"))
    assert result.status == "consistent" and result.ok and result.moves > 0
    assert "cannot be re-derived" in result.summary() and "replayed" in result.summary()


def test_a_kings_prerogative_fight_checks_every_defender():
    session = play_session(start=PREROGATIVE, first_moves=("e1e2",), plies=0)
    record = session.record
    entry = record.rounds[0]
    assert len(entry.defender.fighters) == 2
    assert verify_game_record(record).status == "verified"
    assert any("starts from the position" in n for n in verify_game_record(record).notes)
    forged = verify_game_record(rescored(record, 0, "defender", 1, fatigue=0))
    assert forged.first.message == "fight 1, round 1: defender 2 fatigue recorded 0, the game says 2"
    assert (forged.first.side, forged.first.field) == ("defender", "fatigue")


def test_undo_takes_the_moves_and_their_fights_out_of_the_record():
    setup = GameSetup("combat", HUMANS, "seeded", False, "undo-game", SEED_HEX)
    session, _ = Session.new(setup)
    for text in ("e2e4", "d7d5", "e4d5"):
        session.play(text)
    session.roll()
    session.undo()
    assert [m.text for m in session.record.game_record.moves] == ["e2e4", "d7d5"]
    assert session.record.rounds == ()
    session.play("b1c3")
    session.resign(1)
    assert verify_game_record(session.record).status == "verified"
    # the journal's actions rebuild the same record
    entries = []
    session2, _ = Session.new(setup, recorder=entries.append)
    for text in ("e2e4", "d7d5", "e4d5"):
        session2.play(text)
    session2.roll()
    session2.undo()
    session2.play("b1c3")
    rebuilt, used, problem = Session.replay(entries)
    assert problem is None and rebuilt.record == session2.record


# --- forgeries that the dice checks alone cannot see ------------------------------------------


def test_a_forged_fatigue_is_caught_even_when_the_round_is_rescored(capsys, tmp_path):
    """The reviewer's hole: more fatigue, rescored, used to "verify"."""
    record = game()
    index = first_round(record, lambda r: r.round == 1 and r.result == "attacker")
    entry = record.rounds[index]
    honest = entry.attacker.fighters[0].fatigue
    forged = rescored(record, index, "attacker", fatigue=20)
    assert forged.rounds[index].result == "defender"  # the forger's goal
    dice_only = verify_record(dataclasses.replace(forged, game_record=None))
    assert dice_only.ok  # what version 1 could not see
    result = verify_game_record(forged)
    assert result.status == "mismatch"
    first = result.first
    assert first.message == f"fight {entry.fight}, round 1: attacker fatigue recorded 20, the game says {honest}"
    assert (first.fight, first.round, first.side, first.field) == (entry.fight, 1, "attacker", "fatigue")
    assert (first.recorded, first.expected) == ("20", str(honest))
    messages = [p.message for p in result.problems]
    assert f"fight {entry.fight}, round 1: result recorded 'defender', the game gives 'attacker' for these faces" in messages

    path = tmp_path / "forged.dice"
    path.write_text(format_record(forged), encoding="utf-8")
    code, out, err = run_cli(capsys, path)
    assert code == 1 and err == []
    assert out[0].startswith("mismatch: ") and out[0].endswith(first.message)
    assert out[1] == f"  {first.message}"


def test_a_forged_weapon_choice_is_caught():
    record = game()
    index = first_round(record, lambda r: r.attacker.fighters[0].weapon_choice)
    entry = record.rounds[index]
    forged = rescored(record, index, "attacker", weapon_choice=False)
    forged = rescored(forged, index, "defender", weapon_choice=True)
    result = verify_game_record(forged)
    assert [p.message for p in result.problems[:2]] == [
        f"fight {entry.fight}, round {entry.round}: attacker weapon choice (+1) recorded no, the game says yes",
        f"fight {entry.fight}, round {entry.round}: defender weapon choice (+1) recorded yes, the game says no",
    ]
    assert [p.field for p in result.problems[:2]] == ["weapon_choice", "weapon_choice"]


def test_a_forged_dice_type_is_caught_before_the_faces_it_disturbs():
    record = game()
    index = first_round(record, lambda r: r.attacker.fighters[0].dice == DiceSpec(8))
    entry = record.rounds[index]
    forged = rescored(record, index, "attacker", dice=DiceSpec(10))
    result = verify_game_record(forged)
    first = result.first
    assert first.message == f"fight {entry.fight}, round {entry.round}: attacker dice recorded d10, the game says d8"
    assert (first.field, first.expected, first.recorded) == ("dice", "d8", "d10")


def test_a_forged_dice_type_in_only_d6s_mode_is_caught():
    record = game(d6_only=True)
    assert any("only d6's" in n for n in verify_game_record(record).notes)
    index = first_round(record, lambda r: r.attacker.fighters[0].dice == DiceSpec(6, 2))
    entry = record.rounds[index]
    forged = rescored(record, index, "attacker", dice=DiceSpec(8), faces=(max(entry.attacker.fighters[0].faces),))
    result = verify_game_record(forged)
    assert result.first.message == (f"fight {entry.fight}, round {entry.round}: attacker dice recorded d8, "
                                    "the game says 2d6kh")
    # one face cannot answer the game's two dice: the replay says it stops there
    assert result.problems[-1].field == "faces" and "the replay stops here" in result.problems[-1].message


def test_a_forged_piece_name_is_caught():
    record = game()
    forged = rescored(record, 0, "defender", piece="white king")
    result = verify_game_record(forged)
    assert result.first.field == "piece"
    assert re.fullmatch(r"fight 1, round 1: defender piece recorded 'white king', the game says "
                        r"(white|black) \w+ on [a-h][1-8]", result.first.message)


# --- forged moves, results, order, another game ---------------------------------------------


def test_an_illegal_move_in_the_record_is_caught_and_the_replay_stops_there():
    text = game_text()
    lines = text.splitlines()
    number = next(i for i, line in enumerate(lines) if json.loads(line).get("ply") == 7)
    value = json.loads(lines[number])
    value["text"] = "e1e8"
    lines[number] = json.dumps(value)
    result = verify_text("\n".join(lines) + "\n")
    assert result.first.message.startswith("move 7 ('e1e8'): not a legal move in the game at this point")
    assert (result.first.ply, result.first.field) == (7, "move")
    assert len(result.problems) == 1  # nothing after it can be judged against the game


def test_a_capture_changed_into_another_move_leaves_its_fight_without_a_game():
    record = game()
    fight = record.rounds[0]
    moves = record.game_record.moves
    ply = max(m.ply for m in moves if m.rounds_before == 0)  # the capture that started fight 1
    assert moves[ply - 1].text == fight.move
    rules = make_rules("combat")
    pos = rules.start_position()
    for m in moves[:ply - 1]:
        rules.play(pos, rules.parse_move(pos, m.text))
    quiet = next(rules.move_text(pos, m) for m in rules.legal_moves(pos) if m.capture is None)
    game_record = dataclasses.replace(record.game_record, moves=moves[:ply - 1] + (
        MoveRecord(ply, quiet, 0),) + moves[ply:])
    result = verify_game_record(dataclasses.replace(record, game_record=game_record))
    assert result.first.message == (f"fight 1, round 1: recorded after move {ply} ({quiet}), "
                                    "where the game has no fight")


def test_a_forged_move_in_a_round_is_caught():
    record = game()
    entry = record.rounds[0]
    result = verify_game_record(with_round(record, 0, dataclasses.replace(entry, move="a2a4")))
    assert result.first.message == f"fight 1, round 1: move recorded 'a2a4', the game says {entry.move!r}"
    assert result.first.field == "move"


def test_a_forged_result_is_caught():
    record = game()
    index = first_round(record, lambda r: r.result == "attacker")
    entry = record.rounds[index]
    result = verify_game_record(with_round(record, index, dataclasses.replace(entry, result="defender")))
    assert result.status == "mismatch"
    assert result.first.message.startswith(f"fight {entry.fight}, round {entry.round}: result 'defender' recorded, "
                                           f"but {entry.attacker.total} against {entry.defender.total} gives 'attacker'")
    assert result.first.field == "result"


def test_reordered_fights_are_caught_even_when_renumbered():
    """With system dice nothing can be re-derived from a seed: only the game shows the swap."""
    record = game("system")
    singles = single_round_fights(record)
    a, b = next((x, y) for x, y in zip(singles, singles[1:]) if y == x + 1)
    ia, ib = (first_round(record, lambda r, f=f: r.fight == f) for f in (a, b))
    rounds = list(record.rounds)
    rounds[ia], rounds[ib] = dataclasses.replace(rounds[ib], fight=a), dataclasses.replace(rounds[ia], fight=b)
    swapped = dataclasses.replace(record, rounds=tuple(rounds))
    assert verify_record(dataclasses.replace(swapped, game_record=None)).ok  # the dice alone: fine
    result = verify_game_record(swapped)
    assert result.status == "mismatch" and (result.first.fight, result.first.round) == (a, 1)
    assert "the game says" in result.first.message


def test_reordered_fights_are_caught_in_a_seeded_game():
    record = game()
    singles = single_round_fights(record)
    ia, ib = (first_round(record, lambda r, f=f: r.fight == f) for f in singles[:2])
    rounds = list(record.rounds)
    rounds[ia], rounds[ib] = rounds[ib], rounds[ia]
    result = verify_game_record(dataclasses.replace(record, rounds=tuple(rounds)))
    first = result.first
    assert first.fight == singles[1] and first.field == "fight"
    assert re.fullmatch(rf"fight {singles[1]}, round 1: recorded after move \d+ \(\w+\), "
                        rf"where the game is at fight {singles[0]}, round 1", first.message)


def test_a_round_left_out_is_caught_where_the_game_still_waits_for_it():
    record = game()
    index = first_round(record, lambda r: r.fight == 2)
    assert record.rounds[index].round == 1
    lines = game_text().splitlines()
    number = next(i for i, line in enumerate(lines) if json.loads(line).get("fight") == 2)
    result = verify_text("\n".join(lines[:number] + lines[number + 1:]) + "\n")
    assert re.fullmatch(r"move \d+ \('\w+'\): recorded while fight 2 of the game still waits for its round 1",
                        result.first.message)


def test_a_record_from_a_different_game_is_caught():
    """The rounds of another game (same seed, so every face re-derives) under this game's moves."""
    this, other = game_text(choice_seed=3).splitlines(), game_text(choice_seed=8).splitlines()
    theirs = [line for line in other if json.loads(line)["type"] == "round"]
    spliced, used = [], 0
    for line in this[:-1]:
        if json.loads(line)["type"] == "round":
            if used < len(theirs):
                spliced.append(theirs[used])
                used += 1
        else:
            spliced.append(line)
    spliced += theirs[used:] + this[-1:]
    text = "\n".join(spliced) + "\n"
    record = parse_record(text)
    assert verify_record(dataclasses.replace(record, game_record=None)).ok  # faces, totals, order all fine
    result = verify_game_record(record)
    assert result.status == "mismatch"
    assert result.first.fight is not None and "the game" in result.first.message


def test_a_header_that_cannot_set_up_the_game_is_a_mismatch():
    record = game()
    odd = dataclasses.replace(record, game_record=dataclasses.replace(record.game_record, options=(("colour", "red"),)))
    assert verify_game_record(odd).first.message.startswith(
        "the game cannot be set up from the record's options and board: combat takes the option d6_only only")
    bad_start = dataclasses.replace(record, game_record=dataclasses.replace(record.game_record, start="not a position"))
    assert verify_game_record(bad_start).first.message.startswith("the start position cannot be read")
    chess = dataclasses.replace(record, game="chess")
    assert verify_game_record(chess).first.field == "game"
    ties = dataclasses.replace(record, max_ties=5)
    assert "max_ties recorded 5, Human Combat Chess says 3" in verify_game_record(ties).first.message


def test_a_move_after_the_end_of_the_game_is_caught():
    setup = GameSetup("combat", HUMANS, "entered", False, "short-game", None, "4k3/8/8/8/8/8/4q3/4K3 w - - 0 1")
    session, _ = Session.new(setup)
    session.play("e1e2")  # the King attacks the queen
    session.enter_dice([1], [[10]])  # 1+1 against 10: the King loses, and with it the game
    assert session.is_over
    record = session.record
    assert verify_game_record(record).ok
    extra = dataclasses.replace(record, game_record=dataclasses.replace(
        record.game_record, moves=record.game_record.moves + (MoveRecord(2, "e8d8", 1),)))
    assert [p.message for p in verify_game_record(extra).problems] == [
        "move 2 ('e8d8'): recorded after the game ended (king lost a fight)"]


# --- version 1 still verifies -----------------------------------------------------------------


def test_a_version_1_record_verifies_as_before_with_a_note(capsys, tmp_path):
    record = seeded_game()
    assert record.version == 1
    result = verify_game_record(record)
    assert result.status == "verified" and result.moves is None and result.notes == (VERSION_1_NOTE,)
    assert "could not be checked against the game" in VERSION_1_NOTE
    path = tmp_path / "v1.dice"
    path.write_text(format_record(record), encoding="utf-8")
    assert json.loads(path.read_text().splitlines()[0])["version"] == 1
    code, out, err = run_cli(capsys, path)
    assert code == 0 and err == [] and out[0].startswith("verified: ")
    assert out[1:] == [f"note: {VERSION_1_NOTE}"]


def test_a_version_1_record_cannot_show_a_forged_fatigue_and_says_so():
    record = dataclasses.replace(game(), game_record=None)
    index = first_round(record, lambda r: r.round == 1 and r.result == "attacker")
    result = verify_game_record(rescored(record, index, "attacker", fatigue=20))
    assert result.status == "verified" and result.notes == (VERSION_1_NOTE,)


def test_verify_record_without_a_replay_notes_that_the_game_was_not_replayed():
    result = verify_record(game())
    assert result.ok and result.moves is None and "was not replayed" in result.notes[0]


# --- the file: exit codes, strict loading, round trips, the arbiter ----------------------------

def _edit(text: str, line: int, change) -> str:
    lines = text.splitlines()
    value = json.loads(lines[line - 1])
    change(value)
    lines[line - 1] = json.dumps(value)
    return "\n".join(lines) + "\n"


@pytest.mark.parametrize(
    "line, change, words",
    [
        (1, lambda v: v.pop("start"), "line 1: field 'start' is missing"),
        (1, lambda v: v.update(options=["d6_only"]), "line 1: field 'options' must be a JSON object"),
        (1, lambda v: v.update(options={"d6_only": 1.5}), "line 1: field 'options.d6_only' must be true or false"),
        (1, lambda v: v.update(board_map=8), "line 1: field 'board_map' must be a map name, or null"),
        (1, lambda v: v.update(start=" "), "line 1: field 'start' must be the start position text"),
        (1, lambda v: v.update(version=1), "line 1: unknown field 'board_map'"),
        (1, lambda v: v.update(version=3), "line 1: field 'version' is 3; this companion reads versions 1 and 2"),
        (2, lambda v: v.update(ply=0), "line 2: field 'ply' must be a whole number of at least 1"),
        (2, lambda v: v.update(text=4), "line 2: field 'text' must be text"),
        (2, lambda v: v.update(san="e4"), "line 2: unknown field 'san'"),
        (2, lambda v: v.update(type="comment"), "line 2: field 'type' must be 'move', 'round' or 'reveal'"),
    ],
)
def test_a_corrupt_version_2_record_names_the_line_and_the_field(capsys, tmp_path, line, change, words):
    with pytest.raises(RecordError, match=re.escape(words)):
        parse_record(_edit(game_text(), line, change), name="game.dice")
    path = tmp_path / "bad.dice"
    path.write_text(_edit(game_text(), line, change), encoding="utf-8")
    code, out, err = run_cli(capsys, path)
    assert code == 2 and out == [] and len(err) == 1 and words in err[0] and "Traceback" not in err[0]


def test_a_move_line_in_a_version_1_record_is_refused(capsys, tmp_path):
    text = format_record(seeded_game(2))
    lines = text.splitlines()
    path = tmp_path / "v1-with-moves.dice"
    path.write_text("\n".join(lines[:1] + ['{"type": "move", "ply": 1, "text": "e2e4"}'] + lines[1:]) + "\n")
    code, out, err = run_cli(capsys, path)
    assert code == 2 and out == [] and len(err) == 1
    assert "line 2: a move line belongs in a version 2 record; the header says version 1" in err[0]


def test_a_move_after_the_reveal_is_refused_and_a_record_cannot_grow_past_it():
    record = game()
    with pytest.raises(DiceError, match="closed"):
        record.with_move("e2e4")
    with pytest.raises(RecordError, match="nothing may follow the reveal"):
        parse_record(game_text() + '{"type": "move", "ply": 999, "text": "e2e4"}\n')
    with pytest.raises(DiceError, match="version 1"):
        seeded_game(1).with_move("e2e4")


def test_moves_and_rounds_keep_their_order():
    with pytest.raises(DiceError, match="in the order they were played"):
        GameRecord("start", moves=(MoveRecord(1, "a", 2), MoveRecord(2, "b", 1)))
    with pytest.raises(DiceError, match="follows round 1, but the record has 0 round"):
        DiceRecord("g", "combat", "entered", game_record=GameRecord("start", moves=(MoveRecord(1, "a", 1),)))
    with pytest.raises(DiceError, match="the start position must be its text"):
        GameRecord(" ")
    with pytest.raises(DiceError, match="give its start position too"):
        start_record("g", "combat", ReplayableSystemDice(b"x"), options={"d6_only": True})


fighter_rolls = st.builds(FighterRoll, st.text(max_size=8), st.just(DiceSpec(6)),
                          st.integers(1, 6).map(lambda f: (f,)), st.integers(0, 9), st.booleans())


@settings(max_examples=60, deadline=None)
@given(
    st.lists(st.one_of(st.text(max_size=6), fighter_rolls), max_size=8),
    st.text(min_size=1, max_size=20).filter(str.strip),
    st.dictionaries(st.text(max_size=6), st.booleans() | st.integers(-5, 5) | st.text(max_size=4), max_size=3),
    st.none() | st.text(max_size=6),
)
def test_any_version_2_record_round_trips_parse_of_format(items, start, options, board_map):
    record = start_record("g", "combat", ReplayableSystemDice(b"x"), start=start, options=options, board_map=board_map)
    fight = 0
    for item in items:
        if isinstance(item, str):
            record = record.with_move(item)
        else:
            fight += 1
            record = record.with_round(score_round(fight, 1, "m", [item], [item]))
    assert parse_record(format_record(record)) == record
    assert format_record(parse_record(format_record(record))) == format_record(record)


def test_the_documented_arbiter_snippet_reads_a_version_2_record(tmp_path):
    code = arbiter_snippet()
    assert len(code.strip().splitlines()) <= 13
    good = tmp_path / "good.dice"
    good.write_text(game_text(), encoding="utf-8")
    run = subprocess.run([sys.executable, "-c", code, str(good)], capture_output=True, text=True, timeout=30)
    assert run.returncode == 0, run.stderr
    assert run.stdout.splitlines() == ["commitment OK"]
    record = game()
    entry = record.rounds[0]
    fr = entry.attacker.fighters[0]
    forged = with_round(record, 0, dataclasses.replace(entry, attacker=dataclasses.replace(
        entry.attacker, fighters=(dataclasses.replace(fr, faces=(fr.faces[0] % 6 + 1,) + fr.faces[1:]),))))
    bad = tmp_path / "bad.dice"
    bad.write_text(format_record(forged), encoding="utf-8")
    run = subprocess.run([sys.executable, "-c", code, str(bad)], capture_output=True, text=True, timeout=30)
    assert "MISMATCH fight 1 round 1 attacker" in run.stdout
