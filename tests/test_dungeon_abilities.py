"""Dungeon Chess abilities, each quoted from the rulebook v0.1.0 (and rules-notes where it is
silent). Board: tests/dungeon_board.py OPEN (10x10, water d5 e5 d6 e6, void h9); player 1
sits south (rank 1), player 2 north."""

import pytest

from companion.core.moves import Answer
from companion.core.rules import iter_perft
from companion.errors import IllegalMoveError
from tests.dungeon_board import move, names, position, rules, sq, targets

R = rules()
KINGS = {"a1": (0, "princess"), "j10": (1, "warlord")}


def pos_with(pieces, turn=0, kings=KINGS):
    return position(R, {**kings, **pieces}, turn)


def piece_at(pos, name):
    p = pos.board[sq(R, name)]
    return None if p is None else (p.owner, p.kind.name, dict(p.state))


# ------------------------------------------------------------------------------ cannon

def test_cannon_needs_exactly_one_screen_friend_or_foe():
    """"It must pass over exactly ONE piece (the 'screen')"; "The screen can be friendly or
    enemy"; "Without a screen piece in the line, the cannon cannot capture.\""""
    friend = pos_with({"a3": (0, "kobold"), "a5": (0, "hero"), "a8": (1, "hero")})
    foe = pos_with({"a3": (0, "kobold"), "a5": (1, "hero"), "a8": (1, "hero")})
    none = pos_with({"a3": (0, "kobold"), "a8": (1, "hero")})
    two = pos_with({"a3": (0, "kobold"), "a4": (1, "hero"), "a5": (1, "hero"), "a8": (1, "hero")})
    assert "a8" in targets(R, friend, "a3", captures=True)
    assert "a8" in targets(R, foe, "a3", captures=True)
    assert "a8" not in targets(R, none, "a3", captures=True)
    assert "a8" not in targets(R, two, "a3", captures=True)


def test_cannon_rulebook_example_kobold_a1_enemy_a5():
    """"A Kobold on a1 wants to capture an enemy on a5. There must be exactly one piece on a2,
    a3, or a4 (the screen).\""""
    kings = {"j1": (0, "princess"), "j10": (1, "warlord")}
    for screen in ("a2", "a3", "a4"):
        pos = pos_with({"a1": (0, "kobold"), screen: (1, "hero"), "a5": (1, "hero")}, kings=kings)
        assert "a5" in targets(R, pos, "a1", captures=True)
    pos = pos_with({"a1": (0, "kobold"), "a2": (1, "hero"), "a4": (0, "hero"), "a5": (1, "hero")}, kings=kings)
    assert "a5" not in targets(R, pos, "a1", captures=True)


def test_cannon_lines_skip_water():
    """"Water squares are skipped (not treated as blockers for cannon lines)" - the cannon
    b5 -> over the screen c5 -> (water d5 e5) -> f5."""
    pos = pos_with({"b5": (0, "goblin"), "c5": (1, "hero"), "f5": (1, "hero")})
    assert "f5" in targets(R, pos, "b5", captures=True)
    # the water is not a screen either: without c5 nothing stands between b5 and f5
    pos = pos_with({"b5": (0, "goblin"), "f5": (1, "hero"), "h5": (1, "hero")})
    assert targets(R, pos, "b5", captures=True) == ["h5"]  # f5 is the screen now


def test_cannon_lines_stop_at_void():
    """Void: "Cannot be entered by any unit" and "voids block slides for every unit": a cannon
    line ends at void (h9)."""
    pos = pos_with({"f9": (0, "kobold"), "g9": (1, "hero"), "i9": (1, "hero")})
    assert "i9" not in targets(R, pos, "f9", captures=True)


def test_cannon_captures_by_landing_on_the_target():
    """"The cannon jumps over the screen and lands on the target's square.\""""
    pos = pos_with({"a3": (0, "kobold"), "a5": (0, "hero"), "a8": (1, "hero")})
    move(R, pos, "a3a8")
    assert piece_at(pos, "a8") == (0, "kobold", {}) and pos.board[sq(R, "a3")] is None


def test_iron_golem_is_cannon_proof_but_not_immortal():
    """Iron Golem: "Cannon-proof: cannot be targeted by cannon attacks"."""
    pos = pos_with({"a3": (1, "kobold"), "a5": (1, "hero"), "a8": (0, "iron_golem"), "b8": (1, "ogre")}, turn=1)
    assert "a8" not in targets(R, pos, "a3", captures=True)
    assert "a8" in targets(R, pos, "b8", captures=True)  # the Ogre's adjacent attack
    # and it is still a screen for other cannons
    pos = pos_with({"a3": (0, "kobold"), "a5": (1, "iron_golem"), "a8": (1, "hero")})
    assert targets(R, pos, "a3", captures=True) == ["a8"]


def test_no_check_from_a_cannon_on_a_cannon_proof_royal_is_not_needed_but_attack_detection_agrees():
    """The engine's attack detection and move generation agree on cannon-proof targets."""
    pos = pos_with({"a3": (1, "kobold"), "a5": (1, "hero"), "a8": (0, "iron_golem")})
    assert not R.is_attacked(pos, sq(R, "a8"), 1)
    assert R.attackers(pos, sq(R, "a8"), 1) == []


# ------------------------------------------------------------------------------ fragile

def test_skeleton_can_be_captured_by_any_adjacent_enemy():
    """Skeleton: "Fragile: any adjacent enemy can capture it" - "regardless of that enemy's
    normal attack pattern": a Knight, a Stronghold diagonally, a Hero straight ahead."""
    pos = pos_with({"c3": (0, "knight"), "d4": (1, "skeleton"), "f4": (0, "stronghold"), "g5": (1, "skeleton"),
                    "b7": (0, "hero"), "b8": (1, "skeleton")})
    assert "d4" in targets(R, pos, "c3", captures=True)
    assert "g5" in targets(R, pos, "f4", captures=True)
    assert "b8" in targets(R, pos, "b7", captures=True)
    m = R.parse_move(pos, "c3d4")
    assert m.special == "fragile"
    assert sq(R, "c3") in R.attackers(pos, sq(R, "d4"), 0)


def test_fragile_capture_is_a_normal_capture_on_the_board():
    pos = pos_with({"c3": (0, "knight"), "d4": (1, "skeleton")})
    move(R, pos, "c3d4")
    assert piece_at(pos, "d4") == (0, "knight", {}) and sq(R, "c3") not in pos.occupied()
    assert any("Skeleton on d4 is captured" in line for line in R.describe_effects(pos))


def test_a_skeleton_already_attacked_normally_gets_no_second_move():
    pos = pos_with({"c3": (0, "hero"), "d4": (1, "skeleton")})
    ms = [m for m in R.moves_from(pos, sq(R, "c3")) if m.to == sq(R, "d4")]
    assert len(ms) == 1 and ms[0].special == ""


def test_own_skeletons_are_not_fragile_to_friends():
    pos = pos_with({"c3": (0, "knight"), "d4": (0, "skeleton")})
    assert "d4" not in targets(R, pos, "c3")


# ---------------------------------------------------------------------------- intimidate

def test_ogre_stops_adjacent_enemy_pawns_from_attacking():
    """Ogre: "Intimidate: adjacent enemy Pawns cannot attack"."""
    pos = pos_with({"c3": (0, "hero"), "d4": (1, "hero"), "c2": (1, "ogre")})
    assert "d4" not in targets(R, pos, "c3", captures=True)
    assert "c4" in targets(R, pos, "c3")  # it may still move
    pos = pos_with({"c3": (0, "hero"), "d4": (1, "hero"), "c1": (1, "ogre")})
    assert "d4" in targets(R, pos, "c3", captures=True)  # two squares away: no effect


def test_ogre_freezes_and_paralyzes_means_cannot_attack_the_pawns_still_move():
    """The faction text: "The Ogre freezes adjacent enemy Pawns"; the castle notes: "Ogre
    paralyzes nearby enemy Pawns"; the table, the unit's rule: "Intimidate: adjacent enemy Pawns
    cannot attack". Decision (docs/rules/dungeon.md): the table's words are the rule and
    "freezes"/"paralyzes" describe it; an intimidated Pawn makes no capture and gives no check,
    but it may move, and so walk out of the Ogre's reach."""
    pos = pos_with({"c3": (0, "kobold"), "d4": (1, "hero"), "c2": (1, "ogre"), "c8": (1, "hero"), "c6": (0, "hero")})
    assert targets(R, pos, "c3", captures=True) == []  # neither diagonal nor cannon
    quiet = targets(R, pos, "c3", captures=False)
    assert {"b4", "c4", "d3", "b3"} <= set(quiet)  # steps and its screen slide, away from the Ogre
    R.play(pos, R.parse_move(pos, "c3c5"))  # out of reach: next turn it may attack again
    R.play(pos, R.parse_move(pos, "j10j9"))
    assert targets(R, pos, "c5", captures=True) == ["c8", "d4"]


def test_intimidated_pawns_lose_cannon_and_fragile_captures_too():
    pos = pos_with({"a3": (0, "kobold"), "a5": (0, "hero"), "a8": (1, "hero"), "b2": (1, "ogre"),
                    "b4": (1, "skeleton")})
    assert targets(R, pos, "a3", captures=True) == []


def test_intimidate_affects_only_pawns_and_only_enemies():
    pos = pos_with({"c3": (0, "knight"), "c2": (1, "ogre"), "b5": (1, "hero")})
    assert "b5" in targets(R, pos, "c3", captures=True)
    pos = pos_with({"c3": (1, "hero"), "d2": (0, "hero"), "c2": (1, "ogre")}, turn=1)
    assert "d2" in targets(R, pos, "c3", captures=True)  # its own Ogre does not frighten it


def test_an_intimidated_pawn_gives_no_check():
    """rules-notes: intimidated Pawns "cannot attack (cannon shots included) and give no check"."""
    pos = position(R, {"c3": (0, "princess"), "d4": (1, "hero"), "j10": (1, "warlord")})
    assert R.in_check(pos, 0)
    pos = position(R, {"c3": (0, "princess"), "d4": (1, "hero"), "e4": (0, "ogre"), "j10": (1, "warlord")})
    assert not R.in_check(pos, 0)
    # so the Ogre may step away only where it stays next to the Hero (e3), or take it (d4)
    assert "f4" not in targets(R, pos, "e4") and {"e3", "d4"} <= set(targets(R, pos, "e4"))


# ----------------------------------------------------------------------------- water walk

def test_a_reaper_on_water_can_only_be_captured_by_a_unit_that_may_stand_there():
    """Water: "Most units CANNOT step onto water squares" - capturing means moving onto the
    target's square, so only another Reaper can take a Reaper standing on water."""
    pos = pos_with({"d5": (1, "reaper"), "b4": (0, "knight"), "b6": (0, "reaper"), "d2": (0, "stronghold"),
                    "c5": (0, "hero")})
    assert "d5" in targets(R, pos, "b6", captures=True)
    assert "d5" not in targets(R, pos, "b4") and "d5" not in targets(R, pos, "d2") and "d5" not in targets(R, pos, "c5")


def test_a_reaper_on_water_still_blocks_slides():
    pos = pos_with({"d2": (0, "stronghold"), "d5": (1, "reaper"), "d8": (1, "hero")})
    assert "d8" not in targets(R, pos, "d2", captures=True)


# --------------------------------------------------------------------------- hit-and-run

def test_salamander_may_take_one_more_step_after_capturing():
    """Salamander: "Hit-and-run: after capturing, may move 1 additional square in any direction"."""
    pos = pos_with({"c3": (0, "salamander"), "d5": (1, "reaper"), "b5": (1, "hero"), "b6": (0, "hero")})
    move(R, pos, "c3b5")
    d = pos.pending
    assert d is not None and d.kind == "step" and d.player == 0 and pos.turn == 0
    options = [R.answer_text(a) for a in R.answers(pos)]
    assert options[0] == "stay"
    # the 8 neighbours of b5 minus the occupied b6 (c6 is floor, c5 floor, a4..c4 floor)
    assert sorted(options[1:]) == ["a4", "a5", "a6", "b4", "c4", "c5", "c6"]
    R.play(pos, Answer("step", sq(R, "c4")))
    assert pos.pending is None and pos.turn == 1
    assert piece_at(pos, "c4") == (0, "salamander", {}) and pos.board[sq(R, "b5")] is None
    assert any("steps on from b5 to c4" in w for w in R.describe_effects(pos))


def test_salamander_may_stay_and_never_steps_onto_water_or_a_piece():
    pos = pos_with({"c3": (0, "salamander"), "c4": (1, "hero"), "e4": (1, "hero")})
    move(R, pos, "c3e4")
    opts = {R.answer_text(a) for a in R.answers(pos)}
    assert "d5" not in opts and "e5" not in opts and "stay" in opts
    R.play(pos, Answer("step", "stay"))
    assert piece_at(pos, "e4") == (0, "salamander", {}) and pos.turn == 1


def test_hit_and_run_legality_is_judged_after_the_step():
    """rules-notes: "legality is judged after that step". The Salamander shields the Princess
    on a1 from a Stronghold on the a-file."""
    pos = pos_with({"a2": (0, "salamander"), "a6": (1, "stronghold"), "c3": (1, "hero")})
    # after a2xc3 the a-file is open: stay is illegal, a step to b2/b3/b4/c2/c4/d2/d3/d4 never
    # blocks a2..a5, so the capture is illegal altogether
    assert "c3" not in targets(R, pos, "a2")
    pos = pos_with({"a4": (0, "salamander"), "a6": (1, "stronghold"), "b2": (1, "hero")})
    # (the Hero on b2 checks a1 diagonally) a4xb2, then a step to a3 or a2 closes the file
    # again: the capture is legal, and only those two steps are
    assert "b2" in targets(R, pos, "a4")
    move(R, pos, "a4b2")
    assert {R.answer_text(a) for a in R.answers(pos)} == {"a2", "a3"}
    with pytest.raises(IllegalMoveError):
        R.play(pos, Answer("step", "stay"))


def test_a_salamander_that_blows_up_its_own_king_with_more_players_left_is_no_crash():
    """Four players: a Salamander takes a Demonics standing next to its own Princess. The
    explosion destroys the Princess, its player is out and all its pieces go, the Salamander
    too: there is no step to offer, and the capture is illegal ("a move that would blow up
    your own King is illegal"). legal_moves raised AttributeError here (found by a review's
    random positions)."""
    r4 = rules("open4")
    pos = position(r4, {"e2": (0, "princess"), "d5": (0, "salamander"), "e3": (1, "demonics"),
                        "j5": (1, "warlord"), "e10": (2, "red_dragon"), "a5": (3, "warlock")}, turn=0)
    assert "e3" not in targets(r4, pos, "d5")
    assert not [m for m in r4.legal_moves(pos) if m.frm == sq(r4, "d5") and m.capture == sq(r4, "e3")]


def test_perft_branches_over_the_hit_and_run_choices():
    pos = pos_with({"c3": (0, "salamander"), "b5": (1, "hero")})
    R.apply(pos, R.parse_move(pos, "c3b5"))
    n = len(R.answers(pos))
    assert iter_perft(R, pos, 0) == n


# ---------------------------------------------------------------------------- thick skin

def test_troll_absorbs_the_first_capture_pushed_back_toward_its_home_edge():
    """Troll: "Thick-skinned: first capture is absorbed (pushed 1 sq backward); second capture
    kills". rules-notes: the attacker stays where it was."""
    pos = pos_with({"c3": (0, "knight"), "d5": (1, "reaper"), "b5": (1, "troll")})
    move(R, pos, "c3b5")
    assert piece_at(pos, "b6") == (1, "troll", {"wounded": 1})  # player 2's home is north
    assert piece_at(pos, "c3") == (0, "knight", {}) and pos.board[sq(R, "b5")] is None
    assert R.expected_occupancy(pos) == frozenset(sq(R, s) for s in ("a1", "j10", "c3", "d5", "b6"))
    assert any("absorbs the blow: move it back from b5 to b6" in w for w in R.describe_effects(pos))
    # second capture kills
    pos2 = pos_with({"a4": (0, "knight"), "b6": (1, "troll", {"wounded": 1})})
    move(R, pos2, "a4b6")
    assert piece_at(pos2, "b6") == (0, "knight", {})


@pytest.mark.parametrize("behind,what", [("b7", "piece"), ("i10", "edge"), ("h8", "void"), ("e4", "water")])
def test_troll_pushed_into_a_blocked_square_dies(behind, what):
    """rules-notes: "if that square is blocked, void, water or off the board, it dies"."""
    if what == "piece":
        troll, extra = "b6", {"b7": (1, "hero")}
        attacker, frm = "knight", "c4"
    elif what == "edge":
        troll, extra = "i10", {}
        attacker, frm = "knight", "h8"
    elif what == "void":
        troll, extra = "h8", {}
        attacker, frm = "knight", "g6"
    else:  # player 2 sits north: behind e4 is e5, water
        troll, extra = "e4", {}
        attacker, frm = "knight", "c3"
    pos = pos_with({troll: (1, "troll"), frm: (0, attacker), **extra})
    if what == "edge":
        pos = position(R, {"a1": (0, "princess"), "a10": (1, "warlord"), troll: (1, "troll"), frm: (0, attacker)})
    move(R, pos, frm + troll)
    assert piece_at(pos, troll) == (0, attacker, {})  # the capture goes through: it dies
    assert any("cannot be pushed back" in w for w in R.describe_effects(pos))


def test_troll_push_back_direction_follows_the_owners_seat_in_four_player_games():
    r = rules("open4")
    # player 2 sits east: backward is toward file j
    pos = position(r, {"b1": (0, "princess"), "j5": (1, "warlord"), "e10": (2, "warlord"), "a5": (3, "warlord"),
                       "g4": (1, "troll"), "f2": (0, "knight")})
    move(r, pos, "f2g4")
    assert r.geometry.name_of(next(s for s, p in pos.pieces(1) if p.kind.name == "troll")) == "h4"


def test_an_absorbed_capture_by_a_salamander_gives_no_extra_step():
    pos = pos_with({"c3": (0, "salamander"), "b5": (1, "troll")})
    move(R, pos, "c3b5")
    assert pos.pending is None and pos.turn == 1


# ---------------------------------------------------------------------------- volatile

def test_demonics_explodes_destroying_adjacent_enemies_the_capturer_survives():
    """Demonics: "Volatile: on death, explodes - destroys all adjacent enemy pieces"."""
    pos = pos_with({"c4": (1, "demonics"), "b3": (0, "hero"), "c3": (0, "knight"), "d3": (1, "hero")})
    move(R, pos, "b3c4")
    assert piece_at(pos, "c4") == (0, "hero", {})  # the capturer on the death square survives
    assert pos.board[sq(R, "c3")] is None  # the adjacent enemy Knight is destroyed
    assert piece_at(pos, "d3") == (1, "hero", {})  # the Demonics' own pieces are not
    words = R.describe_effects(pos)
    assert any("Demonics explodes on c4" in w for w in words)
    assert any("Remove player 1's Knight from c3" in w for w in words)


def test_demonics_explosions_chain():
    """rules-notes: "explosions chain through other Demonics" - each destroyed Demonics
    explodes in turn and destroys the enemies next to it."""
    pos = pos_with({"c4": (1, "demonics"), "d5": (1, "reaper"), "c5": (0, "demonics"), "b6": (1, "hero"),
                    "b3": (0, "hero")})
    move(R, pos, "b3c4")  # P2's Demonics dies -> destroys P1's Demonics on c5 -> destroys b6, d5
    assert pos.board[sq(R, "c5")] is None and pos.board[sq(R, "b6")] is None and pos.board[sq(R, "d5")] is None
    assert piece_at(pos, "c4") == (0, "hero", {})  # a friend of the second Demonics: spared
    explosions = [e for e in pos.var("effects") if e[0] == "explosion"]
    assert [R.geometry.name_of(e[1]) for e in explosions] == ["c4", "c5"]


def test_a_king_destroyed_by_an_explosion_loses():
    pos = position(R, {"a1": (0, "princess"), "c6": (1, "warlord"), "c4": (1, "demonics"), "c5": (0, "demonics"),
                       "b3": (0, "hero")})
    move(R, pos, "b3c4")
    o = R.outcome(pos)
    assert o is not None and o.winners == {0} and "explosion" in o.reason


def test_a_move_that_blows_up_your_own_king_is_illegal():
    """rules-notes: "a move that would blow up your own King is illegal"."""
    pos = position(R, {"b3": (0, "princess"), "j10": (1, "warlord"), "c4": (1, "demonics"), "d3": (0, "hero")})
    assert "c4" not in targets(R, pos, "d3")  # the Princess on b3 stands next to c4
    assert "c4" in targets(R, pos, "b3")  # she herself may take it: the capturer survives
    pos = position(R, {"a1": (0, "princess"), "j10": (1, "warlord"), "c4": (1, "demonics"), "d3": (0, "hero")})
    assert "c4" in targets(R, pos, "d3")


def test_occupancy_after_an_explosion_is_what_the_board_must_show():
    pos = pos_with({"c4": (1, "demonics"), "b3": (0, "hero"), "c3": (0, "knight"), "d3": (1, "hero")})
    m = R.parse_move(pos, "b3c4")
    after = R.occupancy_after(pos, m)
    assert after == frozenset(sq(R, s) for s in ("a1", "j10", "c4", "d3"))
    R.play(pos, m)
    assert R.expected_occupancy(pos) == after


# ----------------------------------------------------------------------------------- hex

def test_shaman_hexes_one_visible_enemy_once_per_game():
    """Shaman: "Hex: once per game, spend a turn to immobilise one visible enemy for 2 turns"."""
    pos = pos_with({"c3": (0, "shaman"), "c8": (1, "knight"), "f6": (1, "hero"), "g3": (1, "hero"),
                    "h3": (1, "stronghold")})
    hexes = [m for m in R.moves_from(pos, sq(R, "c3")) if m.special == "hex"]
    assert names(R, {m.to for m in hexes}) == ["c8", "f6", "g3"]  # h3 hides behind g3
    move(R, pos, "c3c8hex")
    assert piece_at(pos, "c8") == (1, "knight", {"hex": 2})
    assert piece_at(pos, "c3") == (0, "shaman", {"hex_spent": 1}) and pos.turn == 1
    assert targets(R, pos, "c8") == []
    R.play(pos, R.legal_moves(pos)[0])
    assert not [m for m in R.moves_from(pos, sq(R, "c3")) if m.special == "hex"]  # once per game


def test_hex_sight_crosses_water_but_not_void():
    pos = pos_with({"c4": (0, "shaman"), "f7": (1, "hero"), "f9": (1, "hero")})
    assert "c4f7hex" in {R.move_text(pos, m) for m in R.legal_moves(pos)}  # over the water d5, e6
    pos = pos_with({"g9": (0, "shaman"), "j9": (1, "hero")})
    assert "g9j9hex" not in {R.move_text(pos, m) for m in R.legal_moves(pos)}  # h9 is void


def test_a_hexed_unit_cannot_move_attack_or_give_check_and_the_hex_expires_after_two_turns():
    """rules-notes: "the hexed unit cannot move, attack or give check for its owner's next 2
    turns"."""
    pos = position(R, {"a1": (0, "princess"), "j10": (1, "warlord"), "a8": (1, "stronghold"),
                       "j3": (0, "shaman"), "b8": (0, "hero"), "h5": (0, "hero")}, turn=0)
    assert R.in_check(pos, 0)  # a8 attacks a1 down the file
    # a hex that does not resolve the check is illegal (j3 sees j10 only)
    assert "j3j10hex" not in {R.move_text(pos, m) for m in R.legal_moves(pos)}
    pos = position(R, {"a1": (0, "princess"), "j10": (1, "warlord"), "a8": (1, "stronghold"),
                       "d8": (0, "shaman"), "h5": (0, "hero")}, turn=0)
    assert R.in_check(pos, 0)
    move(R, pos, "d8a8hex")  # hexing the checker resolves the check
    assert not R.in_check(pos, 0)  # a hexed unit gives no check
    assert targets(R, pos, "a8") == []  # player 2's first hexed turn
    move(R, pos, "j10j9")
    assert piece_at(pos, "a8")[2] == {"hex": 1}
    move(R, pos, "h5h6")
    assert targets(R, pos, "a8") == []  # player 2's second hexed turn
    move(R, pos, "j9j10")
    assert piece_at(pos, "a8")[2] == {}  # worn off at the end of that turn
    assert any("wears off" in w for w in R.describe_effects(pos))
    assert R.in_check(pos, 0)


def test_a_hexed_shaman_cannot_hex_and_hexed_kings_cannot_move():
    pos = position(R, {"a1": (0, "princess", {"hex": 1}), "j10": (1, "warlord"), "c3": (0, "shaman", {"hex": 2}),
                       "h2": (0, "hero")})
    assert targets(R, pos, "a1") == [] and R.moves_from(pos, sq(R, "c3")) == []
    assert targets(R, pos, "h2")


# ------------------------------------------------------------------------ ranged kings

CHECKS = [  # attacker on square (player 2), helpers, player 2's King (j10 unless the attacker)
    ("warlock", "f6", {}, "warlock"),  # diagonal slide attack, over the water at e5
    ("red_dragon", "b3", {}, "red_dragon"),  # L-shaped strike
    ("warlord", "c2", {}, "warlord"),
    ("archer", "d4", {"c3": (0, "hero")}, "warlord"),  # through one piece
    ("tomb", "a6", {"a4": (1, "hero")}, "warlord"),  # through one of its own pieces
    ("wizard", "f6", {}, "warlord"),  # a diagonal attack of a rook-mover
    ("vampire", "a8", {}, "warlord"),  # a straight attack of a bishop-mover
    ("kobold", "a8", {"a2": (0, "hero")}, "warlord"),  # a cannon over the Princess's own Hero
]


@pytest.mark.parametrize("attacker,square,helpers,king", CHECKS, ids=[c[0] for c in CHECKS])
def test_ranged_and_split_attacks_give_check(attacker, square, helpers, king):
    """"A King is in check if an enemy unit could capture it on the next move"."""
    pieces = {"a1": (0, "princess"), square: (1, attacker), **helpers}
    if attacker != king:
        pieces["j10"] = (1, king)
    pos = position(R, pieces)
    assert R.in_check(pos, 0)


def test_princess_gives_no_check_along_her_slide():
    pos = position(R, {"a1": (0, "warlock"), "f6": (1, "princess")}, turn=1)
    assert not R.in_check(pos, 0)


def test_wraith_gives_check_through_its_own_pieces():
    pos = position(R, {"a1": (0, "princess"), "j10": (1, "warlord"), "f6": (1, "wraith"), "c3": (1, "hero")})
    assert R.in_check(pos, 0)
    pos = position(R, {"a1": (0, "princess"), "j10": (1, "warlord"), "f6": (1, "wraith"), "c3": (0, "hero")})
    assert not R.in_check(pos, 0)
