"""The board in tournament mode: it follows the game but never helps (FIDE Laws 11.3).

In casual play the tracker (companion.board.tracker) lights the legal moves of a lifted piece,
flags a piece put where it may not go at once, and commits a move as soon as the board shows
one. At a tournament table that would tell a player what is legal. :class:`QuietBoard` has the
tracker's interface (the session and the app use it in its place) and behaves like a DGT board:

* While a player moves it shows nothing but the last move (if the players want it) and the
  terrain. It records what changes (the squares lifted, which ones were *touched*) and never
  looks at the legal moves: what it shows cannot depend on them (tests/test_tournament_quiet.py
  checks this against rules with other legal moves).
* The move is judged when the clock is pressed (Laws 6.2.1: the press completes it):
  :func:`judge_board` compares the board with the occupancy every legal move would leave, as
  the tracker does (a capture onto the victim's square needs that square lifted during the
  move). A legal move, a choice between moves the board cannot tell apart (a promotion piece,
  two captures leaving the same occupancy), or an illegal move (7.5; pressing without a move
  counts as one).
* Guidance back to agreement (after an illegal move, a takeback, an arbiter's change, a Combat
  Chess fight, the set-up) is the real tracker's, in set-up or correction mode, where it only
  says what to put where: the position the game has, never what would be legal.

For the move judged legal, :meth:`QuietBoard.expect` replays the turn's sensor events through a
tracker that accepts only that move (``request_move``), so the tracker's belief of what stands
where follows the game exactly as in casual play (a Combat fight the defender wins is then
guided back like any other).
"""

from __future__ import annotations

from dataclasses import dataclass
from types import MappingProxyType
from typing import Callable, Mapping

from ..board import texts as board_texts
from ..board.backdrop import Backdrop
from ..board.palette import Meaning
from ..board.ports import BoardConnected, BoardDisconnected, OccupancySnapshot, SquareChanged
from ..board.tracker import (
    AnswerDetected, GuidanceChanged, InSync, LedsChanged, MoveDetected, OutOfSync, PromptRequested,
    PromptWithdrawn, ScreenMovesChanged, SetupCompleted, assign_pairs,
)
from ..core.moves import Move
from ..errors import HardwareError, IllegalMoveError
from ..i18n import _

#: Sensor events kept for one turn (a turn with more is replayed from a snapshot instead).
MAX_EVENTS = 4000


# ----- judging the board at the press ----------------------------------------------------------------


@dataclass(frozen=True)
class BoardShowsMove:
    """The board shows a legal move: one, or several the board cannot tell apart (the promotion
    piece; two captures leaving the same squares filled) for the player to choose from."""

    moves: tuple[Move, ...]

    @property
    def needs_choice(self) -> bool:
        return len(self.moves) > 1

    @property
    def is_promotion(self) -> bool:
        return len({(m.frm, m.to, m.capture, m.special) for m in self.moves}) == 1 and all(m.promotion for m in self.moves)


@dataclass(frozen=True)
class BoardShowsIllegal:
    """The board shows no legal move. ``what`` says what it shows in coordinates (``e1-e2``,
    ``e1xe2``, ``no move``, or the squares emptied and filled)."""

    what: str
    lifted: tuple[int, ...]
    placed: tuple[int, ...]

    @property
    def no_move(self) -> bool:
        return not self.lifted and not self.placed


def judge_board(rules, pos, expected: frozenset[int], sensed: frozenset[int],
                touched: frozenset[int]) -> BoardShowsMove | BoardShowsIllegal:
    """What the board shows against the game: the legal moves whose occupancy it shows
    (captures landing on their victim only if the victim's square was lifted), else an illegal
    move described from the squares. Pure: nothing changes."""
    lifted = frozenset(expected - sensed)
    placed = frozenset(sensed - expected)
    if lifted or placed:
        found = []
        for m in dict.fromkeys(rules.legal_moves(pos)):
            if m.frm < 0:
                continue  # a move that moves no piece is never shown by the board
            after = frozenset(rules.occupancy_after(pos, m))
            if frozenset(expected - after) != lifted or frozenset(after - expected) != placed:
                continue
            if m.capture is not None and m.capture in after and m.capture not in touched:
                continue  # a piece held over its victim has not captured it
            found.append(m)
        if found:
            return BoardShowsMove(tuple(found))
    return BoardShowsIllegal(_describe(rules, pos, lifted, placed, touched & sensed & expected),
                             tuple(sorted(lifted)), tuple(sorted(placed)))


def _describe(rules, pos, lifted, placed, touched_back) -> str:
    name = rules.geometry.name_of
    if not lifted and not placed:
        return "no move"
    if len(lifted) == 1 and len(placed) == 1:
        return f"{name(next(iter(lifted)))}-{name(next(iter(placed)))}"
    if len(lifted) == 1 and not placed:
        (frm,) = lifted
        targets = sorted(touched_back - {frm})
        if len(targets) == 1:
            return f"{name(frm)}x{name(targets[0])}"
        return f"{name(frm)} lifted"
    parts = []
    if lifted:
        parts.append("emptied " + " ".join(name(s) for s in sorted(lifted)))
    if placed:
        parts.append("filled " + " ".join(name(s) for s in sorted(placed)))
    return ", ".join(parts)


def _kind_word(rules, kind) -> str:
    words = board_texts.kind_words([k.title or k.name for k in rules.kinds])
    return words.get(kind.title or kind.name, kind.name)


# ----- the quiet board -------------------------------------------------------------------------------


QUIET, GUIDE = "quiet", "guide"
_PASS_THROUGH = (LedsChanged, GuidanceChanged, InSync, OutOfSync, SetupCompleted)


class QuietBoard:
    """The tracker's interface without help; see the module docstring. ``make_tracker`` builds
    the tracker that guides the board back to agreement (``(rules, pos, sensed=, t_ms=)``);
    ``last_move``: light the last move's two squares."""

    def __init__(self, rules, pos, *, make_tracker: Callable, sensed=None, t_ms: int = 0,
                 last_move: bool = True) -> None:
        self.rules = rules
        self.pos = pos
        self._make = make_tracker
        self._backdrop = Backdrop(rules)
        self._size = rules.geometry.size
        self._now = t_ms
        self._E = frozenset(rules.expected_occupancy(pos))
        self._S: set[int] = set(self._E if sensed is None else sensed)
        self._last_move_lit = bool(last_move)
        self._inner = None
        self._phase = QUIET
        self._committing: Move | None = None
        self._restoring = False  # guiding back to the game's position after a change (not the set-up)
        self._last: tuple[int, int] | None = None
        self._shown_leds: Mapping[int, Meaning] | None = None
        self._shown_guidance = GuidanceChanged("")
        self._inner_status = "in-sync"
        self._seen = (pos.depth, pos.hash, pos.pending)
        self._new_base()

    # ----- read-only state (as the tracker's) ----------------------------------------------------
    @property
    def sensed(self) -> frozenset[int]:
        return frozenset(self._S)

    @property
    def expected(self) -> frozenset[int]:
        return self._E

    @property
    def lifted(self) -> frozenset[int]:
        return frozenset(self._E - self._S)

    @property
    def touched(self) -> frozenset[int]:
        """Squares of the game's occupancy emptied at some time since the position last changed."""
        return frozenset(self._T)

    @property
    def in_sync(self) -> bool:
        if self._phase == GUIDE:
            return self._inner.in_sync
        return self._S == self._E

    @property
    def status(self) -> str:
        if self._phase == GUIDE and self._inner_status in ("out-of-sync", "setup"):
            return self._inner_status
        return "in-sync" if self._S == self._E else "moving"

    @property
    def guiding(self) -> bool:
        """Is the board being guided back to agreement (set-up, correction)?"""
        return self._phase == GUIDE and self._inner_status in ("out-of-sync", "setup")

    @property
    def prompt(self):
        return None

    @property
    def guidance(self) -> GuidanceChanged:
        if not self.guiding:
            return GuidanceChanged("")
        return self._restore_guidance() if self._restoring else self._inner.guidance

    @property
    def meanings(self) -> Mapping[int, Meaning]:
        if self.guiding:
            return self._inner.meanings
        return MappingProxyType(self._quiet_meanings())

    @property
    def last_move(self) -> Move | None:
        return None

    @property
    def screen_moves(self) -> ScreenMovesChanged:
        return ScreenMovesChanged(())

    # ----- inputs ---------------------------------------------------------------------------------
    def feed(self, event) -> list:
        if isinstance(event, (BoardConnected, BoardDisconnected)):
            return self.tick(event.t_ms)
        if not isinstance(event, (SquareChanged, OccupancySnapshot)):
            raise TypeError(f"the board takes SquareChanged or OccupancySnapshot events, not {type(event).__name__}")
        t = max(event.t_ms, self._now)
        self._now = t
        if isinstance(event, SquareChanged):
            self._check_square(event.square)
            self._set(event.square, bool(event.occupied))
        else:
            occupied = frozenset(event.occupied)
            for sq in occupied:
                self._check_square(sq)
            for sq in sorted(self._S - occupied):
                self._set(sq, False)
            for sq in sorted(occupied - self._S):
                self._set(sq, True)
        if len(self._events) < MAX_EVENTS:
            self._events.append(event)
        else:
            self._events = [OccupancySnapshot(frozenset(self._S), t)]
        out = self._from_inner(self._inner.feed(event)) if self._inner is not None else []
        return out + self._refresh()

    def tick(self, t_ms: int) -> list:
        self._now = max(t_ms, self._now)
        out = self._from_inner(self._inner.tick(self._now)) if self._inner is not None else []
        return out + self._refresh()

    def choose(self, option) -> list:
        raise IllegalMoveError(_('no question is waiting for an answer'))

    def request_move(self, move: Move) -> list:
        raise IllegalMoveError(_('in tournament mode the board shows no moves (no computer)'))

    def begin_setup(self, target=None) -> list:
        """Guide the board to the game's position (or ``target``): the tracker's set-up."""
        self._inner = self._make(self.rules, self.pos, sensed=frozenset(self._S), t_ms=self._now)
        self._phase = GUIDE
        self._inner_status = "setup"
        self._restoring = False
        return self._from_inner(self._inner.begin_setup(target)) + self._refresh()

    def position_changed(self, pos=None) -> list:
        """The game changed: after a move judged at the press (see :meth:`expect`), the tracker
        that followed it carries on; after anything else (a takeback, an arbiter's change) the
        board is guided to the new position by occupancy."""
        if pos is not None and pos is not self.pos:
            self.pos = pos
            self._inner = None
            self._committing = None
            self._seen = None
        key = (self.pos.depth, self.pos.hash, self.pos.pending)
        if key == self._seen and self._committing is None:
            return self._refresh()  # nothing on the board changed meaning (a draw offer, a result)
        self._seen = key
        self._E = frozenset(self.rules.expected_occupancy(self.pos))
        out: list = []
        if self._committing is not None and self._inner is not None:
            self._committing = None
            out += self._from_inner(self._inner.position_changed())
        elif self._inner is not None and self._phase == GUIDE and self._inner_status != "setup":
            out += self._from_inner(self._inner.position_changed())
        elif self._S != self._E:
            out += self._guide_to_game()
        else:
            self._inner = None
            self._phase = QUIET
            self._new_base()
        return out + self._refresh()

    # ----- the press ---------------------------------------------------------------------------------
    def complete(self, t_ms: int) -> BoardShowsMove | BoardShowsIllegal:
        """Judge the board at the press (nothing changes)."""
        self._now = max(t_ms, self._now)
        return judge_board(self.rules, self.pos, self._E, frozenset(self._S), frozenset(self._T))

    def expect(self, move: Move, t_ms: int) -> None:
        """``move`` was judged legal at the press and the session is about to play it: let a
        tracker that accepts only this move follow the turn's sensor events, so that its
        belief of what stands where follows the game."""
        self._now = max(t_ms, self._now)
        inner = self._make(self.rules, self.pos, sensed=self._base_S, t_ms=self._base_t)
        outputs = list(inner.request_move(move))
        for event in self._events:
            outputs += inner.feed(event)
        # the request settles at the tracker's short settle time: let it pass
        outputs += inner.tick(self._now + 10_000)
        detected = any(isinstance(o, MoveDetected) and o.move == move for o in outputs)
        if detected:
            self._inner = inner
            self._committing = move
            self._phase = GUIDE
            self._inner_status = "in-sync"
        else:  # cannot happen when the judge and the tracker agree; then guide by occupancy
            self._inner = None
            self._committing = None
        if move.frm >= 0:
            self._last = (move.frm, move.to)

    def illegal_completed(self) -> list:
        """An illegal move was completed (7.5): guide the board back to the position before it."""
        return self._guide_to_game() + self._refresh()

    # ----- internals ---------------------------------------------------------------------------------
    def _new_base(self) -> None:
        self._base_S = frozenset(self._S)
        self._base_t = self._now
        self._T: set[int] = set()
        self._events: list = []

    def _set(self, sq: int, occupied: bool) -> None:
        if occupied:
            self._S.add(sq)
        else:
            self._S.discard(sq)
            if sq in self._E:
                self._T.add(sq)

    def _check_square(self, sq: int) -> None:
        if isinstance(sq, bool) or not isinstance(sq, int) or not 0 <= sq < self._size:
            raise HardwareError(_("sensor event for square {sq!r}, off this board of {size} squares").format(sq=sq, size=self._size))

    def _guide_to_game(self) -> list:
        """Set-up guidance from what stands on the board now to the game's position."""
        self._committing = None
        self._inner = self._make(self.rules, self.pos, sensed=frozenset(self._S), t_ms=self._now)
        self._phase = GUIDE
        self._inner_status = "setup"
        self._restoring = True
        return self._from_inner(self._inner.begin_setup())

    def _from_inner(self, outputs) -> list:
        """The guiding tracker's outputs the players may see; the board goes quiet again once
        it shows the game and nothing waits."""
        inner = self._inner
        out: list = []
        for o in outputs or ():
            if isinstance(o, (MoveDetected, AnswerDetected, PromptRequested, PromptWithdrawn, ScreenMovesChanged)):
                continue
            if isinstance(o, SetupCompleted):
                out.append(o)
                continue
            if isinstance(o, _PASS_THROUGH) and inner is not None and inner.status in ("out-of-sync", "setup"):
                out.append(o)
                if isinstance(o, LedsChanged):
                    self._shown_leds = o.meanings
                elif isinstance(o, GuidanceChanged):
                    if self._restoring and inner.status == "setup":
                        o = self._restore_guidance()
                        out[-1] = o
                    self._shown_guidance = o
            elif isinstance(o, (InSync, OutOfSync)):
                out.append(o)
        if inner is not None:
            status = inner.status
            self._inner_status = status if status != "waiting" else self._inner_status
            if status in ("in-sync",) and self.pos.pending is None and self._committing is None:
                self._inner = None
                self._phase = QUIET
                self._inner_status = "in-sync"
                self._new_base()
        return out

    def _restore_guidance(self) -> GuidanceChanged:
        """Back to the game's position in words: a piece put on a wrong square is paired with a
        square to fill (nearest first, as the tracker pairs them) and moved back."""
        E, S = self._E, frozenset(self._S)
        strays, holes = sorted(S - E), sorted(E - S)
        board = self.pos.board
        names = self._backdrop.colours
        geo = self.rules.geometry

        def piece(sq):
            p = board[sq]
            if p is None:
                return board_texts.piece_phrase(None, None)
            return board_texts.piece_phrase(board_texts.colour_name(p.owner, names), _kind_word(self.rules, p.kind))

        def cost(a, b):
            w = geo.width
            dx, dy = abs(a % w - b % w), abs(a // w - b // w)
            return max(dx, dy) * 64 + dx + dy

        pairs = assign_pairs(strays, holes, lambda a, b: True, cost)
        sentences = [board_texts.text("move", piece=piece(b), frm=geo.name_of(a), to=geo.name_of(b)) for a, b in pairs]
        paired_a, paired_b = {a for a, _ in pairs}, {b for _, b in pairs}
        sentences += [board_texts.text("take off", piece=board_texts.piece_phrase(None, None), square=geo.name_of(a))
                      for a in strays if a not in paired_a]
        sentences += [board_texts.text("put back", piece=piece(b), square=geo.name_of(b)) for b in holes if b not in paired_b]
        if len(sentences) > 4:
            sentences = sentences[:3] + [board_texts.more_lit(len(sentences) - 3)]
        return GuidanceChanged(" ".join(sentences), tuple(strays), tuple(holes), tuple(pairs))

    def _quiet_meanings(self) -> dict[int, Meaning]:
        m = self._backdrop.frame()
        if self._last_move_lit and self._last is not None:
            m[self._last[0]] = Meaning.LAST_MOVE_FROM
            m[self._last[1]] = Meaning.LAST_MOVE_TO
        return m

    def _refresh(self) -> list:
        """Quiet phase: the last move and nothing else, no words."""
        if self.guiding:
            return []
        out: list = []
        leds = self._quiet_meanings()
        if self._shown_leds is None or dict(self._shown_leds) != leds:
            self._shown_leds = MappingProxyType(dict(leds))
            out.append(LedsChanged(self._shown_leds))
        if self._shown_guidance.text:
            self._shown_guidance = GuidanceChanged("")
            out.append(self._shown_guidance)
        return out
