"""The dice record: every roll with its fight, a strict text form, and verification."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.dice.odds import DiceSpec
from companion.dice.record import (
    DiceRecord,
    FighterRoll,
    RoundRecord,
    SideRoll,
    format_record,
    parse_record,
    score_round,
    start_record,
)
from companion.dice.verify import verify_record
from companion.dice.sources import EnteredDice, SeededDice, SystemDice
from companion.errors import DiceError, RecordError

from tests.dice_games import SEED, fighter, play_fight, seeded_game

DOC = Path(__file__).resolve().parent.parent / "docs" / "rules" / "combat-dice.md"


def edit(text: str, line: int, change) -> str:
    """Apply ``change`` to the JSON object on ``line`` (1-based) and write it back."""
    lines = text.splitlines()
    value = json.loads(lines[line - 1])
    change(value)
    lines[line - 1] = json.dumps(value)
    return "\n".join(lines) + "\n"


def first_line_where(text: str, predicate) -> int:
    for number, line in enumerate(text.splitlines(), start=1):
        value = json.loads(line)
        if predicate(value):
            return number
    raise AssertionError("no such line")


# --- recording ---------------------------------------------------------------------------


def test_every_roll_is_recorded_with_the_fight_it_belongs_to():
    """Issue: "Every roll is recorded with the fight it belongs to"."""
    record = seeded_game()
    assert record.source == "seeded" and record.commitment == SeededDice(SEED).commitment
    fights = record.rounds[-1].fight
    assert fights >= 12
    assert [r.fight for r in record.rounds if r.round == 1] == list(range(1, fights + 1))
    prerogative = next(r for r in record.rounds if r.fight == 4)
    assert prerogative.move == "e8e7"
    assert [f.piece for f in prerogative.defender.fighters] == ["white rook e7", "white bishop b4", "white pawn f6"]
    assert prerogative.defender.total == sum(max(f.faces) - f.fatigue for f in prerogative.defender.fighters)
    d6_only = next(r for r in record.rounds if r.fight == 5)
    assert d6_only.attacker.fighters[0].dice == DiceSpec(6, 2) and len(d6_only.attacker.fighters[0].faces) == 2


def test_a_tie_is_rolled_again_with_the_same_modifiers_as_a_new_round():
    """Seed: "If a Combat Roll is a tie, each fighter should roll again using the same
    modifiers." The re-roll is the next round of the same fight."""
    record = seeded_game()
    tie = next(i for i, r in enumerate(record.rounds) if r.result == "tie")
    first, again = record.rounds[tie], record.rounds[tie + 1]
    assert (again.fight, again.round) == (first.fight, first.round + 1)
    assert [(f.fatigue, f.weapon_choice) for f in again.attacker.fighters] == \
        [(f.fatigue, f.weapon_choice) for f in first.attacker.fighters]
    assert first.attacker.total == first.defender.total


def test_score_round_computes_totals_and_the_result_from_the_faces():
    pawn = FighterRoll("white pawn e4", DiceSpec(6), (5,), fatigue=1, weapon_choice=True)
    knight = FighterRoll("black knight f5", DiceSpec(8), (5,), fatigue=0)
    entry = score_round(3, 1, "e4f5", [pawn], [knight])
    assert (entry.attacker.total, entry.defender.total, entry.result) == (5, 5, "tie")
    assert score_round(3, 3, "e4f5", [pawn], [knight]).result == "bounce"
    with pytest.raises(DiceError, match="a d6 shows 1 to 6; 7 is not possible"):
        FighterRoll("white pawn e4", DiceSpec(6), (7,))


def test_the_record_round_trips_through_its_text_form():
    record = seeded_game()
    text = format_record(record)
    assert parse_record(text) == record
    assert format_record(parse_record(text)) == text
    header = json.loads(text.splitlines()[0])
    assert header["version"] == 1 and header["format"] == "companion.dice-record"
    assert json.loads(text.splitlines()[-1]) == {"type": "reveal", "seed": SEED.hex()}


faces_for = lambda spec: st.lists(st.integers(1, spec.sides), min_size=spec.count, max_size=spec.count)
fighter_rolls = st.sampled_from([DiceSpec(6), DiceSpec(8), DiceSpec(10), DiceSpec(6, 2), DiceSpec(6, 3, "sum")]).flatmap(
    lambda spec: st.builds(FighterRoll, st.text(max_size=12), st.just(spec), faces_for(spec).map(tuple),
                           st.integers(0, 30), st.booleans())
)
sides = st.builds(SideRoll, st.lists(fighter_rolls, min_size=1, max_size=3).map(tuple), st.integers(-50, 50))
rounds = st.builds(RoundRecord, st.integers(1, 99), st.integers(1, 3), st.text(max_size=10), sides, sides,
                   st.sampled_from(["attacker", "defender", "tie", "bounce"]))
records = st.one_of(
    st.builds(DiceRecord, st.text(max_size=10), st.text(max_size=8), st.sampled_from(["system", "entered"]),
              st.none(), st.integers(1, 5), st.lists(rounds, max_size=4).map(tuple), st.none()),
    st.builds(DiceRecord, st.text(max_size=10), st.text(max_size=8), st.just("seeded"),
              st.binary(min_size=32, max_size=32).map(bytes.hex), st.integers(1, 5),
              st.lists(rounds, max_size=4).map(tuple), st.none() | st.binary(min_size=1, max_size=40)),
)


@pytest.mark.slow
@settings(max_examples=80, deadline=None)
@given(records)
def test_any_record_round_trips_parse_of_format(record):
    assert parse_record(format_record(record)) == record


def test_a_closed_record_takes_no_more_rounds():
    record = seeded_game(1)
    with pytest.raises(DiceError, match="closed"):
        record.with_round(record.rounds[0])


def test_start_record_takes_the_name_and_commitment_of_the_source():
    assert start_record("g", "combat", SystemDice()).source == "system"
    assert start_record("g", "combat", EnteredDice(lambda request: [])).commitment is None
    assert start_record("g", "combat", SeededDice(SEED)).commitment == SeededDice(SEED).commitment


# --- loading a damaged record ------------------------------------------------------------

GOOD = format_record(seeded_game(3))


def _set(path: str, value):
    def change(obj):
        *parents, last = path.split(".")
        for key in parents:
            obj = obj[int(key)] if key.isdigit() else obj[key]
        obj[int(last) if last.isdigit() else last] = value
    return change


def _drop(key: str):
    return lambda obj: obj.pop(key)


@pytest.mark.parametrize(
    "line, change, words",
    [
        (1, _set("version", 3), "line 1: field 'version' is 3; this companion reads versions 1 and 2"),
        (1, _set("format", "something else"), "line 1: not a dice record header"),
        (1, _set("source", "dice cup"), "line 1: field 'source' must be one of seeded, system, entered"),
        (1, _set("commitment", None), "line 1: field 'commitment' must be 64 lowercase hex digits"),
        (1, _set("max_ties", 0), "line 1: field 'max_ties' must be a whole number of at least 1"),
        (1, _drop("game_id"), "line 1: field 'game_id' is missing"),
        (2, _set("fight", "one"), "line 2: field 'fight' must be a whole number of at least 1"),
        (2, _set("colour", "red"), "line 2: unknown field 'colour'"),
        (2, _drop("result"), "line 2: field 'result' is missing"),
        (2, _set("result", "draw"), "line 2: field 'result' must be one of attacker, defender, tie, bounce"),
        (2, _set("attacker.total", 2.5), "line 2: field 'attacker.total' must be a whole number"),
        (2, _set("attacker.fighters", []), "line 2: field 'attacker.fighters' must be a non-empty list"),
        (2, _set("defender.fighters.0.faces", [11]), "line 2: field 'defender.fighters[0].faces' is impossible: a d"),
        (2, _set("defender.fighters.0.faces", ["4"]), "line 2: field 'defender.fighters[0].faces' must hold whole numbers"),
        (2, _set("attacker.fighters.0.dice", "d1"), "line 2: field 'attacker.fighters[0].dice'"),
        (2, _set("attacker.fighters.0.fatigue", -1), "line 2: field 'attacker.fighters[0].fatigue' must be a whole number of at least 0"),
        (2, _set("attacker.fighters.0.weapon_choice", 1), "line 2: field 'attacker.fighters[0].weapon_choice' must be true or false"),
        (2, _set("type", "comment"), "line 2: field 'type' must be 'round' or 'reveal'"),
        (-1, _set("seed", "not hex"), "field 'seed' must be the seed as non-empty hex"),
        (-1, _set("seed", ""), "field 'seed' must be the seed as non-empty hex"),
    ],
)
def test_a_corrupt_record_names_the_line_and_the_field(line, change, words):
    number = line if line > 0 else len(GOOD.splitlines())
    with pytest.raises(RecordError) as refused:
        parse_record(edit(GOOD, number, change), name="game.dice")
    assert f"game.dice {words}" in str(refused.value) or words in str(refused.value)
    assert f"line {number}" in str(refused.value)


@pytest.mark.parametrize(
    "text, words",
    [
        ("", "game.dice: empty"),
        ("\n\n", "game.dice: empty"),
        ('{"type": "round"}\n', "game.dice line 1: the first line must be the dice record header"),
        ("[1, 2]\n", "game.dice line 1: the first line must be the dice record header"),
        (GOOD.splitlines()[0] + "\n{\"type\": \"round\", \n", "game.dice line 2: not valid JSON"),
        (GOOD + GOOD.splitlines()[1] + "\n", "nothing may follow the reveal of the seed"),
        (GOOD.splitlines()[0] + "\n" + GOOD.splitlines()[0] + "\n", "line 2: field 'type' must be 'round' or 'reveal'"),
    ],
)
def test_a_record_that_is_not_a_record_is_refused(text, words):
    with pytest.raises(RecordError, match=re.escape(words)):
        parse_record(text, name="game.dice")


def test_only_a_seeded_record_reveals_a_seed_or_has_a_commitment():
    entered = format_record(DiceRecord("g", "combat", "entered"))
    with pytest.raises(RecordError, match="line 2: field 'seed' cannot be revealed: the dice source is entered"):
        parse_record(entered + '{"type": "reveal", "seed": "00"}\n')
    with pytest.raises(RecordError, match="line 1: field 'commitment' must be null for a entered record"):
        parse_record(edit(entered, 1, _set("commitment", "ab" * 32)))


# --- verification ------------------------------------------------------------------------


def test_a_seeded_game_verifies_from_its_revealed_seed():
    """Issue: "an arbiter can re-derive every roll"."""
    result = verify_record(parse_record(format_record(seeded_game())))
    assert result.status == "verified" and result.ok and result.problems == ()
    assert result.fights == seeded_game().rounds[-1].fight and result.rounds == len(seeded_game().rounds)
    assert result.summary().startswith("verified:")


def test_a_fight_that_ties_three_times_bounces_and_verifies():
    """Seed: "If the Combat Roll ties 3 times, the fight is ended"."""
    dice = SeededDice(SEED)
    record = start_record("bounce-game", "combat", dice)
    pawn = [("white pawn", fighter("P"))]
    for number in range(1, 2000):
        record = play_fight(dice, record, number, "move", pawn, [("black pawn", fighter("P"))])
        if record.rounds[-1].result == "bounce":
            break
    last = record.rounds[-3:]
    assert [(r.round, r.result) for r in last] == [(1, "tie"), (2, "tie"), (3, "bounce")]
    assert verify_record(record.with_reveal(SEED)).status == "verified"


def test_verify_dice_catches_a_tampered_roll_and_says_which():
    """Issue: "verify-dice catches a tampered roll"."""
    text = format_record(seeded_game())
    line = first_line_where(text, lambda v: v.get("fight") == 3)
    original = json.loads(text.splitlines()[line - 1])["defender"]["fighters"][0]["faces"][0]
    forged = original % 10 + 1
    tampered = edit(text, line, _set("defender.fighters.0.faces", [forged]))
    result = verify_record(parse_record(tampered))
    assert result.status == "mismatch" and not result.ok
    first = result.first
    assert (first.fight, first.round, first.side) == (3, 1, "defender")
    assert first.recorded == f"[{forged}]" and first.expected == f"[{original}]"
    assert f"fight 3, round 1, defender: white king e3 (d10) shows [{forged}] in the record, but the seed gives [{original}]" \
        in [p.message for p in result.problems]


def test_a_forged_total_or_result_is_inconsistent_with_the_faces():
    text = format_record(seeded_game())
    line = first_line_where(text, lambda v: v.get("fight") == 2)
    winner = json.loads(text.splitlines()[line - 1])["result"]
    loser = {"attacker": "defender", "defender": "attacker", "tie": "attacker", "bounce": "attacker"}[winner]
    result = verify_record(parse_record(edit(text, line, _set("result", loser))))
    assert result.first.fight == 2 and f"result {loser!r} recorded" in result.first.message
    result = verify_record(parse_record(edit(text, line, _set("attacker.total", 99))))
    assert "fight 2, round 1, attacker: total 99 recorded, but the faces and modifiers give" in result.first.message


def test_a_revealed_seed_that_does_not_match_the_commitment_is_reported_first():
    record = seeded_game()
    other = DiceRecord(record.game_id, record.game, "seeded", record.commitment, record.max_ties,
                       record.rounds, b"some other seed")
    result = verify_record(other)
    assert result.status == "mismatch"
    assert result.first.message.startswith("the revealed seed does not match the published commitment")


def test_a_seeded_record_without_its_seed_cannot_be_verified():
    record = seeded_game()
    unrevealed = DiceRecord(record.game_id, record.game, "seeded", record.commitment, 3, record.rounds)
    result = verify_record(unrevealed)
    assert result.status == "unrevealed" and not result.ok
    assert "never revealed" in result.summary()


def test_entered_or_system_dice_cannot_be_rederived_only_checked_for_consistency():
    answers = iter([[4], [4], [2], [6], [3], [1]])
    dice = EnteredDice(lambda request: next(answers))
    record = start_record("physical", "combat", dice)
    record = play_fight(dice, record, 1, "e4d5", [("white pawn", fighter("P"))], [("black pawn", fighter("P"))])
    record = play_fight(dice, record, 2, "d5e4", [("black pawn", fighter("P"))], [("white pawn", fighter("P"))])
    assert [r.result for r in record.rounds] == ["tie", "defender", "attacker"]
    result = verify_record(parse_record(format_record(record)))
    assert result.status == "consistent" and result.ok
    assert "'entered' source cannot be re-derived" in result.summary()
    forged = edit(format_record(record), 2, _set("result", "attacker"))
    assert verify_record(parse_record(forged)).status == "mismatch"


def test_a_missing_round_a_gap_in_fights_or_changed_modifiers_are_reported():
    record = seeded_game()
    tie = next(i for i, r in enumerate(record.rounds) if r.result == "tie")
    without_reroll = DiceRecord(record.game_id, record.game, "seeded", record.commitment, 3,
                                record.rounds[:tie + 1] + record.rounds[tie + 2:], SEED)
    messages = [p.message for p in verify_record(without_reroll).problems]
    assert any("stops after a tie" in m for m in messages)

    gap = [r for r in record.rounds if r.fight != 2]
    messages = [p.message for p in verify_record(DiceRecord("g", "combat", "seeded", record.commitment, 3, gap, SEED)).problems]
    assert any("expected fight 2, round 1" in m for m in messages)

    reroll = record.rounds[tie + 1]
    rested = RoundRecord(reroll.fight, reroll.round, reroll.move,
                         SideRoll(tuple(FighterRoll(f.piece, f.dice, f.faces, f.fatigue + 1, f.weapon_choice)
                                        for f in reroll.attacker.fighters), reroll.attacker.total - 1),
                         reroll.defender, reroll.result)
    changed = record.rounds[:tie + 1] + (rested,) + record.rounds[tie + 2:]
    messages = [p.message for p in verify_record(DiceRecord("g", "combat", "seeded", record.commitment, 3, changed, SEED)).problems]
    assert any("changed the move, fighters or modifiers" in m for m in messages)


# --- the arbiter's own check, from the documentation -------------------------------------


def arbiter_snippet() -> str:
    text = DOC.read_text(encoding="utf-8")
    match = re.search(r"<!-- arbiter-snippet -->\s*```python\n(.*?)```", text, re.S)
    assert match, "docs/rules/combat-dice.md holds the arbiter snippet"
    return match.group(1)


def test_the_documented_arbiter_snippet_verifies_with_hashlib_and_hmac_only(tmp_path):
    code = arbiter_snippet()
    assert len(code.strip().splitlines()) <= 14
    assert set(re.findall(r"^import (.*)$", code, re.M)[0].replace(" ", "").split(",")) <= {"hashlib", "hmac", "json", "re", "sys"}
    good = tmp_path / "good.dice"
    good.write_text(format_record(seeded_game()), encoding="utf-8")
    run = subprocess.run([sys.executable, "-c", code, str(good)], capture_output=True, text=True, timeout=30)
    assert run.returncode == 0, run.stderr
    assert run.stdout.splitlines() == ["commitment OK"]

    text = good.read_text(encoding="utf-8")
    line = first_line_where(text, lambda v: v.get("fight") == 4)
    original = json.loads(text.splitlines()[line - 1])["defender"]["fighters"][1]["faces"]
    bad = tmp_path / "bad.dice"
    bad.write_text(edit(text, line, _set("defender.fighters.1.faces", [original[0] % 8 + 1])), encoding="utf-8")
    run = subprocess.run([sys.executable, "-c", code, str(bad)], capture_output=True, text=True, timeout=30)
    assert "MISMATCH fight 4 round 1 defender" in run.stdout


def test_text_with_unicode_line_separators_stays_on_its_line():
    """JSON keeps U+2028 and NEL unescaped; the record splits lines on "\\n" only."""
    entry = score_round(1, 1, "\u2028\x85\r", [FighterRoll("pi\u00e8ce \u2029", DiceSpec(6), (3,))],
                        [FighterRoll("b", DiceSpec(6), (2,))])
    record = DiceRecord("g\u2028", "combat", "entered", rounds=(entry,))
    assert parse_record(format_record(record)) == record
    assert parse_record(format_record(record).replace("\n", "\r\n")) == record


def test_problems_are_listed_in_record_order_the_first_first():
    record = seeded_game()
    one_round = [r for r in record.rounds if r.round == 1 and r.result != "tie"][:2]
    a, b = (record.rounds.index(r) for r in one_round)
    swapped = list(record.rounds)
    swapped[a], swapped[b] = swapped[b], swapped[a]
    result = verify_record(DiceRecord("g", "combat", "seeded", record.commitment, 3, swapped, SEED))
    assert result.first.fight == one_round[1].fight
    assert f"expected fight {one_round[0].fight}, round 1" in result.first.message
