"""The listener that turns the game's events into what the board says.

The wiring module hands it every batch of events the session, the table and the tracker
return (:meth:`Announcer.hear`), the state of the turn after each batch (:meth:`Announcer.turn`),
the clock's times (:meth:`Announcer.clock`), the sensors' changes and the time
(:meth:`Announcer.tick`); each returns the announcements to make, in order. It reads the
game (``rules`` and the current position, through ``position``) only to name what moved and
to count what a lifted piece can do. No clock, no threads: time comes in as ``t_ms``.

What a player hears, and why (docs/speech.md):

* every move, as soon as the game takes it ("Knight takes e5, check"); the computer's when it
  chose it (the board then guides a person to make it, and that move is not said twice);
* whose turn it is, a fight and its dice, a duel's or a step's question, a Dungeon ability;
* guidance, once it has stood for :data:`GUIDANCE_SETTLE_MS` (a hand half way through a
  move is not told what to do), never the same sentence twice in a row;
* a piece lifted: what it is and how many moves it has; held up for :data:`HOLD_MS`, where
  they go;
* the clock at a minute and at ten seconds (:data:`WARNINGS_MS`), a fallen flag, the result.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Iterable, Sequence

from ..board.ports import SquareChanged
from ..board.palette import Meaning
from ..board.tracker.outputs import GuidanceChanged, IllegalMoveShown, LedsChanged, PromptRequested, SetupCompleted
from ..i18n import Language
from .. import session as se
from ..tournament.clock import FlagFell
from ..tournament.table import events as te
from . import words as W
from .announcements import Announcement, Kind, Priority
from .moves import SpokenMove, piece_word

#: Guidance is said once it has stood this long (ms).
GUIDANCE_SETTLE_MS = 1500
#: A piece held up this long (ms) has its target squares said.
HOLD_MS = 2000
#: The clock warnings: a minute, ten seconds.
WARNINGS_MS = (60_000, 10_000)


@dataclass(frozen=True)
class TurnView:
    """The turn after a batch of events: whose it is, the choice the game waits for (its
    kind, None when none; a chance decision such as a fight's dice is no choice), who must make
    it (a joint decision: the players whose part is missing), and whether the game is over."""

    turn: int
    decision: str | None = None
    deciders: tuple[int, ...] = ()
    over: bool = False


class Announcer:
    """``colours``: each player's colour word ("white", "blue"; companion/maps.py's names);
    ``rules`` and ``position`` (a callable giving the current position) name the pieces."""

    def __init__(self, language: Language, colours: Sequence[str], rules=None,
                 position: Callable[[], object] | None = None) -> None:
        self.language = language
        self.colours = tuple(colours)
        self.rules = rules
        self.position = position
        self._last_turn: TurnView | None = None
        self._guidance: tuple[str, int] | None = None  # (text, since when)
        self._guidance_said = ""
        self._held: tuple[int, int] | None = None  # (square, lifted at)
        self._requested: tuple[int, int] | None = None  # the computer's move, already said
        self._armed: dict[int, set[int]] = {}
        self._lit: dict | None = None  # the tracker's last LED meanings (None: no tracker speaks to us)

    # ----- helpers ------------------------------------------------------------------------------------
    def _a(self, text: str, priority: Priority, kind: str) -> Announcement:
        return Announcement(text, self.language.code, priority, kind)

    def colour(self, player: int) -> str:
        return self.colours[player] if 0 <= player < len(self.colours) else str(player + 1)

    def _name(self, sq: int) -> str:
        return self.rules.geometry.name_of(sq) if self.rules is not None else str(sq)

    def _piece_at(self, sq: int):
        if self.position is None or sq is None or sq < 0:
            return None
        return self.position().board[sq]

    def _piece_of(self, player: int, kind_word: str) -> str:
        return W.piece_of(self.language, self.colour(player), kind_word)

    # ----- moves ------------------------------------------------------------------------------------
    def spoken_entry(self, entry: se.MoveEntry) -> SpokenMove:
        """A move of the move list as a :class:`SpokenMove`: from its notation in a game of
        FIDE's pieces, else from the piece that now stands where it went."""
        standard = self.rules is not None and bool(self.rules.kinds) and all(
            (k.title or k.name).lower() in W.STANDARD_ROLES for k in self.rules.kinds)
        if standard or self.rules is None:
            spoken = SpokenMove.from_san(entry.san)
            if spoken is not None:
                return spoken
        piece = self._piece_at(entry.to) or self._piece_at(entry.frm)
        word = piece_word(self.rules, piece.kind) if piece is not None and self.rules is not None else ""
        return SpokenMove(word, self._name(entry.to), self._name(entry.frm) if entry.frm >= 0 else "",
                          capture="x" in entry.san)

    def move_text(self, player: int, spoken: SpokenMove) -> str:
        text = W.move(self.language, spoken)
        return W.move_by(self.language, self.colour(player), text) if len(self.colours) > 2 else text

    def computer_move(self, player: int, spoken: SpokenMove, frm: int, to: int) -> list[Announcement]:
        """The computer chose a move (the board now asks a person to make it): said now, with
        who plays it, and not again when the board shows it made."""
        self._requested = (frm, to)
        return [self._a(W.move_by(self.language, self.colour(player), W.move(self.language, spoken)),
                        Priority.MOVE, Kind.MOVE)]

    # ----- the events -----------------------------------------------------------------------------------
    def hear(self, events: Iterable[object], t_ms: int) -> list[Announcement]:
        """The announcements for a batch of events (session, table, tracker, sensors)."""
        events = list(events)
        for event in events:  # what the tracker lit for a lifted piece: its targets, not worked out again
            if isinstance(event, LedsChanged):
                self._lit = event.meanings
        out: list[Announcement] = []
        for event in events:
            out += self._one(event, t_ms)
        return out

    def _one(self, e: object, t_ms: int) -> list[Announcement]:
        L = self.language
        if isinstance(e, se.MovePlayed):
            self._held = None
            said = self._requested == (e.entry.frm, e.entry.to)
            self._requested = None
            out = [] if said else [self._a(self.move_text(e.entry.player, self.spoken_entry(e.entry)),
                                           Priority.MOVE, Kind.MOVE)]
            return out + self._abilities(e.entry.effects)
        if isinstance(e, se.GameStarted):
            return [self._a(W.game_started(L), Priority.INFO, Kind.NOTICE)]
        if isinstance(e, se.FightStarted):
            f = e.fight
            attacker = self._piece_of(f.attacker.player, f.attacker.kind)
            defenders = [self._piece_of(d.player, d.kind) for d in f.defenders]
            square = self._name(f.defenders[0].square if f.defenders else f.attacker.square)
            return [self._a(W.fight(L, square, attacker, defenders) + " " + W.roll_the_dice(L),
                            Priority.INFO, Kind.FIGHT)]
        if isinstance(e, se.DiceRolled):
            r = e.round
            a_faces = [x for f in r.attacker.fighters for x in f.faces]
            d_faces = [x for f in r.defender.fighters for x in f.faces]
            text = W.dice_round(L, a_faces, r.attacker.total, d_faces, r.defender.total)
            tie = W.round_result(L, r.result) if e.fight is not None else ""
            return [self._a(f"{text} {tie}".strip(), Priority.INFO, Kind.DICE)]
        if isinstance(e, se.FightEnded):
            attacker = self._piece_of(e.attacker.player, e.attacker.kind)
            square = self._name(e.defenders[0].square if e.defenders else e.attacker.square)
            return [self._a(W.fight_result(L, e.result, attacker, square), Priority.INFO, Kind.FIGHT)]
        if isinstance(e, se.PartSealed):
            return [self._a(W.bid_sealed(L, self.colour(e.player)), Priority.INFO, Kind.DUEL)]
        if isinstance(e, se.TurnsUndone):
            return [self._a(W.taken_back(L, len(e.entries)), Priority.INFO, Kind.NOTICE)]
        if isinstance(e, se.PlayerResigned):
            return [self._a(W.resigned(L, self.colour(e.player)), Priority.INFO, Kind.NOTICE)]
        if isinstance(e, se.PositionSet):
            return [self._a(W.position_set(L), Priority.INFO, Kind.NOTICE)]
        if isinstance(e, (se.DrawOffered, te.DrawOfferMade)):
            return [self._a(W.draw_offered(L, self.colour(e.player)), Priority.INFO, Kind.NOTICE)]
        if isinstance(e, se.DrawDeclined):
            return [self._a(W.draw_declined(L, self.colour(e.player)), Priority.INFO, Kind.NOTICE)]
        if isinstance(e, se.GameOver):
            winners = [self.colour(p) for p in sorted(e.result.winners)]
            return [self._a(W.result(L, winners, e.result.reason), Priority.URGENT, Kind.RESULT)]
        if isinstance(e, se.ActionRefused):
            return [self._a(W.refused(L), Priority.INFO, Kind.NOTICE)]
        if isinstance(e, FlagFell):
            return [self._a(W.flag_fell(L, self.colour(e.side)), Priority.URGENT, Kind.CLOCK)]
        if isinstance(e, GuidanceChanged):
            self._guidance = (e.text, t_ms) if e.text else None
            if not e.text:
                self._guidance_said = ""
            return []
        if isinstance(e, (IllegalMoveShown, PromptRequested)):
            self._guidance_said = e.text
            return [self._a(e.text, Priority.INFO, Kind.PROMPT)] if e.text else []
        if isinstance(e, SetupCompleted):
            return [self._a(W.board_ready(L), Priority.INFO, Kind.GUIDANCE)]
        if isinstance(e, SquareChanged):
            return self._sensor(e)
        return []

    def _abilities(self, effects) -> list[Announcement]:
        out = []
        for effect in effects or ():
            text = W.ability(self.language, tuple(effect), self._name, self.colour)
            if text:
                out.append(self._a(text, Priority.INFO, Kind.ABILITY))
        return out

    # ----- the turn -----------------------------------------------------------------------------------
    def turn(self, view: TurnView) -> list[Announcement]:
        """Say whose turn it is when it changes, and a choice the game waits for when it comes."""
        last, self._last_turn = self._last_turn, view
        if view.over:
            return []
        if view.decision is not None:
            if last is not None and last.decision == view.decision and last.deciders == view.deciders:
                return []
            who = view.deciders[0] if view.deciders else view.turn
            text = W.decision(self.language, view.decision, self.colour(who))
            return [self._a(text, Priority.INFO, Kind.DUEL)] if text else []
        if last is None or last.turn != view.turn or last.decision is not None:
            return [self._a(W.to_move(self.language, self.colour(view.turn)), Priority.CHATTER, Kind.TURN)]
        return []

    # ----- the clock ----------------------------------------------------------------------------------
    def clock(self, times: Sequence[int], running: int | None) -> list[Announcement]:
        """The clock's times now (ms a side) and whose clock runs: a warning as the running
        side's time passes a minute, ten seconds. A warning said is said again only after time
        was added above it."""
        out = []
        for side, ms in enumerate(times):
            armed = self._armed.setdefault(side, set())
            passed = [w for w in WARNINGS_MS if ms <= w and w in armed]
            armed |= {w for w in WARNINGS_MS if ms > w}
            if passed and side == running and ms > 0:
                armed -= set(passed)
                out.append(self._a(W.time_left(self.language, self.colour(side), min(passed)),
                                   Priority.URGENT, Kind.CLOCK))
        return out[-1:]  # passing both at once (a long think): the nearer one

    # ----- sensors and time ---------------------------------------------------------------------------
    def _sensor(self, e: SquareChanged) -> list[Announcement]:
        if e.occupied:
            self._held = None
            return []
        piece = self._piece_at(e.square)
        if piece is None or self.rules is None:
            self._held = None
            return []
        self._held = (e.square, e.t_ms)
        what = self._piece_of(piece.owner, piece_word(self.rules, piece.kind))
        moves = self._moves_from(e.square, piece.owner)
        count = None if moves is None else len(moves)
        return [self._a(W.lifted(self.language, what, self._name(e.square), count), Priority.CHATTER, Kind.PIECE)]

    def _moves_from(self, square: int, owner: int) -> list[int] | None:
        """The squares a piece on ``square`` can go to now, None when it is not its turn."""
        pos = self.position()
        if pos.pending is not None or pos.turn != owner:
            return None
        lit = self._lit
        if lit is not None and lit.get(square) == Meaning.LIFTED:  # the tracker lit its moves
            return sorted(sq for sq, m in lit.items() if m in (Meaning.MOVE, Meaning.CAPTURE))
        return sorted({m.to for m in self.rules.legal_moves(pos) if m.frm == square and m.to >= 0})

    def tick(self, t_ms: int) -> list[Announcement]:
        """Time passed: guidance that has stood long enough, a piece held up long enough."""
        out = []
        if self._guidance is not None:
            text, since = self._guidance
            if t_ms - since >= GUIDANCE_SETTLE_MS and text != self._guidance_said:
                self._guidance_said = text
                out.append(self._a(text, Priority.INFO, Kind.GUIDANCE))
        if self._held is not None:
            square, since = self._held
            if t_ms - since >= HOLD_MS:
                self._held = None
                piece = self._piece_at(square)
                moves = self._moves_from(square, piece.owner) if piece is not None else None
                if moves:
                    out.append(self._a(W.targets(self.language, [self._name(s) for s in moves]),
                                       Priority.CHATTER, Kind.PIECE))
        return out
