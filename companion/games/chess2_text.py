"""Chess 2 position text: FEN whose letters mean what each side's army says, plus the stones,
the armies and a pending decision (documented in companion/core/notation.py and
docs/rules/chess2.md).

    <placement> <w|b> <castling|-> <en passant|-> [<halfmove> <fullmove>] armies=<white>,<black> [stones=<w>,<b>] [pending=<what>]

* ``armies``: the two armies (classic, nemesis, empowered, reaper, two-kings, animals); without
  it, the rules' armies.
* ``stones``: each side's stones, 0 to 6; without it, 3,3 (the start).
* ``pending``: ``king-turn`` (the side to move takes or skips its king-turn), or
  ``duel:<move>`` (the defender decides whether to duel the capture ``<move>``),
  ``bids:<move>`` (both bid), ``bluff:<move>`` (the attacker chooses its reward). For a rampage
  the duel is about the first piece still on the Elephant's path.

Castling letters are allowed only for a Classic side, with King and rook on their squares.
"""

from __future__ import annotations

from ..bounds import whole_number
from ..core.moves import Move
from ..core.position import Position
from ..errors import PositionError
from .chess import CASTLES, placement_text, read_counters, read_placement
from .chess2_armies import BLACK, DUEL_KINDS, KING_TURN, MAX_STONES, START_STONES, WHITE, parse_armies

_KEYS = ("armies", "stones", "pending")
_HELP = ("expected '<8 ranks> <w|b> <castling|-> <en passant|-> [halfmove fullmove] armies=<white>,<black> "
         "[stones=<w>,<b>] [pending=...]'")


def start_text(armies) -> str:
    """The start position of a match-up: the standard set, a Two Kings army with a second King
    on the Queen's square; castling rights for a Classic side."""
    white, black = parse_armies(armies)
    back = {a: ("RNBKKBNR" if a == "two-kings" else "RNBQKBNR") for a in (white, black)}
    rights = ("KQ" if white == "classic" else "") + ("kq" if black == "classic" else "")
    return (f"{back[black].lower()}/pppppppp/8/8/8/8/PPPPPPPP/{back[white]} w {rights or '-'} - 0 1 "
            f"armies={white},{black} stones={START_STONES},{START_STONES}")


def armies_in_text(text: str) -> tuple[str, str] | None:
    """The ``armies=`` of a position text, if it has one (VariantError if it names no army)."""
    for f in str(text).split():
        if f.startswith("armies="):
            return parse_armies(f[len("armies="):])
    return None


def format_position(rules, pos: Position) -> str:
    ep = pos.var("ep")
    st = rules.stones(pos)
    out = [placement_text(pos, rules.letter), "w" if pos.turn == WHITE else "b", pos.var("castling") or "-",
           rules.geometry.name_of(ep) if ep is not None else "-", str(pos.var("halfmove", 0)),
           str(pos.var("fullmove", 1)), f"armies={rules.armies[0]},{rules.armies[1]}", f"stones={st[0]},{st[1]}"]
    d = pos.pending
    if d is not None:
        out.append("pending=" + (KING_TURN if d.kind == KING_TURN else f"{d.kind}:{rules.move_text(pos, d.get('move'))}"))
    return " ".join(out)


def parse_position(rules, text: str) -> Position:
    """Parse and validate; raises PositionError (or VariantError for an unknown army) saying
    what is wrong and what is expected."""
    fields = str(text).split()
    fen = [f for f in fields if "=" not in f]
    extra: dict[str, str] = {}
    for f in fields:
        if "=" in f:
            key, _, value = f.partition("=")
            if key not in _KEYS:
                raise PositionError(f"unknown field {key!r}; Chess 2 positions know {', '.join(_KEYS)}")
            if key in extra:
                raise PositionError(f"{key}= is given twice")
            extra[key] = value
    if len(fen) not in (4, 6):
        raise PositionError(f"Chess 2 position has {len(fen)} FEN fields; {_HELP}")
    if "armies" in extra:
        armies = parse_armies(extra["armies"])
        if armies != rules.armies:
            raise PositionError(f"the position is for {armies[0]},{armies[1]} but the game is "
                                f"{rules.armies[0]},{rules.armies[1]} (give those armies)")
    placement, side, castling, ep = fen[:4]
    pos = rules.new_position()

    def code_of(owner: int, ch: str, rank: int) -> str:
        kid = rules.kind_of(owner, ch)
        if kid in rules.pawns and rank in (0, 7):
            raise PositionError(f"a pawn on rank {rank + 1} is impossible")
        return rules.kinds[kid].code

    read_placement(pos, placement, code_of)
    for p, who in ((WHITE, "white"), (BLACK, "black")):
        n, want = len(pos.royals[p]), rules.kings_needed[p]
        if n != want:
            raise PositionError(f"{who} ({rules.armies[p]}) must have {want} King{'s' if want > 1 else ''}, found {n}")
    if side not in ("w", "b"):
        raise PositionError(f"side to move is {side!r}; expected 'w' or 'b'")
    pos.set_turn(WHITE if side == "w" else BLACK)
    _read_castling(rules, pos, castling)
    halfmove, fullmove = read_counters(fen)
    pos.set_var("halfmove", halfmove)
    pos.set_var("fullmove", fullmove)
    pos.set_var("stones", _read_stones(extra.get("stones")))
    if sum(1 for p in (WHITE, BLACK) if rules._invaded(pos, p)) > 1:
        raise PositionError("both sides have invaded across the midline: the game would have ended at the first")
    pending = extra.get("pending")
    if ep != "-":
        _read_ep(rules, pos, ep, pending)
    if pending is not None:
        pos.set_var("pending", _read_pending(rules, pos, pending))
    # the side not to move may stand in check: a duel its opponent won uncovered its King
    return pos


def _read_castling(rules, pos: Position, castling: str) -> None:
    if castling == "-":
        return
    if any(c not in "KQkq" for c in castling) or len(set(castling)) != len(castling):
        raise PositionError(f"castling field {castling!r}: expected '-' or letters from KQkq")
    for r in castling:
        owner = WHITE if r.isupper() else BLACK
        who = "white" if owner == WHITE else "black"
        if not rules.castles[owner]:
            raise PositionError(f"castling right {r!r}: only the Classic army castles; {who} plays {rules.armies[owner]}")
        kf, _, rf, _, _, _ = CASTLES[r]
        k, rk = pos.board[kf], pos.board[rf]
        if not (k and k.owner == owner and k.kind.royal and rk and rk.owner == owner and rk.kind.code[1] == "R"):
            raise PositionError(f"castling right {r!r} needs the {who} King on {rules.geometry.name_of(kf)} "
                                f"and a {who} rook on {rules.geometry.name_of(rf)}")
    pos.set_var("castling", "".join(c for c in "KQkq" if c in castling))


def _read_stones(text: str | None) -> tuple[int, int]:
    if text is None:
        return START_STONES, START_STONES
    parts = text.split(",")
    if len(parts) != 2:
        raise PositionError(f"stones={text}: expected white's and black's stones, each 0 to {MAX_STONES}, e.g. stones=3,3")
    w, b = (whole_number(p, f"stones={text}: {who}'s stones", PositionError, 0, MAX_STONES)
            for p, who in zip(parts, ("white", "black")))
    return w, b


def _read_ep(rules, pos: Position, ep: str, pending: str | None) -> None:
    """The square a pawn of the side not to move just passed (during a king-turn: a pawn of
    the side taking it, whose turn is not over yet)."""
    try:
        sq = rules.geometry.parse_square(ep)
    except ValueError as e:
        raise PositionError(f"en passant field: {e}") from None
    king_turn = pending == KING_TURN
    passer = pos.turn if king_turn else 1 - pos.turn
    want_rank = 2 if passer == WHITE else 5
    if sq // 8 != want_rank:
        raise PositionError(f"en passant square {ep} is impossible here (a {'white' if passer == WHITE else 'black'} "
                            f"pawn passes rank {want_rank + 1})")
    pawn_sq = sq + 8 if passer == WHITE else sq - 8
    p = pos.board[pawn_sq]
    if p is None or p.kid not in rules.pawns or p.owner != passer or pos.board[sq] is not None:
        raise PositionError(f"en passant square {ep}: no pawn just passed it")
    pos.set_var("ep", sq)
    if pending is None:
        cands: list[Move] = []
        rules.extra_moves(pos, pos.turn, cands)
        if not any(m.special == "ep" and rules.is_legal(pos, m) for m in cands):
            pos.set_var("ep", None)


def _read_pending(rules, pos: Position, text: str):
    if rules.invader(pos) is not None:
        raise PositionError("pending=: the game is already over (Midline Invasion)")
    if text == KING_TURN:
        if not rules.king_turns[pos.turn]:
            raise PositionError(f"pending=king-turn: {rules.armies[pos.turn]} takes no king-turns (only Two Kings does)")
        return rules.king_turn_decision(pos.turn)
    kind, _, move_text = text.partition(":")
    if kind not in DUEL_KINDS or not move_text:
        raise PositionError(f"pending={text}: expected king-turn, or duel:, bids: or bluff: followed by the "
                            f"capturing move (e.g. pending=duel:e4d5)")
    moves = [m for m in rules.pseudo_moves(pos, pos.turn) if rules.move_text(pos, m) == move_text and m.capture is not None]
    if not moves:
        raise PositionError(f"pending={text}: {move_text} is not a capture the side to move can make here")
    move = moves[0]
    victims = rules._victims(pos, move)
    board = pos.board
    v = next((t for t in victims if board[t].owner != pos.turn), None)
    if v is None or victims[0] != v:
        raise PositionError(f"pending={text}: no duel can be waiting there (the next piece it takes is its own)")
    att, q = board[move.frm], board[v]
    st = rules.stones(pos)
    if kind == "duel":
        if not rules.may_initiate(att, q, st[q.owner], st[att.owner]):
            raise PositionError(f"pending={text}: the defender cannot initiate a duel there (Kings never duel; "
                                f"it takes 1 stone, 2 against a higher-ranked attacker who has none)")
        return rules.duel_decision(pos, move, v)
    move = Move(move.frm, move.to, v, move.promotion, move.special)
    if att.kind.royal or q.kind.royal:
        raise PositionError(f"pending={text}: Kings never duel")
    if kind == "bids":
        if st[att.owner] == 0 or st[q.owner] == 0:
            raise PositionError(f"pending={text}: bids need stones on both sides (stones={st[0]},{st[1]})")
        return rules.bids_decision(pos, move, v)
    if len(rules.bluff_options(pos, att.owner)) != 2:
        raise PositionError(f"pending={text}: with stones={st[0]},{st[1]} a called bluff leaves no choice")
    return rules.bluff_decision(pos, move, v)
