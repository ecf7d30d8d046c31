"""The movement vocabulary's options added for KoL Chess, tested as general engine features on
small boards built from data (no game module): rides and leaps tied to map tags (``within=``,
``from=``, ``to=``), wrap-around rides, unblockable ``jump`` rides, kinds that their own side
passes through (``passable_by``), and capture permissions by role (``captured_only_by``,
``cannot_capture``); the ``[setup]`` grid of a roster."""

import pytest

from companion.core.geometry import Geometry
from companion.core.notation import parse_position
from companion.core.pieces import PieceKind, parse_pattern
from companion.core.roster import roster_from_dict
from companion.core.rules import Rules
from companion.core.setup import format_setup, parse_setup
from companion.errors import PositionError, VariantError


def kind(name, code, move=(), capture=(), both=(), **kw):
    P = lambda items: tuple(parse_pattern(t) for t in items)  # noqa: E731
    return PieceKind(name=name, code=code, move=P(move), capture=P(capture), both=P(both), **kw)


def board(w=8, h=8, **tags):
    geo = Geometry(w, h)
    named = {name: frozenset(geo.parse_square(s) for s in squares.split()) for name, squares in tags.items()}
    return Geometry(w, h, tags=named, name="test")


KING = kind("king", "K", both=["leap 1,0", "leap 1,1"], royal=True)


def targets(rules, pos, square, captures=None):
    g = rules.geometry
    sq = g.parse_square(square)
    moves = [m for m in rules.pseudo_moves(pos, pos.board[sq].owner) if m.frm == sq]
    if captures is not None:
        moves = [m for m in moves if (m.capture is not None) == captures]
    return sorted(g.name_of(m.to) for m in moves)


def attacked(rules, pos, square, by):
    return rules.is_attacked(pos, rules.geometry.parse_square(square), by)


# ----------------------------------------------------------------------------------- within=TAG

LIGHT = " ".join(f"{'abcdefgh'[f]}{r + 1}" for f in range(8) for r in range(8) if (f + r) % 2 == 1)


def test_within_keeps_a_ride_on_the_tag_and_ends_it_before_the_first_square_outside():
    geo = board(light="c1 d2 e3 f4 b2 a3")  # the diagonal breaks after f4; the other way after a3
    rules = Rules(geo, [KING, kind("snowman", "S", both=["ride 1,1 within=light"])], ("south", "north"))
    pos = parse_position(rules, "K7/8/8/8/8/8/8/2S4k 1")
    assert targets(rules, pos, "c1") == ["a3", "b2", "d2", "e3", "f4"]


def test_within_attacks_follow_the_same_squares_and_a_piece_off_the_tag_has_no_slide():
    geo = board(light="c1 d2 e3 f4")
    rules = Rules(geo, [KING, kind("snowman", "S", both=["ride 1,1 within=light"])], ("south", "north"))
    pos = parse_position(rules, "8/8/8/8/5k2/8/8/2S4K 1")
    assert attacked(rules, pos, "f4", 0)
    assert targets(rules, pos, "c1") == ["d2", "e3", "f4"]
    pos = parse_position(rules, "8/8/8/8/5k2/8/1S6/7K 1")
    assert targets(rules, pos, "b2") == [] and not attacked(rules, pos, "c1", 0)  # b2 is off the tag


def test_within_on_a_checkerboard_is_the_bishops_own_colour():
    geo = board(light=LIGHT)
    rules = Rules(geo, [KING, kind("snowman", "S", both=["ride 1,1 within=light"]),
                        kind("bishop", "B", both=["ride 1,1"])], ("south", "north"))
    pos = parse_position(rules, "7k/8/8/8/3S4/8/8/K7 1")
    assert targets(rules, pos, "d4") == []  # d4 is dark: no light square around it
    pos = parse_position(rules, "7k/8/8/8/4S3/8/8/K7 1")
    pos2 = parse_position(rules, "7k/8/8/8/4B3/8/8/K7 1")
    assert targets(rules, pos, "e4") == targets(rules, pos2, "e4")


def test_a_pattern_that_names_a_tag_the_map_lacks_is_an_error_naming_it():
    with pytest.raises(VariantError, match="names the tag 'light', which the map test does not have"):
        Rules(board(), [KING, kind("snowman", "S", both=["ride 1,1 within=light"])], ("south", "north"))


# ------------------------------------------------------------------------------- from= and to=

def test_from_and_to_restrict_a_jump_ride_to_tagged_squares_a_teleport():
    geo = board(blue="a1 a8 f1 h1 c3")
    tele = kind("teleporter", "J", move=["ride 1,0 jump from=blue to=blue"])
    rules = Rules(geo, [KING, tele], ("south", "north"))
    pos = parse_position(rules, "7k/j7/j7/8/8/8/j7/J6K 1")
    # pieces between do not matter; h1 is occupied (move only); c3 is not on a line with a1
    assert targets(rules, pos, "a1") == ["a8", "f1"]
    pos = parse_position(rules, "7k/8/8/8/8/8/8/1J5K 1")  # b1 is not blue: no teleport from it
    assert targets(rules, pos, "b1") == []


def test_to_on_a_leap_limits_where_it_lands_and_what_it_attacks():
    geo = board(dark="b3")
    rules = Rules(geo, [KING, kind("hopper", "H", both=["leap 1,2 to=dark"])], ("south", "north"))
    pos = parse_position(rules, "7k/8/8/8/8/8/8/H3K3 1")
    assert targets(rules, pos, "a1") == ["b3"]  # c2 is a knight's leap away too, but not dark
    pos = parse_position(rules, "7k/8/8/8/8/1h6/2h5/H3K3 1")
    assert attacked(rules, pos, "b3", 0) and not attacked(rules, pos, "c2", 0)
    assert targets(rules, pos, "a1") == ["b3"]


def test_tag_options_are_refused_where_they_mean_nothing():
    for text, words in [("leap 1,2 within=a", "only apply to 'ride'"), ("ride 1,0 to=a", "'to=' applies to leaps"),
                        ("hop 1,0 wrap", "only apply to 'ride'"), ("ride 1,0 jump within=a", "passes everything"),
                        ("ride 1,0 wrap phase", "cannot also be"), ("ride 1,0 within=9", "must name a map tag")]:
        with pytest.raises(VariantError, match=words):
            parse_pattern(text)
    with pytest.raises(VariantError, match="only for 'move' patterns"):
        kind("x", "X", capture=["leap 1,0 from=a"])
    with pytest.raises(VariantError, match="only moves"):
        kind("x", "X", both=["ride 1,0 jump"])
    with pytest.raises(VariantError, match="captures never wrap"):
        kind("x", "X", capture=["ride 1,0 wrap"])


@pytest.mark.parametrize("text", ["ride 1,0 within=yeti wrap", "ride 1,0 jump from=blue to=blue",
                                  "leap 3,1 to=dark", "ride 1,1 forward max=2 within=light"])
def test_pattern_text_round_trips(text):
    p = parse_pattern(text)
    assert parse_pattern(p.text()) == p


# ---------------------------------------------------------------------------------------- wrap

YETI = kind("yeti", "Y", both=["ride 1,0 wrap"])


def test_wrap_comes_back_at_the_opposite_edge_to_empty_squares_only():
    rules = Rules(board(), [KING, YETI], ("south", "north"))
    pos = parse_position(rules, "4k2K/8/8/8/8/8/8/1Y3y2 1")
    # along rank 1: right to e1 then stop at the enemy on f1 (capture); left: a1, then off the edge
    # and back on at h1, g1 (empty); f1 after wrapping is not a capture
    assert targets(rules, pos, "b1", captures=True) == ["f1"]
    assert "h1" in targets(rules, pos, "b1", captures=False) and "g1" in targets(rules, pos, "b1", captures=False)
    assert targets(rules, pos, "b1", captures=False).count("f1") == 0


def test_wrap_never_reaches_its_own_square_and_stops_at_the_first_piece_after_wrapping():
    rules = Rules(board(), [KING, YETI], ("south", "north"))
    pos = parse_position(rules, "4k2K/8/8/8/8/8/8/1Y6 1")
    quiet = targets(rules, pos, "b1", captures=False)
    assert "b1" not in quiet and sorted(set(quiet)) == quiet
    assert {"a1", "c1", "d1", "e1", "f1", "g1", "h1"} <= set(quiet)
    pos = parse_position(rules, "4k2K/8/8/8/8/8/8/1Y4Y1 1")  # own piece on g1: h1, a1 only on the left
    left = [s for s in targets(rules, pos, "b1", captures=False) if s[1] == "1"]
    assert sorted(left) == ["a1", "c1", "d1", "e1", "f1", "h1"]


def test_wrap_gives_no_attack_across_the_edge():
    rules = Rules(board(), [KING, YETI], ("south", "north"))
    pos = parse_position(rules, "8/8/8/8/8/8/8/Y3k1K1 1")
    assert attacked(rules, pos, "e1", 0)
    pos = parse_position(rules, "8/8/8/8/8/8/8/k1K4Y 1")  # a1 would be reached only by wrapping
    assert not attacked(rules, pos, "a1", 0)


def test_wrap_with_within_keeps_to_the_tag_all_round():
    geo = board(road="a1 b1 c1 d1 e1 f1 g1 h1 a2")
    rules = Rules(geo, [KING, kind("yeti", "Y", both=["ride 1,0 within=road wrap"])], ("south", "north"))
    pos = parse_position(rules, "4k2K/8/8/8/8/8/8/1Y6 1")
    assert targets(rules, pos, "b1") == ["a1", "c1", "d1", "e1", "f1", "g1", "h1"]  # not b2, not a2
    pos = parse_position(rules, "4k2K/8/8/8/8/8/8/Y7 1")
    assert targets(rules, pos, "a1") == ["a2", "b1", "c1", "d1", "e1", "f1", "g1", "h1"]  # a3 is off the road


# ---------------------------------------------------------------------------------- passable_by

GNOME = kind("gnome", "G", move=["ride 1,0 forward max=2"], capture=["leap 0,1 exact"], passable_by="friends")
ROOK = kind("rook", "R", both=["ride 1,0"])
PAWN = kind("pawn", "P", move=["leap 0,1 exact", "leap 0,2 exact from_rank=1 lame"], capture=["leap 1,1 forward"])


def test_own_pieces_pass_through_a_passable_piece_enemies_do_not():
    rules = Rules(board(), [KING, GNOME, ROOK, PAWN], ("south", "north"))
    pos = parse_position(rules, "r3k3/8/8/8/G7/8/8/R3K3 1")
    assert targets(rules, pos, "a1") == sorted(["a2", "a3", "a5", "a6", "a7", "a8", "b1", "c1", "d1"])
    assert targets(rules, pos, "a8") == sorted(["a7", "a6", "a5", "a4", "b8", "c8", "d8"])  # stops at a4 (captures it)


def test_attacks_pass_through_own_passable_pieces():
    rules = Rules(board(), [KING, GNOME, ROOK, PAWN], ("south", "north"))
    pos = parse_position(rules, "k7/8/8/8/G7/8/8/R3K3 2")
    assert attacked(rules, pos, "a8", 0)  # check through the own gnome
    pos = parse_position(rules, "k7/8/8/8/g7/8/8/R3K3 2")
    assert not attacked(rules, pos, "a8", 0)  # an enemy gnome blocks


def test_lame_steps_pass_through_own_passable_pieces():
    rules = Rules(board(), [KING, GNOME, ROOK, PAWN], ("south", "north"))
    pos = parse_position(rules, "4k3/8/8/8/8/G7/P7/4K3 1")
    assert targets(rules, pos, "a2") == ["a4"]  # a3 holds the gnome: the double step passes it
    pos = parse_position(rules, "4k3/8/8/8/8/g7/P7/4K3 1")
    assert targets(rules, pos, "a2", captures=False) == []


def test_passable_by_takes_friends_only():
    with pytest.raises(VariantError, match="passable_by must be one of friends"):
        kind("x", "X", passable_by="everyone")


# -------------------------------------------------------------------------- capture permissions

def roles():
    princess = kind("princess", "Q", both=["ride 1,0 max=4"], role="royal",
                    captured_only_by=("royal", "monster"), cannot_capture=("pawn",))
    pawn = kind("pawn", "P", move=["leap 0,1 exact"], capture=["leap 1,1 forward", "leap 0,1 exact"], role="pawn")
    monster = kind("monster", "M", both=["leap 1,2"], role="monster")
    vault = kind("vault", "V", move=["ride 1,0"], royal=True, captured_only_by=())
    king = kind("king", "K", both=["leap 1,0", "leap 1,1"], royal=True, role="royal")
    return Rules(board(), [king, princess, pawn, monster, vault], ("south", "north"))


def test_captured_only_by_roles_and_cannot_capture_roles():
    rules = roles()
    pos = parse_position(rules, "4k3/8/8/8/8/1p6/Q7/4K3 2")
    assert targets(rules, pos, "b3", captures=True) == []  # a pawn may not take the princess
    assert not attacked(rules, pos, "a2", 1)
    pos = parse_position(rules, "4k3/8/8/8/8/p7/Q7/4K3 1")
    assert "a3" not in targets(rules, pos, "a2")  # the princess may not take a pawn
    pos = parse_position(rules, "4k3/8/8/8/8/2m5/Q7/4K3 2")
    assert "a2" in targets(rules, pos, "c3") and attacked(rules, pos, "a2", 1)


def test_a_kind_nothing_may_capture_is_never_attacked():
    rules = roles()
    pos = parse_position(rules, "4k3/8/8/8/8/1m6/8/V7 2")
    assert "a1" not in targets(rules, pos, "b3") and not attacked(rules, pos, "a1", 1)
    assert rules.attackers(pos, 0, 1) == []


def test_roster_checks_the_roles_it_names():
    data = {"variant": {"name": "t"}, "pieces": {"a": {"code": "A", "both": ["leap 1,0"], "role": "pawn",
                                                      "captured_only_by": ["legend"]}}}
    with pytest.raises(VariantError, match="names the role 'legend', which no piece here has"):
        roster_from_dict(data, "t.toml")


# ------------------------------------------------------------------------------------ [setup]

def setup_rules():
    return Rules(Geometry(5, 5), [KING, ROOK, kind("knight", "KN", both=["leap 1,2"])], ("south", "north"))


def test_a_setup_grid_reads_upper_case_as_player_1_and_lower_case_as_player_2():
    rules = setup_rules()
    pos = parse_setup(rules, "\n kn . k . r\n . . . . .\n . . . . .\n . . . . .\n R . K . KN\n")
    assert [(rules.geometry.name_of(s), p.kind.code, p.owner) for s, p in pos.pieces()] == [
        ("a1", "R", 0), ("c1", "K", 0), ("e1", "KN", 0), ("a5", "KN", 1), ("c5", "K", 1), ("e5", "R", 1)]
    assert parse_setup(rules, format_setup(pos)).snapshot()[0] == pos.snapshot()[0]


@pytest.mark.parametrize("text,words", [
    (". . . . .\n" * 4, "has 4 rows, the board has 5 ranks"),
    (". . . . .\n" * 4 + ". . K .\n", r"row 5 from the top, rank 1\): 4 cells, expected 5"),
    (". . . . .\n" * 4 + ". . Q . .\n", r"square c1\): 'Q' is not a piece of base"),
    (". . . . .\n" * 4 + ". . Kn . .\n", "is not a piece; expected a code in upper case"),
    (". . . . .\n" * 4 + ". . 3K . .\n", "names player 3; the game has players 1 to 2"),
])
def test_a_bad_setup_grid_says_where_and_what(text, words):
    with pytest.raises(PositionError, match=words):
        parse_setup(setup_rules(), text, "kol.toml", first_line=10)


def test_roster_setup_table_is_checked():
    base = {"variant": {"name": "t"}, "pieces": {"k": {"code": "K", "both": ["leap 1,0"], "royal": True}}}
    assert roster_from_dict({**base, "setup": {"grid": "K"}}, "t.toml").setup == "K"
    with pytest.raises(VariantError, match=r"\[setup\] needs grid"):
        roster_from_dict({**base, "setup": {"notes": "x"}}, "t.toml")
    with pytest.raises(VariantError, match="unknown key 'rows'"):
        roster_from_dict({**base, "setup": {"grid": "K", "rows": 1}}, "t.toml")
