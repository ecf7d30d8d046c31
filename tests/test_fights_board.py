"""Four-player chess and dice fights on the physical board: the tracker follows them with no code
of theirs (docs/tracker.md, "A new game's effects"): moves made by hand, the capture standing as
made while the dice roll, the result guided back."""

from __future__ import annotations

from dungeon_board_table import DungeonTable

from companion.core.moves import Answer
from companion.games import make_rules
from companion.games.dungeon import DungeonRules
from companion.games.fights import add_fights
from companion.maps import parse_map
from tests.chess4_helpers import position as chess4_position
from tests.dungeon_board import OPEN
from tests.test_fights_layer import KOL_BASE, dpos, kpos


def hands(t: DungeonTable, *steps: str) -> DungeonTable:
    return t.run([("lift" if s[0] == "-" else "put", s[1:]) for s in steps])


def resolve(t: DungeonTable, result: str) -> None:
    t.rules.play(t.pos, Answer("fight", result))
    t.handle(t.tracker.position_changed())


def test_four_player_chess_moves_by_hand_castling_included():
    r = make_rules("chess4")
    t = DungeonTable(r, r.start_position())
    hands(t, "-h2", "+h4")
    hands(t, "-b7", "+d7")
    hands(t, "-h13", "+h11")
    hands(t, "-m10", "+l10")
    assert t.actions == ["h2h4", "b7d7", "h13h11", "m10l10"] and t.tracker.in_sync
    r, pos = chess4_position({"d1": "1R", "k1": "1R"}, castling=(r.geometry.parse_square("k1"),))
    t = DungeonTable(r, pos)
    hands(t, "-h1", "+j1", "-k1", "+i1")
    assert t.actions == ["h1j1"] and t.tracker.in_sync


def test_four_player_chess_a_checkmated_army_stays_and_the_board_needs_nothing():
    r, pos = chess4_position({"d14": "3K", "d13": "3P", "e13": "3P", "k3": "1R"})
    t = DungeonTable(r, pos)
    hands(t, "-k3", "+k14")
    hands(t, "-a7", "+a6")
    assert pos.var("out") == (2,) and t.tracker.in_sync


def test_a_dungeon_fight_stands_as_made_while_the_dice_roll_and_the_loss_is_guided_back():
    r = add_fights(DungeonRules(parse_map(OPEN)))
    pos = dpos(r, {"a1": (0, "princess"), "j10": (1, "princess"), "b4": (0, "knight"), "c6": (1, "hero")})
    t = DungeonTable(r, pos)
    hands(t, "-c6", "-b4", "+c6")
    assert t.actions == ["b4c6"] and pos.pending.kind == "fight" and t.tracker.in_sync
    resolve(t, "defender")
    assert not t.tracker.in_sync  # the knight on c6 must go, the hero come back
    t.follow_guidance()
    assert t.tracker.in_sync and pos.board[r.geometry.parse_square("c6")].kind.code == "HE"


def test_a_troll_absorbing_a_lost_defence_is_guided_back_one_square():
    r = add_fights(DungeonRules(parse_map(OPEN)))
    pos = dpos(r, {"a1": (0, "princess"), "j10": (1, "princess"), "b4": (0, "knight"), "c6": (1, "troll")})
    t = DungeonTable(r, pos)
    hands(t, "-c6", "-b4", "+c6")
    resolve(t, "attacker")
    t.follow_guidance()
    assert t.tracker.in_sync and pos.board[r.geometry.parse_square("c7")].kind.code == "TR"


def test_a_kol_king_stepping_out_to_fight_leaves_his_tower_standing():
    r = make_rules("kol", fights="dice")
    pos = kpos(r, {"c2": None, "g1": "TK:1", "f2": "vg"})
    assert KOL_BASE
    t = DungeonTable(r, pos)
    hands(t, "-f2", "-g1", "+g1", "+f2")
    assert t.actions == ["g1f2out"] and pos.pending.kind == "fight" and t.tracker.in_sync
    resolve(t, "attacker")
    t.follow_guidance()
    assert t.tracker.in_sync


def test_boris_double_capture_made_by_hand_is_one_fight_against_both():
    r = make_rules("kol", fights="dice")
    pos = kpos(r, {"c2": None, "a2": "K", "e1": "B", "e4": "kg", "e5": "kg"})
    t = DungeonTable(r, pos)
    hands(t, "-e4", "-e5", "-e1", "+e5")
    assert t.actions == ["e1e5"] and len(pos.pending.get("defenders")) == 2 and t.tracker.in_sync
    resolve(t, "defender")
    t.follow_guidance()
    assert t.tracker.in_sync and pos.board[r.geometry.parse_square("e1")] is None
