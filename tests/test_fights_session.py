"""Dice fights in every game through the session, as in Human Combat Chess: the seat's dice
choice (the app's dice, checkable seeded dice, real dice entered, only d6's), the dice record that
carries the game, `companion verify-dice` replaying it, the game's text and the journal."""

from __future__ import annotations

import random

import pytest

from companion.dice.odds import DiceSpec
from companion.dice.record import format_record, parse_record
from companion.errors import DiceError, VariantError
from companion.gametext import format_game, load_game
from companion.games.combat_verify import verify_game_record
from companion.session import GameSetup, PlayerResigned, Seat, Session, start_from_json, start_to_json
from companion.verify_dice import main as verify_main

SEED = "ab" * 32
FIGHTS = (("fights", "dice"),)
# every game once in the quick loop; Dungeon Chess of four and Four-Player Chess in teams (more
# seats on the same rules) in the whole suite
GAMES = [("dungeon", 2, ()), pytest.param("dungeon", 4, (), marks=pytest.mark.slow), ("kol", 2, ()), ("chess4", 4, ()),
         pytest.param("chess4", 4, (("mode", "teams"),), marks=pytest.mark.slow), ("chess", 2, ())]


def seats(n: int) -> tuple[Seat, ...]:
    return tuple(Seat(name) for name in ("Ann", "Bo", "Cy", "Di")[:n])


def setup(game: str, n: int, extra=(), dice: str = "seeded", d6_only: bool = False) -> GameSetup:
    return GameSetup(game, seats(n), dice, d6_only, f"{game}-fights", SEED if dice == "seeded" else None,
                     options=FIGHTS + tuple(extra))


def play_out(session: Session, seed: int = 5, plies: int = 160, resign: bool = True) -> int:
    """Moves chosen at random (captures preferred), every fight rolled by the game's source;
    resigned by every player but one at the end (``resign``). Returns the fights fought."""
    rng = random.Random(seed)
    fights = 0
    for _ in range(plies):
        if session.is_over:
            break
        if session.pending_fight() is not None:
            session.roll()
            fights += session.pending_fight() is None
            continue
        d = session.pos.pending
        if d is not None:
            session.play_answer(rng.choice(session.rules.answers(session.pos)))
            continue
        moves = session.rules.legal_moves(session.pos)
        captures = [m for m in moves if m.capture is not None]
        session.play(rng.choice(captures) if captures and rng.random() < 0.7 else rng.choice(moves))
    while session.pending_fight() is not None:
        session.roll()
    while resign and not session.is_over:
        session.resign(session.turn)
    return fights


@pytest.mark.parametrize("game, n, extra", GAMES)
def test_a_seeded_game_with_dice_fights_verifies_roll_for_roll_and_move_for_move(game, n, extra, tmp_path, capsys):
    s = setup(game, n, extra)
    assert s.has_dice and s.commitment
    session, _ = Session.new(s)
    assert play_out(session) > 0
    record = session.record
    assert record.game == game and record.game_record.option_values["fights"] == "dice"
    assert verify_game_record(record).status == "verified"
    path = tmp_path / "game.dice"
    path.write_text(format_record(record), encoding="utf-8")
    assert verify_main(["verify-dice", str(path)]) == 0
    assert "verified" in capsys.readouterr().out


def test_a_forged_fatigue_in_a_dungeon_fight_is_found():
    session, _ = Session.new(setup("dungeon", 2))
    play_out(session)
    record = session.record
    first = next(i for i, r in enumerate(record.rounds))
    entry = record.rounds[first]
    roll = entry.attacker.fighters[0]
    forged = record.__class__(**{**record.__dict__, "rounds": record.rounds[:first] + (
        entry.__class__(**{**entry.__dict__, "attacker": entry.attacker.__class__(
            (roll.__class__(**{**roll.__dict__, "fatigue": roll.fatigue + 5}),), entry.attacker.total)}),)
        + record.rounds[first + 1:]})
    result = verify_game_record(forged)
    assert result.status != "verified" and any(p.field == "fatigue" for p in result.problems)


def test_real_dice_entered_for_a_kol_fight_and_only_d6s():
    s = setup("kol", 2, dice="entered", d6_only=True)
    session, _ = Session.new(s)
    rng = random.Random(2)
    while session.pending_fight() is None:
        moves = session.rules.legal_moves(session.pos)
        captures = [m for m in moves if m.capture is not None]
        session.play(captures[0] if captures else rng.choice(moves))
    fight = session.pending_fight()
    assert all(f.dice in (DiceSpec(6), DiceSpec(6, 2), DiceSpec(6, 3)) for f in (fight.attacker, *fight.defenders))
    with pytest.raises(DiceError):
        session.roll()  # real dice: the numbers are entered
    faces = [6] * fight.attacker.dice.count
    session.enter_dice(faces, [[1] * d.dice.count for d in fight.defenders])
    assert session.pending_fight() is None and session.moves[-1].fight == "attacker"


def test_only_d6_needs_dice_fights_and_chess_2_takes_none():
    with pytest.raises(DiceError, match="only d6"):
        GameSetup("dungeon", seats(2), "virtual", True)
    with pytest.raises(VariantError, match="unknown option 'fights' for chess2"):
        GameSetup("chess2", seats(2), options=FIGHTS)
    with pytest.raises(VariantError, match="fights='swords'"):
        GameSetup("kol", seats(2), options=(("fights", "swords"),))


def test_the_journal_and_the_games_text_carry_the_fights_option():
    s = setup("chess4", 4, (("mode", "teams"),))
    assert start_from_json(start_to_json(s)) == s
    session, _ = Session.new(s)
    play_out(session, plies=40)
    text = format_game(session)
    assert 'setup options: {"fights":"dice","mode":"teams"}' in text and "dice: seeded" in text
    again = load_game(text)
    assert again.rules.position_text(again.pos) == session.rules.position_text(session.pos)


def test_four_players_through_the_session_a_resignation_leaves_the_army_as_dead_walls():
    session, _ = Session.new(GameSetup("chess4", seats(4)))
    session.play("h2h3")
    events = session.resign(1)
    assert any(isinstance(e, PlayerResigned) for e in events)
    assert len(session.pos.occ[1]) == 16 and session.pos.var("resigned") == (1,)
    assert session.turn == 2 and not session.is_over


@pytest.mark.parametrize("game, n, extra", GAMES)
def test_the_pgn_like_record_carries_the_fights_and_reads_back(game, n, extra):
    """Every game has its record (companion/tournament/record.py): coordinate moves, and with
    dice fights the tag [Fights "dice"] and each fight's [%dice], so it replays exactly."""
    from companion.tournament.pgn import format_pgn, parse_pgn
    from companion.tournament.record import pgn_game, replay_pgn

    session, _ = Session.new(setup(game, n, extra, dice="virtual"))
    play_out(session, plies=50, resign=False)
    text = format_pgn(pgn_game(session))
    assert '[Fights "dice"]' in text and "[%dice " in text
    replayed = replay_pgn(parse_pgn(text)[0])
    assert replayed.rules.position_text(replayed.pos) == session.rules.position_text(session.pos)
