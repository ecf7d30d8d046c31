"""Which boards the hall believes: the round key, signed events, and a board's data held to
its own PGN and to the round's pairings (pure: values in, a reason out).

The arbiter's pairing file names the round's boards and, once the hall has added it, carries a
**round key** (companion.tournament.pairing: a line ``XXK <64 hex digits>``). Each board loads
that file from its USB stick to set up its game, as it already did, and keeps a copy (mode
0600) for its results; its broadcast then signs every event it sends a hall:

    sig = HMAC-SHA256(key, "companion board event v1" LF nonce LF data)

where ``data`` is the event's JSON exactly as sent and ``nonce`` a random value the hall
chose for this one connection (``/events?nonce=...``), so an event recorded from one stream
cannot be played back on another. The signature goes on an ``sig:`` line of the server-sent
event, which browsers pass over. The key never leaves the file: it is not sent, logged, shown
or written into a PGN.

:class:`Admission` is what the hall knows of the round (the pairings and the key); a board's
event is refused, with the reason said on the hall page, when it is not signed with the key,
when its round is not the pairing's, when its board number is not one of the round's or its
players are not the ones paired there. :func:`check_own_pgn` holds every board, admitted or
not, to its own PGN: the round, board, players and result in its data must be those of the
PGN it sends.
"""

from __future__ import annotations

import hashlib
import hmac
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from ..errors import BroadcastError
from ..i18n import N_, _
from ..tournament.pairing import Pairing, Pairings

if TYPE_CHECKING:
    from ..tournament.pgn import PgnGame

CONTEXT = b"companion board event v1\n"
#: The hex digits of a nonce a hall sends (and a board accepts).
NONCE_HEX = 32
#: Names compared without case, spaces or punctuation ("Carlsen, Magnus" = "carlsen magnus").
_KEEP = str.maketrans("", "", " ,.-_'\t")


def sign(key: bytes, nonce: str, data: str) -> str:
    """The signature of one event's ``data`` sent on the stream the hall opened with ``nonce``."""
    return hmac.new(key, CONTEXT + nonce.encode("ascii") + b"\n" + data.encode("utf-8"), hashlib.sha256).hexdigest()


def is_nonce(text: str) -> bool:
    return len(text) == NONCE_HEX and all(c in "0123456789abcdef" for c in text)


def key_bytes(hex_key: str) -> bytes | None:
    """A pairing file's round key as bytes (None: the file has none)."""
    return bytes.fromhex(hex_key) if hex_key else None


@dataclass(frozen=True)
class Admission:
    """What the hall knows of the round: its pairings and the round key (a secret: no repr)."""

    pairings: Pairings
    key: bytes = field(repr=False)

    @classmethod
    def of(cls, pairings: Pairings) -> Admission:
        if not pairings.round_key:
            raise BroadcastError(_("{source} has no round key; the hall adds one (companion hall --pairings)").format(
                source=pairings.source))
        return cls(pairings, bytes.fromhex(pairings.round_key))

    def check_signature(self, nonce: str, data: str, sig: str) -> None:
        """BroadcastError unless ``sig`` is the round key's signature of ``data`` on this stream."""
        if not sig:
            raise BroadcastError(_("its data is not signed with the round key: load this round's pairing file on the "
                                   "board (the one the hall added its key to)"))
        if not hmac.compare_digest(sig.encode("ascii", "replace"), sign(self.key, nonce, data).encode("ascii")):
            raise BroadcastError(_("its data is not signed with this round's key (another round's pairing file, or "
                                   "not a board of this round)"))

    def pairing(self, round_: str, board: str) -> Pairing | None:
        if round_ != str(self.pairings.round) or not board.isdigit():
            return None
        return next((p for p in self.pairings.games if str(p.board) == board), None)

    def check_pairing(self, round_: str, board: str, players: tuple[str, ...]) -> Pairing:
        """The round's pairing for a board that claims ``round_`` and ``board`` with
        ``players``; BroadcastError says what does not match."""
        p = self.pairings
        if round_ != str(p.round):
            raise BroadcastError(_("it plays round {played}; this hall shows round {round}").format(
                played=round_ or _("(none)"), round=p.round))
        pairing = self.pairing(round_, board)
        if pairing is None:
            boards = ", ".join(str(g.board) for g in p.games[:12]) + (", ..." if len(p.games) > 12 else "")
            raise BroadcastError(_("round {round} has no board {board} (its boards: {boards})").format(
                round=p.round, board=board or _("(none)"), boards=boards))
        expected = (pairing.white.name, pairing.black.name)
        if tuple(_plain(n) for n in players) != tuple(_plain(n) for n in expected):
            raise BroadcastError(_("board {board} of round {round} is {white} - {black}, not {players}").format(
                board=board, round=p.round, white=expected[0], black=expected[1], players=' - '.join(players)))
        return pairing


def _plain(name: str) -> str:
    return name.translate(_KEEP).casefold()


def check_own_pgn(round_: str, board: str, players: tuple[str, ...], result: str, game: PgnGame) -> None:
    """BroadcastError unless the data's round, board, first two players and result are those
    of the board's own PGN (its tags and the result after its moves)."""
    pgn_round = game.tag("Round", "") or ""
    if pgn_round in ("?", "-"):  # the PGN's words for "unknown" and "none"
        pgn_round = ""
    pgn_names = (game.tag("White", "") or "", game.tag("Black", "") or "")
    for what, data, pgn in ((N_("round"), round_, pgn_round), (N_("board"), board, game.tag("Board", "") or ""),
                            (N_("White"), players[0] if players else "", pgn_names[0]),
                            (N_("Black"), players[1] if len(players) > 1 else "?", pgn_names[1]),
                            (N_("result"), result, game.tag("Result", "*") or "*"),
                            (N_("result"), result, game.result)):
        if data != pgn:
            raise BroadcastError(_("its data says {what} {data} but its PGN says {pgn}").format(
                what=_(what), data=data or _("(none)"), pgn=pgn or _("(none)")))
