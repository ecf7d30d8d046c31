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
from ..i18n import N_, _, ngettext

_KEYS = ("armies", "stones", "pending")
_HELP = N_("expected '<8 ranks> <w|b> <castling|-> <en passant|-> [halfmove fullmove] armies=<white>,<black> "
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
            key, __, value = f.partition("=")
            if key not in _KEYS:
                raise PositionError(_("unknown field {key!r}; Chess 2 positions know {keys}").format(
                                        key=key, keys=', '.join(_KEYS)))
            if key in extra:
                raise PositionError(_("{key}= is given twice").format(key=key))
            extra[key] = value
    if len(fen) not in (4, 6):
        raise PositionError(ngettext("Chess 2 position has {n} FEN field; {help}",
                                     "Chess 2 position has {n} FEN fields; {help}", len(fen)).format(
            n=len(fen), help=_(_HELP)))
    if "armies" in extra:
        armies = parse_armies(extra["armies"])
        if armies != rules.armies:
            raise PositionError(_("the position is for {armies},{armies2} but the game is {armies3},{armies4} "
                                  "(give those armies)").format(
                                    armies=armies[0], armies2=armies[1], armies3=rules.armies[0],
                                    armies4=rules.armies[1]))
    placement, side, castling, ep = fen[:4]
    pos = rules.new_position()

    def code_of(owner: int, ch: str, rank: int) -> str:
        kid = rules.kind_of(owner, ch)
        if kid in rules.pawns and rank in (0, 7):
            raise PositionError(_("a pawn on rank {rank} is impossible").format(rank=rank + 1))
        return rules.kinds[kid].code

    read_placement(pos, placement, code_of)
    for p in (WHITE, BLACK):
        n, want = len(pos.royals[p]), rules.kings_needed[p]
        if n != want:
            must = (ngettext("white ({army}) must have {want} King, found {n}",
                             "white ({army}) must have {want} Kings, found {n}", want) if p == WHITE else
                    ngettext("black ({army}) must have {want} King, found {n}",
                             "black ({army}) must have {want} Kings, found {n}", want))
            raise PositionError(must.format(army=rules.armies[p], want=want, n=n))
    if side not in ("w", "b"):
        raise PositionError(_("side to move is {side!r}; expected 'w' or 'b'").format(side=side))
    pos.set_turn(WHITE if side == "w" else BLACK)
    _read_castling(rules, pos, castling)
    halfmove, fullmove = read_counters(fen)
    pos.set_var("halfmove", halfmove)
    pos.set_var("fullmove", fullmove)
    pos.set_var("stones", _read_stones(extra.get("stones")))
    if sum(1 for p in (WHITE, BLACK) if rules._invaded(pos, p)) > 1:
        raise PositionError(_("both sides have invaded across the midline: the game would have ended at the first"))
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
        raise PositionError(_("castling field {castling!r}: expected '-' or letters from KQkq").format(
                                castling=castling))
    for r in castling:
        owner = WHITE if r.isupper() else BLACK
        who = _("white") if owner == WHITE else _("black")
        if not rules.castles[owner]:
            raise PositionError(_("castling right {r!r}: only the Classic army castles; {who} plays {armies}").format(
                                    r=r, who=who, armies=rules.armies[owner]))
        kf, __, rf, __, __, __ = CASTLES[r]
        k, rk = pos.board[kf], pos.board[rf]
        if not (k and k.owner == owner and k.kind.royal and rk and rk.owner == owner and rk.kind.code[1] == "R"):
            needs = (_("castling right {r!r} needs the white King on {square} and a white rook on {square2}")
                     if owner == WHITE else
                     _("castling right {r!r} needs the black King on {square} and a black rook on {square2}"))
            raise PositionError(needs.format(r=r, square=rules.geometry.name_of(kf),
                                             square2=rules.geometry.name_of(rf)))
    pos.set_var("castling", "".join(c for c in "KQkq" if c in castling))


def _read_stones(text: str | None) -> tuple[int, int]:
    if text is None:
        return START_STONES, START_STONES
    parts = text.split(",")
    if len(parts) != 2:
        raise PositionError(_("stones={text}: expected white's and black's stones, each 0 to {max_stones}, e.g. "
                              "stones=3,3").format(text=text, max_stones=MAX_STONES))
    whose = (_("stones={text}: white's stones"), _("stones={text}: black's stones"))
    w, b = (whole_number(p, what.format(text=text), PositionError, 0, MAX_STONES) for p, what in zip(parts, whose))
    return w, b


def _read_ep(rules, pos: Position, ep: str, pending: str | None) -> None:
    """The square a pawn of the side not to move just passed (during a king-turn: a pawn of
    the side taking it, whose turn is not over yet)."""
    try:
        sq = rules.geometry.parse_square(ep)
    except ValueError as e:
        raise PositionError(_("en passant field: {e}").format(e=e)) from None
    king_turn = pending == KING_TURN
    passer = pos.turn if king_turn else 1 - pos.turn
    want_rank = 2 if passer == WHITE else 5
    if sq // 8 != want_rank:
        raise PositionError((_("en passant square {ep} is impossible here (a white pawn passes rank {rank})")
                             if passer == WHITE else
                             _("en passant square {ep} is impossible here (a black pawn passes rank {rank})")).format(
                                ep=ep, rank=want_rank + 1))
    pawn_sq = sq + 8 if passer == WHITE else sq - 8
    p = pos.board[pawn_sq]
    if p is None or p.kid not in rules.pawns or p.owner != passer or pos.board[sq] is not None:
        raise PositionError(_("en passant square {ep}: no pawn just passed it").format(ep=ep))
    pos.set_var("ep", sq)
    if pending is None:
        cands: list[Move] = []
        rules.extra_moves(pos, pos.turn, cands)
        if not any(m.special == "ep" and rules.is_legal(pos, m) for m in cands):
            pos.set_var("ep", None)


def _read_pending(rules, pos: Position, text: str):
    if rules.invader(pos) is not None:
        raise PositionError(_("pending=: the game is already over (Midline Invasion)"))
    if text == KING_TURN:
        if not rules.king_turns[pos.turn]:
            raise PositionError(_("pending=king-turn: {armies} takes no king-turns (only Two Kings does)").format(
                                    armies=rules.armies[pos.turn]))
        return rules.king_turn_decision(pos.turn)
    kind, __, move_text = text.partition(":")
    if kind not in DUEL_KINDS or not move_text:
        raise PositionError(_("pending={text}: expected king-turn, or duel:, bids: or bluff: followed by the "
                              "capturing move (e.g. pending=duel:e4d5)").format(text=text))
    moves = [m for m in rules.pseudo_moves(pos, pos.turn) if rules.move_text(pos, m) == move_text and m.capture is not None]
    if not moves:
        raise PositionError(_("pending={text}: {move_text} is not a capture the side to move can make here").format(
                                text=text, move_text=move_text))
    move = moves[0]
    victims = rules._victims(pos, move)
    board = pos.board
    v = next((t for t in victims if board[t].owner != pos.turn), None)
    if v is None or victims[0] != v:
        raise PositionError(_("pending={text}: no duel can be waiting there (the next piece it takes is its own)").format(
                                text=text))
    att, q = board[move.frm], board[v]
    st = rules.stones(pos)
    if kind == "duel":
        if not rules.may_initiate(att, q, st[q.owner], st[att.owner]):
            raise PositionError(_("pending={text}: the defender cannot initiate a duel there (Kings never duel; it "
                                  "takes 1 stone, 2 against a higher-ranked attacker who has none)").format(text=text))
        return rules.duel_decision(pos, move, v)
    move = Move(move.frm, move.to, v, move.promotion, move.special)
    if att.kind.royal or q.kind.royal:
        raise PositionError(_("pending={text}: Kings never duel").format(text=text))
    if kind == "bids":
        if st[att.owner] == 0 or st[q.owner] == 0:
            raise PositionError(_("pending={text}: bids need stones on both sides (stones={st},{st2})").format(
                                    text=text, st=st[0], st2=st[1]))
        return rules.bids_decision(pos, move, v)
    if len(rules.bluff_options(pos, att.owner)) != 2:
        raise PositionError(_("pending={text}: with stones={st},{st2} a called bluff leaves no choice").format(
                                text=text, st=st[0], st2=st[1]))
    return rules.bluff_decision(pos, move, v)
