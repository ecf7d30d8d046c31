"""The board as a spectator sees it: a picture made from the game's data, drawn as SVG, for
every game and map size (KoL Chess's coloured squares too); and a picture received by a hall is
checked field by field."""

import pytest

from companion.broadcast.picture import TINT_CHARS, BoardPicture, picture_of
from companion.app import theme
from companion.broadcast.svg import TINTS, board_svg
from companion.errors import BroadcastError
from tests.broadcast_helpers import chess_session, dungeon_session, expected_pieces, kol_session, svg_pieces


def test_the_chess_start_is_drawn_with_every_piece_as_its_glyph_on_its_square():
    s = chess_session()
    pic = picture_of(s)
    assert (pic.width, pic.height, len(pic.pieces)) == (8, 8, 32)
    assert pic.colours == ("#ffffff", "#000000")
    svg = board_svg(pic)
    assert svg_pieces(svg) == expected_pieces(s)
    assert svg.count("\u265a") == 2 and "<circle" not in svg.split('class="piece"')[1][:300]


def test_the_last_move_and_a_king_in_check_are_marked():
    s = chess_session("e2e4", "f7f6", "d1h5")
    pic = picture_of(s)
    g = s.rules.geometry
    assert pic.last_move == (g.parse_square("d1"), g.parse_square("h5"))
    assert pic.check == (g.parse_square("e8"),)
    svg = board_svg(pic)
    assert svg.count('class="last-move"') == 2 and svg.count('class="check"') == 1


def test_a_combat_fight_waiting_for_its_dice_shows_the_attacker_on_the_square_it_moved_to():
    s = chess_session("e2e4", "d7d5", "e4d5", game="combat")
    assert s.pending_fight() is not None
    pic = picture_of(s)
    g = s.rules.geometry
    d5 = g.parse_square("d5")
    assert pic.piece_at(d5).owner == 0 and pic.piece_at(g.parse_square("e4")) is None
    assert d5 in pic.fight
    assert 'class="fight"' in board_svg(pic)


def test_a_four_player_dungeon_on_20x20_is_drawn_from_its_map_terrain_seats_and_units():
    s = dungeon_session()
    pic = picture_of(s)
    g = s.rules.geometry
    assert (pic.width, pic.height) == (20, 20)
    assert pic.terrain.count("~") == sum(1 for t in g.terrain if t == 1) > 0
    assert pic.terrain.count("#") == sum(1 for t in g.terrain if t == 2) > 0
    assert len(pic.colours) == 4 and len(set(pic.colours)) == 4
    svg = board_svg(pic)
    assert svg_pieces(svg) == expected_pieces(s)
    assert svg.count('class="water"') == pic.terrain.count("~") and svg.count('class="void"') == pic.terrain.count("#")
    assert pic.units and svg.count("<circle") == len(pic.pieces)  # every unit a disc, a "knight" too
    assert "\u265e" not in svg and any(p.kind == "knight" for p in pic.pieces)


def test_a_kol_board_is_drawn_with_its_square_colours_and_its_pieces_as_on_the_touchscreen():
    s = kol_session("f1g1in", "f11f9")  # the King retreats into his Tower; Orange replies
    pic = picture_of(s)
    words = s.rules.square_colours()  # the hook the touchscreen's board reads
    assert (pic.width, pic.height) == (12, 12) and len(pic.tints) == 144
    assert [pic.tint(sq) for sq in range(144)] == list(words)
    assert {"white", "green", "black", "red", "blue"} <= set(words)
    svg = board_svg(pic)
    assert svg_pieces(svg) == expected_pieces(s)
    for word in ("green", "red", "blue"):
        assert svg.count(f'class="tint {word}"') == words.count(word)
        assert f'fill="{TINTS[word]}"' in svg
    assert pic.units and svg.count("<circle") == len(pic.pieces)  # KoL's pieces: discs with codes
    g1 = s.rules.geometry.parse_square("g1")
    assert pic.piece_at(g1).kind == "tower_with_king" and pic.last_move is not None
    assert BoardPicture.from_json(pic.to_json()) == pic


def test_every_square_colour_of_the_theme_can_be_sent_to_a_hall():
    assert set(TINT_CHARS) == set(theme.SQUARE_COLOURS) and len(set(TINT_CHARS.values())) == len(TINT_CHARS)
    assert picture_of(chess_session()).tints == ""  # a game without coloured squares sends none


@pytest.mark.parametrize("make", [chess_session, dungeon_session, kol_session,
                                  lambda: chess_session("e2e4", "d7d5", "e4d5", game="combat")])
def test_a_picture_survives_the_trip_to_a_hall(make):
    pic = picture_of(make())
    assert BoardPicture.from_json(pic.to_json()) == pic


@pytest.mark.parametrize("change, word", [
    (lambda j: j.update(width=99), "width"),
    (lambda j: j.update(terrain=j["terrain"][:-1]), "terrain"),
    (lambda j: j.update(terrain="x" * len(j["terrain"])), "terrain"),
    (lambda j: j["pieces"].append(list(j["pieces"][0])), "twice"),
    (lambda j: j["pieces"][0].__setitem__(2, "<script>"), "piece"),
    (lambda j: j["pieces"][0].__setitem__(3, 7), "piece"),
    (lambda j: j["pieces"][0].__setitem__(0, 64), "square"),
    (lambda j: j.update(colours=["red", "blue"]), "colours"),
    (lambda j: j.update(last_move=[1, 2, 3]), "last_move"),
    (lambda j: j.update(check="e8"), "check"),
    (lambda j: j.update(turn=5), "turn"),
    (lambda j: j.update(units="yes"), "units"),
    (lambda j: j.update(pieces="all of them"), "pieces"),
    (lambda j: j.update(tints="w" * 10), "tints"),
    (lambda j: j.update(tints="x" * 144), "tints"),
    (lambda j: j.update(tints=["white"] * 144), "tints"),
])
def test_a_picture_a_board_could_not_have_made_is_refused_by_name(change, word):
    data = picture_of(kol_session() if word == "tints" else chess_session()).to_json()
    change(data)
    with pytest.raises(BroadcastError, match=word):
        BoardPicture.from_json(data)


def test_four_player_chess_is_drawn_with_glyphs_in_four_colours_and_its_dead_army_grey():
    from companion.colours import DEAD_PIECE
    from tests.broadcast_helpers import chess4_session

    s = chess4_session()
    pic = picture_of(s)
    assert (pic.width, pic.height, pic.units) == (14, 14, False)
    assert pic.colours == ("#d64a00", "#0073b2", "#f0e342", "#009e73")  # red, blue, yellow, green
    blue = set(s.pos.occ[1])
    king = next(sq for sq in blue if s.pos.board[sq].kind.royal)
    assert set(pic.dead) == blue - {king}  # the resigned King is live
    assert all(p.glyph for p in pic.pieces)  # the 1-point Queen is a queen
    again = BoardPicture.from_json(pic.to_json())
    assert again == pic
    svg = board_svg(pic)
    assert svg_pieces(svg) == expected_pieces(s) and svg.count('data-dead="1"') == len(pic.dead)
    grey = "#" + "".join(f"{round(c * 255):02x}" for c in DEAD_PIECE[0][:3])
    assert svg.count(f'fill="{grey}"') == len(pic.dead) and "<circle" not in svg


def test_a_picture_without_dead_pieces_is_read_as_before_and_dead_squares_must_hold_pieces():
    data = picture_of(chess_session()).to_json()
    del data["dead"]
    assert BoardPicture.from_json(data).dead == ()
    data["dead"] = [20]  # e3: empty
    with pytest.raises(BroadcastError, match="dead"):
        BoardPicture.from_json(data)


def test_the_page_data_carries_points_players_out_and_each_fights_result():
    import json

    from companion.broadcast.snapshot import take_snapshot
    from tests.broadcast_helpers import chess4_session, fights_session

    s = chess4_session()
    data = take_snapshot(s, 1, 0, "board").to_json(0)
    assert data["points"] == list(s.pos.var("points")) and data["out"] == [1] and len(data["players"]) == 4
    kol = fights_session("kol")
    data = json.loads(json.dumps(take_snapshot(kol, 1, 0, "board").to_json(0)))
    marks = [m.get("fight") for m in data["moves"]]
    assert [m for m in marks if m] == [e.fight for e in kol.moves if e.fight] and data["points"] is None
