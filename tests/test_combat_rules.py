"""Human Combat Chess, one test per rule sentence of the seed (003_bf766e9d0b844049.txt)."""

from fractions import Fraction

import pytest

from companion.core.moves import Answer
from companion.core.rules import iter_perft
from companion.dice.odds import DiceSpec, Fighter, fight_odds
from companion.errors import DiceError, IllegalMoveError
from companion.games.chess import ChessRules
from companion.games.combat import CombatRules

R = CombatRules()
CHESS = ChessRules()


def pos_of(text):
    return R.position_from_text(text)


def move(pos, uci):
    return R.parse_move(pos, uci)


def roll(a, *d):
    """Answer for one round: attacker faces, then each defender's faces."""
    return Answer("fight", ("roll", tuple(a), tuple(tuple(x) for x in d)))


def fatigue(pos, square):
    p = pos.board[R.geometry.parse_square(square)]
    return p.state.get("fatigue", 0) if p else None


def piece(pos, square):
    p = pos.board[R.geometry.parse_square(square)]
    return None if p is None else (p.kind.code if p.owner == 0 else p.kind.code.lower())


AFTER_E4_D5 = "rnbqkbnr/ppp1pppp/8/3p4/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2"


def test_with_the_exception_of_captures_the_game_plays_like_standard_chess():
    """"With the exception of captures, the game plays like standard Chess"."""
    for d in (1, 2, 3):
        assert iter_perft(R, R.start_position(), d) == iter_perft(CHESS, CHESS.start_position(), d)
    # a position with no capture possible within two plies: counts equal
    closed = "4k3/pppppppp/8/8/8/8/PPPPPPPP/4K3 w - - 0 1"
    assert iter_perft(R, pos_of(closed), 2) == iter_perft(CHESS, CHESS.position_from_fen(closed), 2)


def test_any_time_a_piece_attempts_to_move_into_an_occupied_square_they_must_fight():
    """"any time a piece attempts to move into a square occupied another piece they must fight"."""
    pos = pos_of(AFTER_E4_D5)
    R.play(pos, move(pos, "e4d5"))
    d = pos.pending
    assert d is not None and d.kind == "fight" and d.chance
    assert piece(pos, "e4") == "P" and piece(pos, "d5") == "p"  # nothing decided yet
    assert R.legal_moves(pos) == []


def test_the_losing_piece_is_removed_and_the_winner_stays_and_gets_a_fatigue_token():
    """"The losing piece is removed from the board, and the winner stays in the square and gets
    a Fatigue Token.\""""
    pos = pos_of(AFTER_E4_D5)
    R.play(pos, move(pos, "e4d5"))
    R.play(pos, roll([5], [2]))  # 5+1 vs 2
    assert piece(pos, "d5") == "P" and piece(pos, "e4") is None
    assert fatigue(pos, "d5") == 1
    assert pos.turn == 1 and pos.pending is None


def test_a_defender_that_wins_stays_and_the_attacker_is_removed():
    pos = pos_of(AFTER_E4_D5)
    R.play(pos, move(pos, "e4d5"))
    R.play(pos, roll([1], [6]))  # 1+1 vs 6
    assert piece(pos, "e4") is None and piece(pos, "d5") == "p"
    assert fatigue(pos, "d5") == 1 and pos.turn == 1


@pytest.mark.parametrize("code,sides", [("P", 6), ("N", 8), ("B", 8), ("R", 8), ("Q", 10), ("K", 10)])
def test_fighter_strength_dice(code, sides):
    """"Pawns: 6-Sided die; Rooks, Knights, and Bishops: 8-Sided die; Queens and Kings: 10-Sided"."""
    fen = {
        "P": "4k3/8/8/3p4/4P3/8/8/4K3 w - - 0 1",
        "N": "4k3/8/8/3p4/8/4N3/8/4K3 w - - 0 1",
        "B": "4k3/8/8/3p4/8/8/6B1/4K3 w - - 0 1",
        "R": "4k3/8/8/3p4/8/8/8/3RK3 w - - 0 1",
        "Q": "4k3/8/8/3p4/8/8/8/3QK3 w - - 0 1",
        "K": "4k3/8/8/8/8/8/3p4/4K3 w - - 0 1",
    }[code]
    pos = pos_of(fen)
    m = next(m for m in R.legal_moves(pos) if m.capture is not None)
    R.play(pos, m)
    attacker, defenders = R.fighters(pos)
    assert attacker.dice == DiceSpec(sides)
    assert defenders[0].dice == DiceSpec(6)
    with pytest.raises(DiceError, match=f"a d{sides} shows 1 to {sides}"):
        R.play(pos, roll([sides + 1], [1]))
    assert pos.pending is not None  # a refused entry changes nothing


def test_weapon_choice_usually_the_attacker():
    """"the piece that gets weapon choice gets to add +1 ... This is usually the attacker"."""
    pos = pos_of(AFTER_E4_D5)
    R.play(pos, move(pos, "e4d5"))
    a, (d,) = R.fighters(pos)
    assert a.weapon_choice and not d.weapon_choice
    R.play(pos, roll([3], [4]))  # 3+1 = 4 vs 4: a tie, not a loss
    assert pos.pending is not None and pos.pending.get("round") == 2


def test_kings_always_get_weapon_choice():
    """"but the Kings always get weapon choice if/when they fight"."""
    pos = pos_of("4k3/8/8/8/8/8/3q4/4K3 w - - 0 1")  # the king attacks an undefended queen
    R.play(pos, move(pos, "e1d2"))
    a, (d,) = R.fighters(pos)
    assert a.weapon_choice
    pos = pos_of("4k3/8/8/8/8/8/3K4/2q5 b - - 0 1")  # a queen attacks the king
    R.play(pos, move(pos, "c1d2"))
    a, (d,) = R.fighters(pos)
    assert d.weapon_choice and not a.weapon_choice


def test_fatigue_minus_one_per_previous_fight_and_no_limit():
    """"for every previous fight a piece has had they will take -1 on their combat rolls ...
    There is no limit to the number of Fatigue Tokens\""""
    pos = pos_of(AFTER_E4_D5 + " fatigue=e4:7,d5:2")
    R.play(pos, move(pos, "e4d5"))
    a, (d,) = R.fighters(pos)
    assert a.fatigue == 7 and d.fatigue == 2 and a.modifier == -6 and d.modifier == -2
    R.play(pos, roll([6], [5]))  # 6+1-7 = 0 vs 5-2 = 3
    assert piece(pos, "d5") == "p" and fatigue(pos, "d5") == 3


def test_higher_roll_wins():
    pos = pos_of(AFTER_E4_D5)
    R.play(pos, move(pos, "e4d5"))
    R.play(pos, roll([2], [4]))  # 3 vs 4
    assert piece(pos, "d5") == "p"


def test_ties_roll_again_and_three_ties_return_both_pieces_with_a_token_each_and_lose_the_move():
    """"If the Combat Roll ties 3 times, the fight is ended, each piece is returned to their
    starting square, and each gets a Fatigue Token. The move that started the fight is lost.\""""
    pos = pos_of(AFTER_E4_D5)
    R.play(pos, move(pos, "e4d5"))
    for rnd in (1, 2):
        R.play(pos, roll([3], [4]))
        assert pos.pending.get("round") == rnd + 1
    R.play(pos, roll([5], [6]))
    assert pos.pending is None
    assert piece(pos, "e4") == "P" and piece(pos, "d5") == "p"
    assert fatigue(pos, "e4") == 1 and fatigue(pos, "d5") == 1
    assert pos.turn == 1  # the move is lost
    number, _, _, _, result, rounds = pos.var("fights")[-1]
    assert result == "bounce" and len(rounds) == 3


def test_compulsory_attack_on_the_king():
    """"If a piece is threatening the opposing King at the start of their own turn, they must
    attack the King.\""""
    # ...and loses: the white rook now threatens the black king at the start of white's turn
    pos = pos_of("4k3/8/8/4r3/8/8/8/K3R3 b - - 0 1")  # the pinned rook attacks its pinner
    m = move(pos, "e5e1")
    R.play(pos, m)
    R.play(pos, roll([1], [8]))
    assert piece(pos, "e5") is None and pos.turn == 0
    moves = R.legal_moves(pos)
    assert {R.move_text(pos, m) for m in moves} == {"e1e8"}


def test_compulsory_attack_applies_even_to_a_pinned_piece():
    """Decision (rules-notes): the duty to attack the King overrides a pin."""
    # the white bishop d1 is pinned by the rook a1 and sees the black king on h5
    pos = pos_of("8/8/8/7k/8/8/8/r2BK3 w - - 0 1")
    assert {R.move_text(pos, m) for m in R.legal_moves(pos)} == {"d1h5"}
    # control: with the king elsewhere, the pinned bishop may not leave the pin line
    pos = pos_of("8/8/8/8/7k/8/8/r2BK3 w - - 0 1")
    assert not any(m.frm == R.geometry.parse_square("d1") for m in R.legal_moves(pos))


def test_a_king_that_loses_a_fight_loses_the_game():
    """"if a King ever loses a fight they lose the game, even if they are not in Checkmate\""""
    pos = pos_of("4k3/8/8/8/8/8/3q4/4K3 w - - 0 1")
    R.play(pos, move(pos, "e1d2"))
    R.play(pos, roll([1], [10]))  # 1+1 vs 10
    out = R.outcome(pos)
    assert out is not None and out.winners == {1} and out.reason == "king lost a fight"
    with pytest.raises(IllegalMoveError, match="game is over"):
        R.play(pos, R.pseudo_moves(pos, pos.turn)[0])


def test_a_king_may_not_move_into_a_threatened_square():
    """"Like in Standard Chess, a King cannot move into a threatened Square\""""
    pos = pos_of("4k3/8/8/8/8/8/2r5/4K3 w - - 0 1")
    assert not {"e1d2", "e1e2", "e1f2"} & {R.move_text(pos, m) for m in R.legal_moves(pos)}


PREROGATIVE = "4r2k/8/8/8/8/8/4q3/4K3 w - - 0 1"  # Qe2+ defended by Re8: mate in FIDE


def test_kings_prerogative_only_when_checkmated_against_an_adjacent_defended_checker():
    """"If a King is in Checkmate ... If the King can attack one of the threatening pieces
    (i.e. it is adjacent to the King), but that piece's square is itself threatened ... the
    King may declare King's Prerogative\""""
    assert CHESS.outcome(CHESS.position_from_fen(PREROGATIVE)).reason == "checkmate"
    pos = pos_of(PREROGATIVE)
    moves = R.legal_moves(pos)
    assert [(R.move_text(pos, m), m.special) for m in moves] == [("e1e2", "prerogative")]
    assert R.outcome(pos) is None  # not over: the King may fight its way out


def test_prerogative_is_not_available_when_any_other_legal_move_exists():
    """"If there is any other legal move, the King is required to take it.\""""
    pos = pos_of("4r2k/8/8/8/8/2N5/4q3/4K3 w - - 0 1")  # the knight can attack the queen
    moves = R.legal_moves(pos)
    assert [R.move_text(pos, m) for m in moves] == ["c3e2"]


def test_prerogative_not_against_a_distant_checker():
    pos = pos_of("6k1/8/8/8/8/8/5PPP/r5K1 w - - 0 1")  # back-rank mate by a distant rook
    assert R.legal_moves(pos) == []
    assert R.outcome(pos).reason == "checkmate"


def test_prerogative_not_against_an_undefended_checker():
    """An undefended adjacent checker is simply captured (a normal fight), not a Prerogative."""
    pos = pos_of("7k/8/8/8/8/8/4q3/4K3 w - - 0 1")
    assert [(R.move_text(pos, m), m.special) for m in R.legal_moves(pos)] == [("e1e2", "")]


def test_prerogative_fight_is_one_king_die_against_the_sum_with_every_modifier():
    """"The King rolls one Combat die as normal, while the opposing pieces roll all necessary
    dice and add them together. All of the usual modifiers apply\""""
    pos = pos_of(PREROGATIVE + " fatigue=e1:1,e8:2")
    R.play(pos, R.legal_moves(pos)[0])
    king, defenders = R.fighters(pos)
    assert king.dice == DiceSpec(10) and king.weapon_choice and king.fatigue == 1
    assert [d.dice for d in defenders] == [DiceSpec(10), DiceSpec(8)]
    assert [d.fatigue for d in defenders] == [0, 2] and not any(d.weapon_choice for d in defenders)
    expected = fight_odds(Fighter(DiceSpec(10), 1, True), [Fighter(DiceSpec(10)), Fighter(DiceSpec(8), 2)])
    assert R.odds(pos) == expected
    R.play(pos, roll([10], [2], [1]))  # 10+1-1 = 10 vs 2 + (1-2) = 1
    assert piece(pos, "e2") == "K" and piece(pos, "e8") is None and fatigue(pos, "e2") == 2


def test_prerogative_lost_loses_the_game():
    pos = pos_of(PREROGATIVE)
    R.play(pos, R.legal_moves(pos)[0])
    R.play(pos, roll([1], [9], [8]))
    assert R.outcome(pos).winners == {1}


# The issue-17 positions: FIDE mates where the checker's square is threatened only by a piece
# behind another supporter, or only through the King's own square.
BATTERY = "4r2k/8/8/4r3/8/8/4q3/4K3 w - - 0 1"  # Qe2+, Re5 behind it, Re8 behind Re5
XRAY = "7k/8/8/8/8/8/3PPP2/3rK2r w - - 0 1"  # Rd1+ covered by Rh1 only through e1


@pytest.mark.parametrize("fen, prerogative, fighters", [
    (BATTERY, "e1e2", ["e2", "e5", "e8"]),
    (XRAY, "e1d1", ["d1", "h1"]),
])
def test_prerogative_supporting_pieces_include_batteries_and_x_rays_through_the_kings_square(fen, prerogative, fighters):
    """"the King may declare 'King's Prerogative' and attack both the adjacent enemy and its
    supporting piece(s)": a supporting piece is every piece that threatens the checker's square
    once the King stands on it (the threat "which normally prevents such an attack"): directly,
    through the square the King leaves, or behind another supporter. Each rolls its die."""
    assert CHESS.outcome(CHESS.position_from_fen(fen)).reason == "checkmate"
    pos = pos_of(fen)
    moves = R.legal_moves(pos)
    assert [(R.move_text(pos, m), m.special) for m in moves] == [(prerogative, "prerogative")]
    R.play(pos, moves[0])
    assert [R.geometry.name_of(s) for s in pos.pending.get("defenders")] == fighters
    king, defenders = R.fighters(pos)
    assert len(defenders) == len(fighters) and king.weapon_choice


@pytest.mark.parametrize("fen", [BATTERY, XRAY, PREROGATIVE])
def test_a_king_that_wins_its_prerogative_never_stands_attacked(fen):
    """"a King cannot move into a threatened Square, with the noted exception of executing a
    King's Prerogative": the exception lasts the fight only. Every piece threatening the
    square fights, so the King that wins stands on it unattacked, the fighters off the board."""
    pos = pos_of(fen)
    R.play(pos, R.legal_moves(pos)[0])
    fought = pos.pending.get("defenders")
    R.play(pos, Answer("fight", "attacker"))
    (king,) = pos.royals[0]
    assert not R.is_attacked(pos, king, 1)
    assert all(pos.board[s] is None for s in fought if s != king)
    assert pos.turn == 1 and pos.pending is None  # the turn passed normally


def test_checkmate_still_wins_and_no_prerogative_follows_fide():
    """"Checkmate still wins; no legal move and no Prerogative follows the FIDE rules\" (issue)."""
    pos = pos_of("6rk/5Npp/8/8/8/8/8/6K1 b - - 0 1")  # smothered: the checker is not adjacent
    assert R.legal_moves(pos) == [] and R.outcome(pos).reason == "checkmate"
    pos = pos_of("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1")
    assert R.outcome(pos).reason == "stalemate"


def test_only_d6_mode():
    """"Pieces that normally roll an 8-Sided die roll twice, and pieces that normally roll a
    10-sided roll 3 dice ... take the highest result. The usual modifiers still apply.\""""
    r6 = CombatRules(d6_only=True)
    pos = r6.position_from_text("4k3/8/8/3p4/8/8/8/3QK3 w - - 0 1")
    r6.play(pos, r6.parse_move(pos, "d1d5"))
    a, (d,) = r6.fighters(pos)
    assert a.dice == DiceSpec(6, 3, "highest") and d.dice == DiceSpec(6)
    r6.play(pos, Answer("fight", ("roll", (1, 2, 6), ((6,),))))  # max 6 + 1 = 7 vs 6
    assert piece(pos, "d5") == "Q" and fatigue(pos, "d5") == 1


def test_en_passant_capture_is_a_fight_too():
    pos = pos_of("4k3/8/8/3Pp3/8/8/8/4K3 w - e6 0 2")
    m = move(pos, "d5e6")
    R.play(pos, m)
    assert pos.pending.get("defenders") == (R.geometry.parse_square("e5"),)
    R.play(pos, roll([1], [6]))
    assert piece(pos, "d5") is None and piece(pos, "e5") == "p"


def test_promotion_by_capture_keeps_fatigue():
    pos = pos_of("1r2k3/P7/8/8/8/8/8/4K3 w - - 0 1 fatigue=a7:2")
    R.play(pos, move(pos, "a7b8q"))
    R.play(pos, roll([6], [1]))
    assert piece(pos, "b8") == "Q" and fatigue(pos, "b8") == 3


def test_chance_outcomes_are_exact_and_sum_to_one():
    pos = pos_of(AFTER_E4_D5)
    R.play(pos, move(pos, "e4d5"))
    outs = R.chance_outcomes(pos)
    assert sum(o.probability for o in outs) == 1
    assert {o.answer.value for o in outs} == {"attacker", "defender", "bounce"}
    R.play(pos, roll([3], [4]))  # a tie: two rounds left
    assert R.odds(pos).bounce == Fraction(5, 36) ** 2


def test_undo_restores_fights_and_fatigue_exactly():
    pos = pos_of(AFTER_E4_D5)
    start = pos.snapshot()
    R.play(pos, move(pos, "e4d5"))
    R.play(pos, roll([3], [4]))
    R.play(pos, roll([6], [1]))
    for _ in range(3):
        R.undo(pos)
    assert pos.snapshot() == start


def test_expected_occupancy_during_a_fight_is_the_attempted_capture():
    pos = pos_of(AFTER_E4_D5)
    R.play(pos, move(pos, "e4d5"))
    occ = R.expected_occupancy(pos)
    assert R.geometry.parse_square("e4") not in occ and R.geometry.parse_square("d5") in occ
    R.play(pos, roll([1], [6]))  # attacker lost: now the board must show d5 (black) and no e4
    assert R.expected_occupancy(pos) == pos.occupied()


def test_position_text_round_trip_with_fatigue():
    text = AFTER_E4_D5 + " fatigue=e4:1,d5:2"
    pos = pos_of(text)
    assert R.position_text(pos) == text
    assert pos_of(AFTER_E4_D5 + " fatigue=d5:2,e4:1").snapshot()[0] == pos.snapshot()[0]


def test_insufficient_material_is_only_king_against_king():
    """A lone King can still lose a fight against a bishop (and so the game): K+B v K is alive
    in Combat Chess; only K v K is dead (docs/rules/combat.md)."""
    assert R.outcome(pos_of("8/8/4k3/8/8/3KB3/8/8 w - - 0 1")) is None
    assert R.outcome(pos_of("8/8/4k3/8/8/3K4/8/8 w - - 0 1")).reason == "insufficient material"
    assert CHESS.outcome(CHESS.position_from_fen("8/8/4k3/8/8/3KB3/8/8 w - - 0 1")).reason == "insufficient material"


def test_a_finished_game_with_a_fallen_king_reads_back_from_its_text():
    pos = pos_of("4k3/8/8/8/8/8/3q4/4K3 w - - 0 1")
    R.play(pos, move(pos, "e1d2"))
    R.play(pos, roll([1], [10]))
    text = R.position_text(pos)
    again = pos_of(text)
    assert R.outcome(again).reason == "king lost a fight" and R.position_text(again) == text
    import pytest as _pytest
    from companion.errors import PositionError

    with _pytest.raises(PositionError, match="exactly one king"):
        pos_of("8/8/8/8/8/8/8/8 w - - 0 1")
