"""Dungeon Chess turn structure, check, the end of the game, draws, position text, undo.
Rulebook v0.1.0 "BATTLE RULES"; readings in docs/rules/dungeon.md."""

import random

import pytest

from companion.core.moves import Answer
from companion.errors import IllegalMoveError, PositionError, VariantError
from companion.games import make_rules
from companion.games.dungeon import PASS, DungeonRules
from tests.dungeon_board import OPEN, move, names, position, rules, sq, targets
from companion.maps import parse_map

R = rules()
R4 = rules("open4")


# ---------------------------------------------------------------------------------- turns

def test_two_players_alternate():
    """"2-player: alternating turns\""""
    r = make_rules("dungeon", "dungeon-compact")
    pos = r.start_position()
    seen = []
    for _ in range(4):
        seen.append(pos.turn)
        r.play(pos, r.legal_moves(pos)[0])
    assert seen == [0, 1, 0, 1]


def test_four_players_take_turns_cyclically():
    """"4-player: cyclic (Player -> AI 1 -> AI 2 -> AI 3)\""""
    r = make_rules("dungeon", "dungeon-four-player")
    pos = r.start_position()
    seen = []
    for _ in range(8):
        seen.append(pos.turn)
        r.play(pos, r.legal_moves(pos)[0])
    assert seen == [0, 1, 2, 3, 0, 1, 2, 3]


def test_each_turn_moves_one_unit():
    """"Each turn: move one unit OR attack with one unit\""""
    r = make_rules("dungeon", "dungeon-two-player")
    pos = r.start_position()
    for m in r.legal_moves(pos):
        before = pos.occupied()
        r.apply(pos, m)
        assert pos.occupied() == (before - {m.frm}) | {m.to}
        r.undo(pos)


# ---------------------------------------------------------------------------------- check

def test_you_cannot_make_a_move_that_leaves_your_own_king_in_check():
    """"You CANNOT make a move that leaves your own King in check." A Wizard shielding the
    Princess from a Stronghold may only move along the file."""
    pos = position(R, {"a1": (0, "princess"), "a3": (0, "wizard"), "a8": (1, "stronghold"), "j10": (1, "warlord")})
    assert set(targets(R, pos, "a3")) == {"a2", "a4", "a5", "a6", "a7", "a8"}


def test_you_must_resolve_check():
    """"You MUST resolve check on your turn (move King, block, or capture the attacker)."""
    pos = position(R, {"c1": (0, "princess"), "c8": (1, "stronghold"), "j10": (1, "warlord"), "a5": (0, "wizard"),
                       "b6": (0, "knight")})
    assert R.in_check(pos, 0)
    kinds = set()
    for m in R.legal_moves(pos):
        R.apply(pos, m)
        assert not R.in_check(pos, 0)
        R.undo(pos)
        kinds.add("king" if m.frm == sq(R, "c1") else "capture" if m.capture is not None else "block")
    assert kinds == {"king", "capture", "block"}


def test_there_is_no_checkmate_a_player_without_a_legal_move_passes():
    """"There is no checkmate - the game only ends on actual King capture." rules-notes: "The
    publisher's own code passes." Then the King is taken."""
    pos = position(R, {"a1": (0, "warlord"), "a8": (1, "stronghold"), "b8": (1, "stronghold"),
                       "j10": (1, "red_dragon")})
    assert R.in_check(pos, 0)
    assert R.legal_moves(pos) == [PASS]
    assert R.outcome(pos) is None
    move(R, pos, "pass")
    assert any("no legal move and passes" in w for w in R.describe_effects(pos))
    move(R, pos, "a8a1")
    o = R.outcome(pos)
    assert o.winners == {1} and o.reason == "King captured"
    assert R.legal_moves(pos) == []


def test_a_player_without_moves_but_not_in_check_passes_too():
    pos = position(R, {"a1": (0, "warlord", {"hex": 2}), "j10": (1, "red_dragon")})
    assert R.legal_moves(pos) == [PASS]
    move(R, pos, "pass")
    assert pos.turn == 1 and pos.board[sq(R, "a1")].state == {"hex": 1}  # the pass counts as a turn


def test_option_expose_lets_a_stuck_player_leave_the_king_attacked_but_not_blow_it_up():
    r = rules("open", when_stuck="expose")
    pos = position(r, {"a1": (0, "warlord"), "a8": (1, "stronghold"), "b8": (1, "stronghold"),
                       "j10": (1, "red_dragon")})
    assert set(names(r, {m.to for m in r.legal_moves(pos)})) == {"a2", "b1", "b2"}
    assert set(targets(r, pos, "a1")) == {"a2", "b1", "b2"}
    # the Demonics on b2 checks a1; the Hero could take it, but the explosion would destroy the
    # Warlord next to it: that move stays illegal even now
    pos = position(r, {"a1": (0, "warlord"), "a8": (1, "stronghold"), "b8": (1, "stronghold"),
                       "b2": (1, "demonics"), "c1": (0, "hero"), "j10": (1, "red_dragon")})
    assert rules("open").legal_moves(pos) == [PASS]
    legal = {r.move_text(pos, m) for m in r.legal_moves(pos)}
    assert legal == {"a1a2", "a1b1", "a1b2", "c1b1", "c1c2", "c1d1", "c1d2"}


def test_the_game_ends_immediately_when_a_king_is_taken():
    """"Capture the enemy King. The game ends immediately when a King is taken.\""""
    pos = position(R, {"a1": (0, "princess"), "b2": (1, "warlord"), "j10": (1, "hero")}, turn=0)
    move(R, pos, "a1b2")
    assert R.outcome(pos).winners == {0}
    assert R.legal_moves(pos) == [] and R.moves_from(pos, sq(R, "j10")) == []
    with pytest.raises(IllegalMoveError, match="over"):
        R.play(pos, PASS)


def test_taking_the_last_enemy_king_is_legal_even_with_your_own_king_attacked():
    pos = position(R, {"a1": (0, "princess"), "b2": (1, "warlord"), "a8": (1, "stronghold")}, turn=0)
    assert "b2" in targets(R, pos, "a1")
    pos = position(R, {"a1": (0, "princess"), "b3": (1, "warlord"), "a8": (1, "stronghold"), "a2": (0, "knight")}, turn=0)
    assert "b4" not in targets(R, pos, "a2")  # a quiet move that opens the file is illegal...
    pos = position(R, {"a1": (0, "princess"), "c3": (1, "warlord"), "a8": (1, "stronghold"), "a2": (0, "knight")}, turn=0)
    assert "c3" in targets(R, pos, "a2")  # ...but taking the King wins at once


def test_four_players_eliminated_pieces_are_removed_and_turns_skip_them():
    """"In 4-player games, eliminated players' remaining pieces are removed; the last King
    standing wins.\""""
    pos = position(R4, {"b1": (0, "princess"), "b2": (0, "knight"), "j5": (1, "warlord"), "i5": (1, "hero"),
                        "c4": (2, "warlord"), "e10": (2, "hero"), "a8": (3, "warlord"), "b8": (3, "hero")})
    move(R4, pos, "b2c4")
    assert pos.var("out") == (2,)
    assert not pos.occ[2] and pos.board[sq(R4, "e10")] is None
    assert any("player 3's King has fallen: remove all their pieces (e10)" in w for w in R4.describe_effects(pos))
    assert R4.expected_occupancy(pos) == pos.occupied()
    assert R4.outcome(pos) is None
    assert pos.turn == 1
    R4.play(pos, R4.legal_moves(pos)[0])
    assert pos.turn == 3  # player 3 is skipped


def test_four_players_last_king_standing_wins():
    pos = position(R4, {"b1": (0, "princess"), "b2": (0, "knight"), "c4": (2, "warlord"), "a8": (3, "warlord")},
                   out=(1,))
    move(R4, pos, "b2c4")
    assert R4.outcome(pos) is None and pos.turn == 3
    pos = position(R4, {"b1": (0, "princess"), "b2": (0, "knight"), "c4": (2, "warlord")}, out=(1, 3))
    move(R4, pos, "b2c4")
    o = R4.outcome(pos)
    assert o.winners == {0} and o.reason == "the last King standing"


def test_a_check_by_a_third_player_must_be_resolved_in_four_player_games():
    pos = position(R4, {"b1": (0, "princess"), "j5": (1, "warlord"), "e10": (2, "warlord"), "a8": (3, "warlord"),
                        "b6": (3, "stronghold")})
    assert R4.in_check(pos, 0)
    for m in R4.legal_moves(pos):
        R4.apply(pos, m)
        assert not R4.in_check(pos, 0)
        R4.undo(pos)


def test_check_counts_every_living_enemy_not_only_the_player_who_moves_next():
    """"A King is in check if an enemy unit could capture it on the next move." With 3-4 players
    "an enemy unit" is any living enemy's and "the next move" that unit's own next move: a King
    attacked by the player who moved last (two seats on) is in check, and no move may leave it
    attacked by any enemy, next to move or not (decision and reasons in docs/rules/dungeon.md)."""
    pos = position(R4, {"e2": (0, "princess"), "j5": (1, "warlord"), "e9": (2, "warlord"), "d9": (2, "stronghold"),
                        "a8": (3, "warlord"), "a2": (3, "stronghold")})
    assert R4.next_player(pos) == 1
    assert R4.in_check(pos, 0)  # by player 4's Stronghold on a2; player 2 moves next
    t = targets(R4, pos, "e2")
    assert not {"d1", "d2", "d3"} & set(t)  # player 3's Stronghold on d9 watches the d-file
    assert {"e3", "f3", "f1"} <= set(t) and "f2" not in t  # f2 is still on player 4's rank


# ---------------------------------------------------------------------------------- draws

def test_there_is_no_draw_in_the_rulebooks_game_by_default():
    """"There is no checkmate - the game only ends on actual King capture": by default no draw
    rule ends the game, however often a position repeats or however long nothing is taken."""
    r = make_rules("dungeon", "dungeon-compact")
    assert (r.repetition, r.quiet_moves) == (0, 0) and r.draw_clock(r.start_position()) is None
    pos = position(R, {"a1": (0, "princess"), "j10": (1, "warlord")})
    for _ in range(30):
        for t in ("a1a2", "j10j9", "a2a1", "j9j10"):
            move(R, pos, t)
    assert R.outcome(pos) is None and pos.var("quiet") == 120


def test_the_draw_rules_are_one_option_repetition_three_and_fifty_quiet_moves():
    """The optional draw rules (not the rulebook's; the start screen offers them): the same
    position a third time, or 50 turns each without a piece removed."""
    r = make_rules("dungeon", "dungeon-compact", draw_rules=True)
    assert (r.repetition, r.quiet_moves) == (3, 50)
    on = rules("open", draw_rules=True)
    pos = position(on, {"a1": (0, "princess"), "j10": (1, "warlord")})
    for _ in range(2):
        for t in ("a1a2", "j10j9", "a2a1", "j9j10"):
            assert on.outcome(pos) is None
            move(on, pos, t)
    assert on.outcome(pos).is_draw and "3 times" in on.outcome(pos).reason
    assert make_rules("dungeon", "dungeon-compact", draw_rules=True, repetition=0).repetition == 0


def test_quiet_move_limit_is_an_option_and_a_capture_resets_it():
    r = rules("open", quiet_moves=2)
    pos = position(r, {"a1": (0, "princess"), "j10": (1, "warlord"), "e8": (1, "hero"), "e2": (0, "stronghold")})
    move(r, pos, "a1b1")
    move(r, pos, "j10j9")
    move(r, pos, "b1a1")
    assert r.outcome(pos) is None and pos.var("quiet") == 3
    move(r, pos, "j9i9")
    assert r.outcome(pos).is_draw and "without a piece removed" in r.outcome(pos).reason
    pos = position(r, {"a1": (0, "princess"), "j10": (1, "warlord"), "e8": (1, "hero"), "e2": (0, "stronghold")},
                   quiet=3)
    move(r, pos, "e2e8")
    assert pos.var("quiet") == 0


@pytest.mark.parametrize("options,words", [
    ({"when_stuck": "resign"}, "when_stuck"), ({"repetition": 1}, "repetition"), ({"quiet_moves": -1}, "quiet_moves"),
    ({"speed": 2}, "unknown speed"),
])
def test_bad_options_are_errors(options, words):
    with pytest.raises(VariantError, match=words):
        make_rules("dungeon", "dungeon-compact", **options)


def test_unknown_ability_in_a_roster_is_an_error(tmp_path):
    src = open("maps/variants/dungeon.toml").read().replace('abilities = ["fragile"]', 'abilities = ["fragil"]')
    path = tmp_path / "bad.toml"
    path.write_text(src)
    with pytest.raises(VariantError, match="ability 'fragil' is unknown"):
        DungeonRules(parse_map(OPEN), roster=str(path))


# --------------------------------------------------------------------------- position text

def test_position_text_round_trips_with_piece_state_and_game_variables():
    pos = position(R4, {"b1": (0, "princess"), "c3": (0, "troll", {"wounded": 1}), "j5": (1, "warlord"),
                        "e5": (1, "shaman", {"hex_spent": 1}), "a8": (3, "warlord", {"hex": 2})}, turn=3,
                   out=(2,), quiet=7)
    text = R4.position_text(pos)
    back = R4.position_from_text(text)
    assert R4.position_text(back) == text
    assert back.hash == pos.hash
    assert "out=[2]" in text and "quiet=7" in text and "(1TR:wounded=1)" in text


@pytest.mark.parametrize("text,words", [
    ("10/10/10/10/10/10/10/10/10/(1PR)9 1", "player 2 must have exactly one King"),
    ("(2WD)9/10/10/10/10/10/10/10/10/(1PR)(1PR)8 1", "player 1 must have exactly one King"),
    ("(2WD)9/10/10/10/10/10/10/10/10/(1PR:zzz=1)9 1", "unknown state 'zzz'"),
    ("(2WD)9/10/10/10/10/10/10/10/10/(1PR:hex=3)9 1", "hex=3 is out of range"),
    ("(2WD)9/10/10/10/3(1HE)6/10/10/10/10/(1PR)9 1", "cannot stand on water"),
    ("(2WD)9/7(1HE)2/10/10/10/10/10/10/10/(1PR)9 1", "void"),
    ("(2WD)9/10/10/10/10/10/10/10/10/(1PR)9 1 castling=\"KQ\"", "unknown variable 'castling'"),
    ("(2WD)9/10/10/10/10/10/10/10/10/(1PR)9 1 out=[1]", "player 2 is out but still has a King"),
])
def test_bad_position_texts_say_what_is_wrong(text, words):
    with pytest.raises(PositionError, match=words):
        R.position_from_text(text)


def test_a_player_who_is_out_cannot_be_the_one_to_move():
    with pytest.raises(PositionError, match="player 3 is out and cannot be the one to move"):
        R4.position_from_text("10/10/10/10/10/10/10/10/10/(1PR)(2WD)(4WD)7 3 out=[2]")


# ---------------------------------------------------------------------- apply / undo / hash

@pytest.mark.slow
@pytest.mark.parametrize("map_name", ["dungeon-compact", "dungeon-two-player", "dungeon-four-player"])
def test_random_games_apply_and_undo_exactly_and_the_hash_is_incremental(map_name):
    r = make_rules("dungeon", map_name)
    rng = random.Random(map_name)
    for _ in range(3):
        pos = r.start_position()
        snaps = []
        for _ in range(60):
            if r.outcome(pos) is not None:
                break
            if pos.pending is not None:
                action = rng.choice(r.answers(pos))
            else:
                action = rng.choice(r.legal_moves(pos))
            snaps.append(pos.snapshot())
            r.play(pos, action)
            if pos.pending is None:
                assert r.position_from_text(r.position_text(pos)).hash == pos.hash
        while snaps:
            r.undo(pos)
            assert pos.snapshot() == snaps.pop()


def _special_count(r, pos, player):
    return sum(1 for sq in pos.occ[player] if r.special_kinds[pos.board[sq].kid])


def _attacked_the_long_way(r, pos, sq, by):
    """The attack test with every piercing and phasing ray walked, whoever owns what (the
    engine walks them only for a player with such a piece: Position.nspecial)."""
    saved = list(pos.nspecial)
    pos.nspecial[:] = [1] * pos.nplayers
    try:
        return r.is_attacked(pos, sq, by), sorted(r.attackers(pos, sq, by))
    finally:
        pos.nspecial[:] = saved


@pytest.mark.slow
@pytest.mark.parametrize("map_name", ["dungeon-compact", "dungeon-four-player"])
def test_the_count_of_piercing_and_phasing_attackers_follows_every_move_undo_and_copy(map_name):
    """Archers (piercing), Tombs (piercing through their own) and Wraiths (phasing) are counted per
    player, so the attack test skips those rays for a player who has none left."""
    r = make_rules("dungeon", map_name)
    assert {k.code for k, s in zip(r.kinds, r.special_kinds) if s} == {"AR", "TB", "WR"}
    rng = random.Random(map_name + ":special")
    skipped = 0
    for _ in range(3):
        pos = r.start_position()
        depth0 = pos.depth
        for _ in range(80):
            if r.outcome(pos) is not None:
                break
            action = rng.choice(r.answers(pos) if pos.pending is not None else r.legal_moves(pos))
            r.play(pos, action)
            for p in range(pos.nplayers):
                assert pos.nspecial[p] == _special_count(r, pos, p)
                skipped += pos.nspecial[p] == 0
                for sq in rng.sample(range(r.geometry.size), 12):
                    fast = r.is_attacked(pos, sq, p), sorted(r.attackers(pos, sq, p))
                    assert fast == _attacked_the_long_way(r, pos, sq, p)
        copy = pos.copy()
        assert copy.nspecial == pos.nspecial
        while pos.depth > depth0:
            r.undo(pos)
            assert all(pos.nspecial[p] == _special_count(r, pos, p) for p in range(pos.nplayers))
        assert copy.nspecial == [_special_count(r, copy, p) for p in range(copy.nplayers)]
    assert skipped  # some player had none: the shortcut was exercised


def test_undo_takes_back_a_move_and_the_reply():
    """"Players may undo their last move (reverting both their move and the AI's response).\""""
    r = make_rules("dungeon", "dungeon-compact")
    pos = r.start_position()
    before = pos.snapshot()
    r.play(pos, r.legal_moves(pos)[0])
    r.play(pos, r.legal_moves(pos)[0])
    r.undo(pos)
    r.undo(pos)
    assert pos.snapshot() == before


def test_a_hit_and_run_turn_is_two_undo_steps():
    pos = position(R, {"a1": (0, "princess"), "j10": (1, "warlord"), "c3": (0, "salamander"), "b5": (1, "hero")})
    before = pos.snapshot()
    move(R, pos, "c3b5")
    R.play(pos, Answer("step", "stay"))
    assert pos.depth == 2
    R.undo(pos)
    assert pos.pending is not None
    R.undo(pos)
    assert pos.snapshot() == before


def test_registered_game_and_default_map():
    r = make_rules("dungeon")
    assert r.board_map.name == "dungeon-compact" and r.nplayers == 2
    assert make_rules("dungeon", "dungeon-four-player").nplayers == 4


@pytest.mark.parametrize("map_name,seed", [("dungeon-four-player", 1), ("dungeon-compact", 2),
                                           pytest.param("dungeon-four-player", 3, marks=pytest.mark.slow),
                                           pytest.param("dungeon-two-player", 4, marks=pytest.mark.slow)])
def test_whole_games_run_to_an_outcome_with_the_board_and_words_consistent(map_name, seed):
    """Seeded random play (captures preferred) until the game ends (the optional draw rules on,
    so that it does): every turn's effects have words, the expected board is the position's,
    passes and eliminations included."""
    r = rules(map_name, draw_rules=True)
    rng = random.Random(seed)
    pos = r.start_position()
    while r.outcome(pos) is None:
        if pos.pending is not None:
            r.play(pos, rng.choice(r.answers(pos)))
        else:
            ms = r.legal_moves(pos)
            caps = [m for m in ms if m.capture is not None]
            r.play(pos, rng.choice(caps) if caps and rng.random() < 0.7 else rng.choice(ms))
        assert len(r.describe_effects(pos)) == len(pos.var("effects", ()))
        assert r.expected_occupancy(pos) == pos.occupied()
        assert all(not w.startswith("(") for w in r.describe_effects(pos))
    assert r.outcome(pos).reason


@pytest.mark.slow
def test_legal_moves_never_list_a_move_twice_in_random_play():
    import random
    from collections import Counter

    from companion.games import make_rules

    for map_name in ("dungeon-compact", "dungeon-four-player"):
        rules = make_rules("dungeon", map_name)
        pos = rules.start_position()
        rng = random.Random(11)
        for _ in range(120):
            moves = rules.legal_moves(pos)
            assert not [m for m, n in Counter(moves).items() if n > 1]
            if not moves or rules.outcome(pos):
                break
            rules.apply(pos, rng.choice(moves))
            while pos.pending is not None:
                options = rules.answers(pos) or [o.answer for o in rules.chance_outcomes(pos)]
                rules.apply(pos, options[0])


@pytest.mark.slow
@pytest.mark.parametrize("map_name", ["dungeon-compact", "dungeon-two-player", "dungeon-four-player"])
def test_the_shortcuts_of_the_legal_move_filter_agree_with_the_full_check(map_name):
    """legal_moves skips the full apply-and-look check for quiet moves (off every line through
    the King, or a quiet step only moved, not played out); on random positions of every map,
    hexes and Ogres included, it keeps exactly the moves the full check keeps."""
    r = make_rules("dungeon", map_name)
    rng = random.Random(map_name + ":legal")
    checked = hexed = 0
    for _ in range(4):
        pos = r.start_position()
        for _ in range(70):
            if r.outcome(pos) is not None:
                break
            if pos.pending is None:
                pseudo = r.pseudo_moves(pos, pos.turn)
                full = [m for m in pseudo if r.is_legal(pos, m)]
                assert r._legal(pos, pseudo) == full
                checked += len(pseudo)
                hexed += any(p.state.get("hex") for _, p in pos.pieces() if p.state)
                hexes = [m for m in r.legal_moves(pos) if m.special == "hex"]
                action = rng.choice(hexes) if hexes and rng.random() < 0.5 else rng.choice(r.legal_moves(pos))
            else:
                action = rng.choice(r.answers(pos))
            r.play(pos, action)
    assert checked > 1000
    if map_name == "dungeon-four-player":
        assert hexed  # positions with hexed units were among them


# --------------------------------------------------------------------------- three players

def test_three_players_sit_south_west_north_of_the_four_player_map_and_play_clockwise():
    """"2-4 PLAYERS", "4-player: cyclic (Player -> AI 1 -> AI 2 -> AI 3)": three players use the
    four-player map's seats 1-3 (south, west, north; the map's [seatings]) and play in that
    cycle, Player -> AI 1 -> AI 2; the east arm stays empty; their armies deploy in their own
    chambers. Three players is also the default map for three (docs/rules/dungeon.md)."""
    r = make_rules("dungeon", players=3)
    assert r.board_map.name == "dungeon-four-player" and r.nplayers == 3
    assert [(s.player, s.home, s.colour) for s in r.board_map.seats] == [
        (1, "south", "blue"), (2, "west", "red"), (3, "north", "green")]
    pos = r.start_position()
    four = make_rules("dungeon", "dungeon-four-player")
    east = four.board_map.seats[3].spawn
    for p, seat in enumerate(r.board_map.seats):
        assert pos.occ[p] and pos.occ[p] <= seat.spawn
    assert not pos.occupied() & east
    seen = []
    for _ in range(7):
        seen.append(pos.turn)
        r.play(pos, r.legal_moves(pos)[0])
    assert seen == [0, 1, 2, 0, 1, 2, 0]


def test_with_three_players_a_fallen_king_is_out_and_the_last_king_standing_wins():
    """"In 4-player games, eliminated players' remaining pieces are removed; the last King
    standing wins": the same with three. (The Wizard's capture runs up the j-file over the water.)"""
    r = make_rules("dungeon", "dungeon-four-player", players=3)
    pos = position(r, {"g1": (0, "princess"), "j5": (0, "wizard"), "j13": (1, "warlord"), "b10": (1, "hero"),
                       "n20": (2, "warlord")})
    move(r, pos, "j5j13")
    assert pos.var("out") == (1,) and not pos.occ[1] and pos.turn == 2 and r.outcome(pos) is None
    pos = position(r, {"g1": (0, "princess"), "j13": (0, "wizard"), "j20": (2, "warlord")}, out=(1,))
    move(r, pos, "j13j20")
    o = r.outcome(pos)
    assert o.winners == {0} and o.reason == "the last King standing"
