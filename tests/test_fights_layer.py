"""Dice fights as a layer of every game (companion/games/fights.py; docs/rules/combat.md, "Dice
fights in other games"): the Combat text's rules carried over, and each game's decisions."""

from __future__ import annotations

import random
from fractions import Fraction

import pytest

from companion.ai.match import settle_chance
from companion.core.moves import Answer
from companion.dice.odds import DiceSpec
from companion.errors import IllegalMoveError, VariantError
from companion.games import make_rules
from companion.games import fight_dice
from companion.games.combat import CombatRules
from companion.games.dungeon import DungeonRules
from companion.games.fights import FightLayer, add_fights
from companion.maps import parse_map
from tests.chess4_helpers import position as chess4_position
from tests.dungeon_board import OPEN, OPEN4


# ----- the layer and its data -------------------------------------------------------------------------
def test_fide_chess_with_dice_fights_is_human_combat_chess():
    rules = make_rules("chess", fights="dice")
    assert type(rules) is CombatRules and rules.name == "combat"
    assert make_rules("chess", fights="dice", d6_only=True).d6_only


@pytest.mark.parametrize("game, options", [("dungeon", {}), ("dungeon", {"players": 4}), ("kol", {}),
                                           ("chess4", {}), ("chess4", {"mode": "teams"})])
def test_every_game_but_chess_2_takes_dice_fights(game, options):
    rules = make_rules(game, fights="dice", **options)
    assert isinstance(rules, FightLayer) and rules.name == game
    assert make_rules(game, fights="none", **options).__class__ is not rules.__class__


def test_chess_2_refuses_dice_fights_it_has_duels():
    with pytest.raises(VariantError, match="own duel"):
        make_rules("chess2", fights="dice")


def test_a_bad_fights_option_is_one_line():
    with pytest.raises(VariantError, match="fights='swords'"):
        make_rules("kol", fights="swords")


@pytest.mark.parametrize("game, code, sides", [
    ("chess", "P", 6), ("chess", "N", 8), ("chess", "K", 10),
    ("dungeon", "HE", 6), ("dungeon", "KB", 6), ("dungeon", "IG", 8), ("dungeon", "TR", 8), ("dungeon", "DM", 10),
    ("dungeon", "WL", 10), ("kol", "GN", 6), ("kol", "NS", 8), ("kol", "T", 8), ("kol", "SP", 10), ("kol", "P", 10),
    ("kol", "K", 10), ("chess4", "D", 10), ("chess4", "B", 8),
])
def test_fighter_strength_each_piece_rolls_the_die_of_its_standing(game, code, sides):
    """"Because the better fighters are generally assigned to the stronger pieces, each type of
    piece rolls a different die" (the dice per piece: maps/variants/fights.toml)."""
    rules = make_rules(game, fights="dice")
    assert rules.fight_sides[rules.kind_index[code]] == sides


@pytest.mark.parametrize("text, words", [
    ("[chess]\nd6 = ['P']\nd8 = ['N', 'B', 'R']\nd10 = ['Q']\n", "gives no die to K"),
    ("[chess]\nd6 = ['P', 'X']\nd8 = ['N', 'B', 'R']\nd10 = ['Q', 'K']\n", "names X"),
    ("[chess]\nd6 = ['P']\nd8 = ['N', 'B', 'R', 'P']\nd10 = ['Q', 'K']\n", "two dice"),
    ("[chess]\nd12 = ['P']\n", "unknown key 'd12'"),
    ("[other]\nd6 = ['P']\n", "no fight dice"),
])
def test_the_dice_table_is_checked_strictly(tmp_path, monkeypatch, text, words):
    path = tmp_path / "fights.toml"
    path.write_text(text)
    monkeypatch.setattr(fight_dice, "FIGHT_DICE_FILE", path)
    fight_dice._tables.cache_clear()
    try:
        with pytest.raises(VariantError) as e:
            make_rules("chess", fights="dice")
        assert words in str(e.value) and "\n" not in str(e.value)
    finally:
        fight_dice._tables.cache_clear()


# ----- Dungeon Chess -----------------------------------------------------------------------------------
def dungeon(four: bool = False):
    return add_fights(DungeonRules(parse_map(OPEN4 if four else OPEN)))


def dpos(r, pieces: dict, turn: int = 0):
    pos = r.new_position()
    g = r.geometry
    for name, (player, unit, *state) in pieces.items():
        pos.put(g.parse_square(name), pos.new_piece(r.roster_kind(unit).code, player, state[0] if state else None))
    pos.set_turn(turn)
    return pos


def at(r, pos, name: str):
    return pos.board[r.geometry.parse_square(name)]


BASIC = {"a1": (0, "princess"), "j10": (1, "princess"), "b4": (0, "knight"), "c6": (1, "hero")}


def test_dungeon_an_attack_is_a_fight_the_winner_captures_as_dungeon_chess_captures():
    r = dungeon()
    pos = dpos(r, BASIC)
    r.play(pos, r.parse_move(pos, "b4c6"))
    attacker, (defender,) = r.fighters(pos)
    assert (attacker.dice, defender.dice, attacker.weapon_choice) == (DiceSpec(8), DiceSpec(6), True)
    r.play(pos, Answer("fight", "attacker"))
    assert at(r, pos, "c6").kind.code == "KN" and at(r, pos, "c6").state == {"fatigue": 1}
    assert ("captured", r.geometry.parse_square("c6"), "Hero", 1) in pos.var("effects")
    assert pos.turn == 1 and pos.var("quiet") == 0


def test_dungeon_a_defender_that_wins_takes_the_attacker_off_as_a_capture():
    r = dungeon()
    pos = dpos(r, BASIC)
    r.play(pos, r.parse_move(pos, "b4c6"))
    r.play(pos, Answer("fight", "defender"))
    assert at(r, pos, "b4") is None and at(r, pos, "c6").state == {"fatigue": 1}
    assert ("captured", r.geometry.parse_square("b4"), "Knight", 0) in pos.var("effects")
    assert pos.turn == 1 and any("captured" in line for line in r.describe_effects(pos))


def test_dungeon_a_bounce_tires_both_and_counts_as_a_quiet_turn():
    r = dungeon()
    pos = dpos(r, BASIC)
    r.play(pos, r.parse_move(pos, "b4c6"))
    r.play(pos, Answer("fight", "bounce"))
    assert at(r, pos, "b4").state == {"fatigue": 1} and at(r, pos, "c6").state == {"fatigue": 1}
    assert pos.turn == 1 and pos.var("quiet") == 1


def test_dungeon_a_troll_that_loses_its_attack_absorbs_it_with_its_thick_skin():
    """Thick skin meets the fight: the Troll attacker that loses is "captured" by the defender,
    so its first capture is absorbed: pushed back one square; both fighters stay and tire."""
    r = dungeon()
    pos = dpos(r, {"a1": (0, "princess"), "j10": (1, "princess"), "b2": (0, "troll"), "d4": (1, "hero")})
    r.play(pos, r.parse_move(pos, "b2d4"))
    r.play(pos, Answer("fight", "defender"))
    troll = at(r, pos, "b1")
    assert troll.kind.code == "TR" and troll.state == {"wounded": 1, "fatigue": 1}
    assert at(r, pos, "d4").state == {"fatigue": 1} and at(r, pos, "b2") is None


def test_dungeon_a_troll_that_loses_its_defence_absorbs_the_capture_and_the_attacker_stays():
    r = dungeon()
    pos = dpos(r, {"a1": (0, "princess"), "j10": (1, "princess"), "b4": (0, "knight"), "c6": (1, "troll")})
    r.play(pos, r.parse_move(pos, "b4c6"))
    r.play(pos, Answer("fight", "attacker"))
    assert at(r, pos, "b4").state == {"fatigue": 1}
    assert at(r, pos, "c7").kind.code == "TR" and at(r, pos, "c7").state == {"wounded": 1, "fatigue": 1}


def test_dungeon_a_demonics_that_loses_its_attack_explodes_sparing_the_winner():
    r = dungeon()
    pos = dpos(r, {"a1": (0, "princess"), "j10": (1, "princess"), "c3": (0, "demonics"), "d4": (1, "hero"),
                   "b4": (1, "knight")})
    r.play(pos, r.parse_move(pos, "c3d4"))
    r.play(pos, Answer("fight", "defender"))
    assert at(r, pos, "c3") is None and at(r, pos, "b4") is None  # destroyed by the explosion
    assert at(r, pos, "d4").state == {"fatigue": 1}  # the winner survives, as a capturer does


def test_dungeon_hit_and_run_after_a_won_fight_and_the_tokens_go_along():
    r = dungeon()
    pos = dpos(r, {"a1": (0, "princess"), "j10": (1, "princess"), "b4": (0, "salamander"), "c6": (1, "hero")})
    r.play(pos, r.parse_move(pos, "b4c6"))
    r.play(pos, Answer("fight", "attacker"))
    assert pos.pending.kind == "step"
    r.play(pos, next(a for a in r.answers(pos) if r.answer_text(a) == "c7"))
    assert at(r, pos, "c7").state == {"fatigue": 1}


def test_dungeon_has_no_checkmate_so_no_kings_prerogative():
    """"There is no checkmate - the game only ends on actual King capture": the Prerogative ("can
    only be used by a King who is in Checkmate") is not carried over."""
    assert dungeon().prerogative_allowed is False and make_rules("kol", fights="dice").prerogative_allowed


def test_compulsory_attack_with_more_players_only_where_the_attack_is_legal():
    """"If a piece is threatening the opposing King at the start of their own turn, they must
    attack the King": with three or four players only the attacks that leave one's own King safe
    (a pinned knight's is not), and the other moves are gone."""
    r = dungeon(four=True)
    pos = dpos(r, {"c1": (0, "princess"), "j5": (1, "princess"), "e10": (2, "princess"), "a5": (3, "princess"),
                   "b3": (0, "knight"), "c6": (0, "knight"), "c9": (2, "demonics")})
    assert sorted(r.move_text(pos, m) for m in r.legal_moves(pos)) == ["b3a5"]
    assert r.moves_from(pos, r.geometry.parse_square("c6")) == []


# ----- KoL Chess ------------------------------------------------------------------------------------------
KOL_BASE = {"c2": "K", "j11": "k", "a12": "B", "l1": "b"}


def kpos(r, pieces: dict, turn: int = 0, **variables):
    pos = r.new_position()
    for name, code in {**KOL_BASE, **pieces}.items():
        if code is None:
            continue
        code, _, turns = code.partition(":")
        piece = pos.new_piece(code.upper(), 0 if code.isupper() else 1)
        if turns:
            piece.state = {"turns": int(turns), "carries": pos.next_uid}
            pos.next_uid += 1
        pos.put(r.geometry.parse_square(name), piece)
    pos.set_turn(turn)
    for k, v in variables.items():
        pos.set_var(k, v)
    return pos


def test_kol_boris_double_capture_is_one_fight_against_both_summed():
    """Boris "can take two adjacent pieces": he fights both at once, one die against the sum of
    theirs, as the King's Prerogative does."""
    r = make_rules("kol", fights="dice")
    pos = kpos(r, {"c2": None, "a2": "K", "e1": "B", "e4": "kg", "e5": "kg"})
    r.play(pos, r.parse_move(pos, "e1e5"))
    attacker, defenders = r.fighters(pos)
    assert attacker.dice == DiceSpec(10) and [d.dice for d in defenders] == [DiceSpec(6), DiceSpec(6)]
    r.play(pos, Answer("fight", "defender"))
    assert r.geometry.parse_square("e1") not in pos.occ[0]
    assert all(pos.board[r.geometry.parse_square(s)].state == {"fatigue": 1} for s in ("e4", "e5"))


def test_kol_the_king_keeps_his_tokens_in_his_tower():
    r = make_rules("kol", fights="dice")
    pos = kpos(r, {"c2": None, "f1": "K", "g1": "T", "g2": "KG"})
    pos.set_state(r.geometry.parse_square("f1"), "fatigue", 2)
    pos.set_state(r.geometry.parse_square("g1"), "fatigue", 1)
    r.play(pos, r.parse_move(pos, "f1g1in"))
    assert pos.board[r.geometry.parse_square("g1")].state["fatigue"] == 1  # the Tower's own
    text = r.position_text(pos)
    assert "fatigue=g1:1" in text and "carried=g1:2" in text
    again = r.position_from_text(text)
    assert r.position_text(again) == text
    r.play(pos, r.parse_move(pos, "j11j10"))
    r.play(pos, r.parse_move(pos, "g1f1out"))
    assert pos.board[r.geometry.parse_square("f1")].state == {"fatigue": 2}
    assert pos.board[r.geometry.parse_square("g1")].state == {"fatigue": 1} and pos.var("carried") is None


def test_kol_the_king_stepping_out_to_capture_fights_with_his_own_tokens():
    r = make_rules("kol", fights="dice")
    pos = kpos(r, {"c2": None, "g1": "TK:1", "f2": "vg"})
    pos.set_var("carried", ((pos.board[r.geometry.parse_square("g1")].state["carries"], 3),))
    r.play(pos, r.parse_move(pos, "g1f2out"))
    attacker, (defender,) = r.fighters(pos)
    assert attacker.fatigue == 3 and attacker.weapon_choice and attacker.dice == DiceSpec(10)
    assert r.expected_occupancy(pos) == pos.occupied()  # the Tower stays while the King fights on f2
    r.play(pos, Answer("fight", "attacker"))
    assert pos.board[r.geometry.parse_square("f2")].state == {"fatigue": 4}


def test_kol_a_defender_that_wins_removes_the_attacker_whatever_the_capture_restrictions():
    """The Tower "cannot capture the Princess", but a Tower that wins its defence against her
    takes her off: the restrictions say who may attack, not who may survive."""
    r = make_rules("kol", fights="dice")
    pos = kpos(r, {"e4": "P", "e6": "t"})
    r.play(pos, r.parse_move(pos, "e4e6"))
    r.play(pos, Answer("fight", "defender"))
    assert pos.board[r.geometry.parse_square("e4")] is None


def test_kol_a_king_that_loses_a_fight_loses_the_game():
    """The seed: "if a King ever loses a fight they lose the game, even if they are not in Checkmate"."""
    r = make_rules("kol", fights="dice")
    pos = kpos(r, {"d3": "vg"})
    r.play(pos, r.parse_move(pos, "c2d3"))
    r.play(pos, Answer("fight", "defender"))
    assert r.outcome(pos).winners == {1} and r.outcome(pos).reason == "king lost a fight"
    assert r.legal_moves(pos) == [] and r.moves_from(pos, r.geometry.parse_square("j11")) == []


# ----- four-player chess ------------------------------------------------------------------------------
def test_chess4_a_king_lost_in_a_fight_puts_its_player_out_and_scores_20():
    """Red's rook threatens Blue's King at the start of Red's turn: "they must attack the King";
    the King that loses the fight puts its player out, and "Kings +20"."""
    r, pos = chess4_position({"a5": "1R"}, fights="dice")
    assert sorted(r.move_text(pos, m) for m in r.legal_moves(pos)) == ["a5a7"]
    assert [r.move_text(pos, m) for m in r.moves_from(pos, r.geometry.parse_square("h1"))] == []
    r.play(pos, r.parse_move(pos, "a5a7"))
    attacker, (king,) = r.fighters(pos)
    assert king.weapon_choice and not attacker.weapon_choice  # "the Kings always get weapon choice"
    r.play(pos, Answer("fight", "attacker"))
    assert pos.var("out") == (1,) and pos.var("points") == (20, 0, 0, 0)
    assert ("king_lost", 1, ()) in pos.var("effects")


def test_chess4_a_defender_that_wins_scores_the_attacker_it_took():
    r, pos = chess4_position({"e5": "1R", "e9": "3N"}, fights="dice")
    r.play(pos, r.parse_move(pos, "e5e9"))
    r.play(pos, Answer("fight", "defender"))
    assert pos.var("points") == (0, 0, 5, 0) and pos.turn == 1


def test_chess4_teams_a_king_lost_in_a_fight_loses_for_its_team():
    r, pos = chess4_position({"a5": "1R"}, mode="teams", fights="dice")
    r.play(pos, r.parse_move(pos, "a5a7"))
    r.play(pos, Answer("fight", "attacker"))
    assert r.outcome(pos).winners == {0, 2}


# ----- odds, text, undo for every game -----------------------------------------------------------------
@pytest.mark.parametrize("game", ["dungeon", "kol", "chess4"])
def test_odds_of_a_lifted_pieces_captures_are_exact_and_leave_the_position(game):
    rules = make_rules(game, fights="dice")
    rng = random.Random(3)
    pos = rules.start_position()
    seen = 0
    for _ in range(400):
        if pos.pending is not None:
            if pos.pending.chance:
                rules.apply(pos, settle_chance(rules, pos, rng))
            else:
                rules.apply(pos, rng.choice(rules.answers(pos)))
            continue
        if rules.outcome(pos) is not None:
            break
        moves = rules.legal_moves(pos)
        for m in moves:
            if m.capture is not None:
                before = pos.snapshot()
                odds = rules.odds_of_move(pos, m)
                assert odds.attacker + odds.defender + odds.bounce == Fraction(1)
                assert pos.snapshot() == before
                seen += 1
        rules.apply(pos, rng.choice(moves))
    assert seen > 0


@pytest.mark.parametrize("game, options", [("dungeon", {}), ("dungeon", {"players": 4}), ("kol", {}),
                                           ("chess4", {}), ("chess", {})])
def test_random_games_with_fights_undo_exactly_and_their_texts_round_trip(game, options):
    rules = make_rules(game, fights="dice", **options)
    rng = random.Random(11)
    pos = rules.start_position()
    for _ in range(160):
        if rules.outcome(pos) is not None:
            break
        pend = pos.pending
        if pend is not None and pend.chance:
            action = settle_chance(rules, pos, rng)
        elif pend is not None:
            action = rng.choice(rules.answers(pos))
        else:
            action = rng.choice(rules.legal_moves(pos))
        before, h = pos.snapshot(), pos.hash
        rules.apply(pos, action)
        rules.undo(pos)
        assert pos.snapshot() == before and pos.hash == h
        rules.apply(pos, action)
        if pos.pending is None and rules.outcome(pos) is None:
            text = rules.position_text(pos)
            try:
                again = rules.position_from_text(text)
            except Exception as e:  # KoL's own text refuses a King three turns in his Tower
                assert "turns=" in str(e)
                continue
            assert rules.position_text(again) == text


def test_an_answer_to_no_fight_is_refused():
    rules = make_rules("kol", fights="dice")
    with pytest.raises(IllegalMoveError, match="no fight"):
        rules.apply(rules.start_position(), Answer("fight", "attacker"))


def test_must_attack_tells_the_search_that_standing_still_is_not_an_option():
    r, pos = chess4_position({"a5": "1R"}, fights="dice")
    assert r.must_attack(pos)
    r, pos = chess4_position({"e5": "1R"}, fights="dice")
    assert not r.must_attack(pos)


# ----- the command line ---------------------------------------------------------------------------------
def test_fights_dice_on_the_command_line_for_every_game(capsys):
    from companion.cli import main

    for game in ("chess", "dungeon", "kol", "chess4"):
        assert main(["perft", "--variant", game, "--fights", "dice", "--depth", "1"]) == 0
    assert main(["moves", "--variant", "kol", "--fights", "dice", "--d6-only"]) == 0
    capsys.readouterr()
    assert main(["perft", "--variant", "chess2", "--fights", "dice", "--depth", "1"]) == 2
    assert "own duel" in capsys.readouterr().err
    assert main(["perft", "--variant", "dungeon", "--d6-only", "--depth", "1"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "--fights dice" in err
    with pytest.raises(SystemExit) as e:
        main(["replay", "--variant", "kol", "--fights", "swords", "log.jsonl"])
    assert e.value.code == 2 and "swords" in capsys.readouterr().err
