"""A move as the board says it: which piece, from where, where to, what it took, check.

Two ways to make one: from standard notation (``Nxe5+``, ``exd5``, ``e8=Q#``, ``O-O``: FIDE
chess and the games played with its pieces), or from the rules and the position before the
move (any game: the piece is named by its role, "knight", or a named unit by its title,
"Skeleton").
"""

from __future__ import annotations

import re
from dataclasses import dataclass

#: English notation letters -> the role words the sentences use.
LETTER_ROLES = {"K": "king", "Q": "queen", "R": "rook", "B": "bishop", "N": "knight", "P": "pawn"}
#: A chess set's roles: their words are translated; any other piece is named by its title.
STANDARD_ROLES = frozenset(LETTER_ROLES.values())

_SAN = re.compile(r"^(?P<piece>[KQRBN])?(?P<body>[a-z0-9]*?)(?P<to>[a-z]\d{1,2})(?:=(?P<promo>[QRBN]))?$")


@dataclass(frozen=True)
class SpokenMove:
    """``piece``: a role ("knight") or a unit's title ("Skeleton"); ``frm``, ``to``: square
    names ("" when not said); ``castle``: "", "short" or "long"; ``check``: "", "check" or
    "mate"."""

    piece: str
    to: str
    frm: str = ""
    capture: bool = False
    castle: str = ""
    promotion: str = ""
    check: str = ""

    @classmethod
    def from_san(cls, san: str) -> "SpokenMove | None":
        """The move of standard notation ``san``, None when ``san`` is not standard notation."""
        text = san.strip().rstrip("!?")
        check = "mate" if text.endswith("#") else "check" if text.endswith("+") else ""
        core = text.rstrip("+#")
        if core in ("O-O", "0-0"):
            return cls("king", "", castle="short", check=check)
        if core in ("O-O-O", "0-0-0"):
            return cls("king", "", castle="long", check=check)
        m = _SAN.match(core)
        if m is None:
            return None
        piece = LETTER_ROLES[m["piece"]] if m["piece"] else "pawn"
        promo = LETTER_ROLES[m["promo"]] if m["promo"] else ""
        return cls(piece, m["to"], capture="x" in m["body"], promotion=promo, check=check)

    @classmethod
    def from_rules(cls, rules, pos, move) -> "SpokenMove":
        """``move`` (legal in ``pos``, before it is played) in words: the piece by its role when
        the game is played with a chess set, else by its title; check from the game's notation
        when it has one."""
        name = rules.geometry.name_of
        piece = pos.board[move.frm] if move.frm >= 0 else None
        san = ""
        if hasattr(rules, "san"):
            try:
                san = rules.san(pos, move)
            except Exception:  # a game whose notation cannot say this move: said without check
                san = ""
        if piece is not None and san and _is_standard(rules):
            from_san = cls.from_san(san)
            if from_san is not None and from_san.piece == piece_word(rules, piece.kind):
                return from_san
        check = "mate" if san.endswith("#") else "check" if san.endswith("+") else ""
        word = piece_word(rules, piece.kind) if piece is not None else ""
        castle = ""
        if move.special == "castle":
            castle = "short" if move.to % rules.geometry.width > move.frm % rules.geometry.width else "long"
        promo = ""
        if move.promotion:
            kind = next((k for k in rules.kinds if k.code == move.promotion), None)
            promo = piece_word(rules, kind) if kind is not None else str(move.promotion)
        return cls(word, "" if castle else name(move.to), "" if castle or move.frm < 0 else name(move.frm),
                   capture=move.capture is not None, castle=castle, promotion=promo, check=check)


def _is_standard(rules) -> bool:
    """FIDE's six pieces and no other (chess, Combat Chess): its notation is standard."""
    return bool(rules.kinds) and all((k.title or k.name).lower() in STANDARD_ROLES for k in rules.kinds)


def piece_word(rules, kind) -> str:
    """A kind's word: one of the chess set's six ("knight", translated when said), else the
    unit's title, a proper name ("Skeleton", "Elephant")."""
    title = kind.title or kind.name
    return title.lower() if title.lower() in STANDARD_ROLES else title
