"""What one board knows of a linked game: the record the link's rooms share.

Like the tracker's ``TrackerState`` and the table's ``TableState``: :class:`LinkState` holds the
game (the session and the log of every action in it), the two streams of notes, the sealed
choices and what the rooms are waiting for; each field names the room that changes it.

**The single writer.** Both boards apply the same actions in the same order because at any
moment exactly one board may add the next action: the board of the seat that must act now
(:meth:`LinkState.writer`: the player to move, or the player a choice waits for, or the one who
must answer a draw offer; a fight's dice and a duel's bids are written by the board whose move
started them; after the end, the host). The other board asks (a resignation, a draw offer, a
takeback) with a *note*, and the writer writes it, or the asker writes it itself as soon as it
becomes the writer. So the log never forks, and every action is numbered by its place in it.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field
from typing import Any, Callable

from ..dice.linked import HashChain

#: Without a word from the other board for this long, it is away (heartbeats come every 2 s).
AWAY_MS = 10_000
HEARTBEAT_MS = 2_000
#: The reason of a game claimed because the other board stayed away (the result's words).
CLAIM_REASON = "the other board stayed away"


def position_hash(session) -> str:
    """The position's fingerprint every message carries: SHA-256 of its text, the choice it
    waits for, the standing draw offer and the result."""
    if session is None:
        return ""
    pos = session.pos
    result = session.result
    ended = None if result is None else (sorted(result.winners), result.reason)
    text = f"{session.rules.position_text(pos)}|{pos.pending!r}|{session.draw_offer!r}|{ended!r}"
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]


@dataclass
class LinkState:
    me: int                                   # 0: this board is the host, 1: the guest
    root: bytes                               # this board's secret (chain, nonces, coin); never sent
    record: Callable[[dict], None] | None     # the link journal's append (before anything is sent)
    number: int = 1                           # the game's number on this link (a rematch is the next)
    chain: HashChain = field(init=False)
    replaying: bool = False                   # rebuilding from the link journal: nothing is sent
    # the lobby (companion.link.lobby)
    proposal: Any = None
    accepted: bool = False
    choices: dict | None = None               # this board's choices for its seats, once made
    # the game
    session: Any = None
    phase: str = "lobby"                      # lobby, playing, mismatch
    log: list[dict] = field(default_factory=list)     # every action after the start entry
    authors: list[int] = field(default_factory=list)  # the board that wrote each
    extras: dict[int, dict] = field(default_factory=dict)  # what came with entry n (req, ok, claim, fix)
    # the notes: this board's, numbered from 1, and how many of the other's are in
    mine: list[dict] = field(default_factory=list)
    theirs: int = 0
    peer_acked: int = 0                       # of mine, what the other board has (its sync)
    peer_log: int = 0
    # sealed choices (companion.link.fair.Sealing)
    commits: dict[tuple[str, int], tuple[str, int]] = field(default_factory=dict)  # (label, board) -> digest, note
    opened: dict[tuple[str, int], Any] = field(default_factory=dict)
    sealed: dict[str, Any] = field(default_factory=dict)   # mine, before they are opened
    # fights (companion.link.fair.Fights)
    revealed: set[int] = field(default_factory=set)        # chain indices this board revealed
    peer_secrets: dict[int, str] = field(default_factory=dict)
    # requests and takebacks (companion.link.requests)
    requests: dict[int, dict] = field(default_factory=dict)   # mine, not yet written
    takebacks: dict[tuple[int, int], dict] = field(default_factory=dict)  # (board, note) -> asked
    # faults (companion.link.game)
    mismatch_at: int | None = None
    views: dict[int, str] = field(default_factory=dict)
    fixes: dict[int, str] = field(default_factory=dict)
    heard_ms: int | None = None
    away_since: int | None = None
    outbox: list[dict] = field(default_factory=list)
    refused: int = 0
    #: takes in one of this board's own notes (the same way live and when the journal is replayed)
    absorb_mine: Callable[[dict, int], None] | None = None

    def __post_init__(self) -> None:
        self.chain = HashChain(self.root)

    @property
    def peer(self) -> int:
        return 1 - self.me

    # ----- who sits where, who writes ---------------------------------------------------------------
    def board_of(self, seat: int) -> int:
        return self.proposal.seats[seat].board

    def my_seats(self) -> tuple[int, ...]:
        return self.proposal.seats_of(self.me)

    def acting_seat(self) -> int | None:
        """The seat that must act now (None: the game is over)."""
        s = self.session
        if s.result is not None:
            return None
        if s.draw_offer is not None:
            return 1 - s.draw_offer
        d = s.pos.pending
        if d is not None and not d.chance and d.player >= 0:
            return d.player
        return s.pos.turn

    def writer(self) -> int:
        seat = self.acting_seat()
        return 0 if seat is None else self.board_of(seat)

    def hash(self) -> str:
        return position_hash(self.session)

    # ----- notes and messages --------------------------------------------------------------------------
    def write(self, item: dict) -> None:
        """Journal ``item`` in the link journal (never while replaying it)."""
        if self.record is not None and not self.replaying:
            self.record(item)

    def send(self, message: dict) -> None:
        if not self.replaying:
            self.outbox.append({**message, "g": self.number, "at": len(self.log), "h": self.hash()})

    def note(self, kind: str, **fields) -> int:
        """Add one of this board's notes: journaled, kept, sent. Returns its number."""
        k = len(self.mine) + 1
        note = {"kind": kind, **fields}
        self.write({"type": "mine", "k": k, "note": note})
        self.mine.append(note)
        if self.absorb_mine is not None:
            self.absorb_mine(note, k)
        self.send({"t": "note", "k": k, "v": note})
        return k

    def entry_message(self, n: int) -> dict:
        return {"t": "entry", "n": n, "e": self.log[n - 1], **self.extras.get(n, {})}


def encode(message: dict) -> bytes:
    return json.dumps(message, separators=(",", ":"), ensure_ascii=False).encode("utf-8")
