"""Move inference from an occupancy-only board, LED guidance and board/game reconciliation.

The board senses *occupancy* (a reed switch per square); it cannot tell a queen from a pawn.
The tracker knows identities because it follows the game: it compares what the switches say
with the occupancy each legal move would leave, and lights the way.

It is *sans-I/O* (the h11 shape): no clock, no threads, no hardware. Sensor events carry their
time; :meth:`Tracker.tick` says that time passed; every call returns the outputs it caused
(frozen dataclasses, past tense). It never changes the game: it reports :class:`MoveDetected`
and the session applies the move with ``rules.play`` and calls :meth:`position_changed`.

How a move is recognised (docs/tracker.md has the long version):

* ``E`` is the occupancy the game expects (``rules.expected_occupancy``), ``S`` what is sensed.
  ``L = E - S`` are squares lifted, ``X = S - E`` squares filled that should be empty.
* Every legal move has a *physical* form: the squares it empties (``removed``) and fills
  (``added``); moves that differ only in the promotion piece share one form.
* The board shows a move when ``(L, X) == (removed, added)`` and, for a capture, the victim's
  square was lifted during this move (``touched``). It is committed when that state has held
  for the settle time (longer when the move could still be extended: a slide along a line, a
  rook move that may be the first half of castling).
* A piece put on a square that no lifted piece may go to is illegal at once.
* When the board shows a finished move *and* the other side has started theirs (a fast
  reply before the settle time ran out), the move is committed at once.
* After any change of the game that the board does not show (a lost fight, a takeback, a new
  game, an explosion, a push-back), the tracker compares its belief of what stands where with
  the game and guides the players square by square until they agree; no move is accepted
  until then.
* Games whose moves change more than the moved piece (Dungeon Chess records ``effects``):
  a move is recognised by its *hand* form (the mover moved, its victim taken) or by its *full*
  form (everything the engine did, e.g. a Troll pushed back); the rest is guided afterwards,
  with the reason in words. Moves that move no piece (a hex, a pass) and answers to a choice
  the engine waits for (the Salamander's extra step) come from the screen (:meth:`choose`) or,
  for an answer that moves a piece, from the board.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from types import MappingProxyType
from typing import Iterable, Mapping, Sequence, Union

from ..core.moves import Answer, Move
from ..errors import HardwareError, IllegalMoveError
from . import effects as fx
from . import texts
from .backdrop import Backdrop
from .palette import Meaning
from .ports import BoardConnected, BoardDisconnected, OccupancySnapshot, SquareChanged

#: What a person sees standing on a square: (owner, piece code).
Look = tuple[int, str]

PLAY, CORRECT, SETUP, WAITING = "play", "correct", "setup", "waiting"

# ----- outputs ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class MoveDetected:
    """The board shows ``move``; ``t_ms`` is when its last piece landed (for clocks)."""

    move: Move
    t_ms: int


@dataclass(frozen=True)
class AnswerDetected:
    """The board (or the screen) answered the choice the engine waits for (``pos.pending``):
    the session plays ``answer`` with ``rules.play`` and calls ``position_changed``."""

    answer: Answer
    t_ms: int


@dataclass(frozen=True)
class ScreenMovesChanged:
    """Moves that move no piece (a Shaman's hex) and so can only be made on the screen:
    offer them as buttons; :meth:`Tracker.choose` takes an option. Empty: offer none."""

    options: tuple[str, ...]
    labels: tuple[str, ...] = ()


@dataclass(frozen=True)
class LedsChanged:
    """The meaning of every lit square (unlisted squares are off). Sent only on change."""

    meanings: Mapping[int, Meaning]


@dataclass(frozen=True)
class GuidanceChanged:
    """What the players should do, in words and as squares. Empty text when nothing is to do."""

    text: str
    remove: tuple[int, ...] = ()
    place: tuple[int, ...] = ()
    pairs: tuple[tuple[int, int], ...] = ()


@dataclass(frozen=True)
class PromptRequested:
    """Ask the screen. ``options`` are what :meth:`Tracker.choose` accepts (piece codes for
    "promotion", move texts for "which-move", answer texts for a choice the engine waits for
    such as "step", "pass" for "pass"); ``labels`` say them in words."""

    kind: str
    options: tuple[str, ...]
    text: str
    labels: tuple[str, ...] = ()


@dataclass(frozen=True)
class PromptWithdrawn:
    """The question no longer applies (the pieces moved on); close it."""

    kind: str


@dataclass(frozen=True)
class IllegalMoveShown:
    """Pieces stand on ``squares`` where they may not go; ``origins`` light the way back."""

    squares: tuple[int, ...]
    origins: tuple[int, ...]
    text: str


@dataclass(frozen=True)
class OutOfSync:
    """The board needs fixing before play goes on (guidance says how)."""

    remove: tuple[int, ...]
    place: tuple[int, ...]
    t_ms: int


@dataclass(frozen=True)
class InSync:
    """The board shows the game again."""

    t_ms: int


@dataclass(frozen=True)
class SetupCompleted:
    t_ms: int


Output = Union[MoveDetected, AnswerDetected, ScreenMovesChanged, LedsChanged, GuidanceChanged,
               PromptRequested, PromptWithdrawn, IllegalMoveShown, OutOfSync, InSync, SetupCompleted]

#: What the tracker reports as done: a move, or an answer to a pending decision.
Action = Union[Move, Answer]


# ----- the physical form of a move -------------------------------------------------------------


@dataclass(frozen=True)
class PhysicalMove:
    """What a move does to the occupancy; moves differing only in promotion share one.

    ``moves`` may hold an :class:`Answer` instead (a pending choice answered on the board).
    ``form`` is "hand" (what a hand does: the mover moves, its victim goes) or "full" (every
    effect done too, e.g. a Troll pushed back while the attacker stays). ``optional``: squares
    the players may already have emptied with the hand form (pieces an explosion destroys)."""

    moves: tuple[Action, ...]
    removed: frozenset[int]  # squares that end empty
    added: frozenset[int]  # empty squares that end filled
    needs_touch: int | None  # a capture whose victim's square ends filled: it must be lifted
    movers: frozenset[int]  # squares whose pieces move (the mover; castling's rook too)
    relocations: tuple[tuple[int, int], ...]  # (from, to) of each moving piece
    victims: frozenset[int]  # squares of captured pieces
    settle: str = "normal"  # "normal" | "slow" (could be extended) | "castle" (half of castling)
    form: str = "hand"
    optional: frozenset[int] = frozenset()
    effects: tuple = ()  # the engine's effects of the move (see companion/board/effects.py)

    @property
    def frm(self) -> int:
        m = self.moves[0]
        return m.frm if isinstance(m, Move) else self.relocations[0][0]

    @property
    def to(self) -> int:
        m = self.moves[0]
        return m.to if isinstance(m, Move) else self.relocations[0][1]

    @property
    def has_effects(self) -> bool:
        """Does the game change more squares than this form shows (guided afterwards)?"""
        return self.form == "full" or bool(self.optional) or fx.has_board_effects(self.effects)

    @property
    def key(self) -> tuple[frozenset[int], frozenset[int]]:
        return self.removed, self.added

    @property
    def footprint(self) -> frozenset[int]:
        return self.removed | self.added | self.victims


@dataclass
class _Candidate:
    pms: list[PhysicalMove]
    key: tuple[frozenset[int], frozenset[int]]
    since: int
    settle_ms: int

    @property
    def moves(self) -> list[Action]:
        return [m for pm in self.pms for m in pm.moves]


@dataclass
class _View:
    """What should be shown now (compared with what was shown to emit changes)."""

    meanings: dict[int, Meaning] = field(default_factory=dict)
    guidance: GuidanceChanged = GuidanceChanged("")
    status: str = "in-sync"  # in-sync | moving | out-of-sync | setup
    illegal: tuple[int, ...] = ()
    origins: tuple[int, ...] = ()
    screen: ScreenMovesChanged = ScreenMovesChanged(())


@dataclass(frozen=True)
class _Done:
    """A committed action in the tracker's history: the position depth after it and the two
    squares to light as the last move (None: nothing moved, e.g. a pass or "stay")."""

    action: Action
    depth: int
    squares: tuple[int, int] | None


# ----- the tracker -------------------------------------------------------------------------------


class Tracker:
    """Follows the physical board against the game; see the module docstring."""

    def __init__(self, rules, pos, *, settle_ms: int = 150, slow_settle_ms: int = 600,
                 castle_settle_ms: int = 1500, illegal_ms: int = 0,
                 sensed: Iterable[int] | None = None, player_names: Sequence[str] | None = None,
                 t_ms: int = 0, turn_colours: bool | None = None, last_move_ms: int = 3000):
        """``rules``/``pos``: the game (read only). Settle times in ms (see the module and
        docs/tracker.md). ``illegal_ms``: how long a wrong placement may stand before it is
        flagged (0: at once). ``sensed``: the occupancy at start if known (default: the board
        shows the game; the sensor port's first snapshot corrects it). ``player_names``:
        colour words per player for the guidance (default: the map's seat colours, or white,
        black, red, blue). ``turn_colours``: when nothing else is lit, light the pieces of the
        side to move in its player colour (default: on for games on a map of seats, such as
        Dungeon Chess; off for chess); the last move stays lit for ``last_move_ms`` first."""
        for name, value in (("settle_ms", settle_ms), ("slow_settle_ms", slow_settle_ms),
                            ("castle_settle_ms", castle_settle_ms), ("illegal_ms", illegal_ms),
                            ("last_move_ms", last_move_ms)):
            if isinstance(value, bool) or not isinstance(value, int) or value < 0:
                raise ValueError(f"{name} must be a whole number of milliseconds (0 or more), got {value!r}")
        self.rules = rules
        self.pos = pos
        self._geo = rules.geometry
        self._size = rules.geometry.size
        self._settles = {"normal": settle_ms, "slow": max(settle_ms, slow_settle_ms),
                         "castle": max(settle_ms, castle_settle_ms)}
        self._settle_ms = settle_ms
        self._illegal_ms = illegal_ms
        self._backdrop = Backdrop(rules)
        self._names = tuple(player_names) if player_names else self._backdrop.colours
        words = texts.kind_words([k.title or k.name for k in rules.kinds])
        self._words = {k.code: words[k.title or k.name] for k in rules.kinds}
        # games that record effects (Dungeon Chess): moves have a hand and a full form
        self._effectful = callable(getattr(rules, "describe_effects", None))
        has_seats = bool(getattr(getattr(rules, "board_map", None), "seats", None))
        self._turn_colours = has_seats if turn_colours is None else bool(turn_colours)
        self._last_move_ms = last_move_ms
        self._moved_at: int | None = None  # when the game last advanced (for last_move_ms)
        self._now = t_ms
        self._mode = PLAY
        self._history: list[_Done] = []
        self._committed: _Done | None = None
        self._request: PhysicalMove | None = None  # the requested move as shown (its full form)
        self._request_forms: list[PhysicalMove] = []  # every form it may be made in
        self._reasons: dict[int, fx.Reason] = {}
        self._candidate: _Candidate | None = None
        self._prompt: PromptRequested | None = None
        self._prompt_pms: list[PhysicalMove] = []
        self._choice: Action | None = None
        self._illegal_since: int | None = None
        self._swaps: set[int] = set()
        self._vacated: set[int] = set()
        self._setup_target: frozenset[int] | None = None
        self._changed_at: dict[int, int] = {}
        self._vacated_at: dict[int, int] = {}
        self._landed: int | None = None  # when the last committed move's last piece landed
        self._load_position()
        self._board: dict[int, Look | None] = dict(self._target)
        self._S: set[int] = set(self._E if sensed is None else sensed)
        self._L: set[int] = set()
        self._X: set[int] = set()
        self._T: set[int] = set()
        self._seen: dict[tuple, int] = {}  # moves the board showed exactly since it was last in step: when
        self._compare_board()
        self._shown = _View(meanings={}, guidance=GuidanceChanged(""), status="in-sync")

    # ----- read-only state for the UI ------------------------------------------------------------
    @property
    def sensed(self) -> frozenset[int]:
        return frozenset(self._S)

    @property
    def expected(self) -> frozenset[int]:
        return self._E

    @property
    def lifted(self) -> frozenset[int]:
        """Squares that should hold a piece and are empty now."""
        return frozenset(self._E - self._S)

    @property
    def in_sync(self) -> bool:
        """The sensed board equals the game's and nothing needs fixing."""
        return self._mode in (PLAY, WAITING) and self._S == self._E

    @property
    def status(self) -> str:
        """in-sync, moving (a move in progress), out-of-sync (needs fixing), setup, waiting."""
        return WAITING if self._mode == WAITING else self._view(self._now).status

    @property
    def prompt(self) -> PromptRequested | None:
        return self._prompt

    @property
    def guidance(self) -> GuidanceChanged:
        return self._view(self._now).guidance

    @property
    def meanings(self) -> Mapping[int, Meaning]:
        return MappingProxyType(self._view(self._now).meanings)

    @property
    def last_move(self) -> Move | None:
        """The last move the tracker saw made (answers to a pending choice are not moves)."""
        return next((d.action for d in reversed(self._history) if isinstance(d.action, Move)), None)

    @property
    def screen_moves(self) -> ScreenMovesChanged:
        """The moves that can only be made on the screen now (see ScreenMovesChanged)."""
        return self._view(self._now).screen

    # ----- inputs -------------------------------------------------------------------------------
    def feed(self, event) -> list[Output]:
        """A sensor event (SquareChanged or OccupancySnapshot; connection events only pass time)."""
        if isinstance(event, (BoardConnected, BoardDisconnected)):
            return self.tick(event.t_ms)
        if not isinstance(event, (SquareChanged, OccupancySnapshot)):
            raise TypeError(f"the tracker takes SquareChanged or OccupancySnapshot events, not {type(event).__name__}")
        t = max(event.t_ms, self._now)
        out = self._advance(t)
        changed = False
        if isinstance(event, SquareChanged):
            self._check_square(event.square)
            changed = self._set_square(event.square, bool(event.occupied), t)
        else:
            occupied = frozenset(event.occupied)
            for sq in occupied:
                self._check_square(sq)
            for sq in sorted(self._S - occupied):
                changed |= self._set_square(sq, False, t)
            for sq in sorted(occupied - self._S):
                changed |= self._set_square(sq, True, t)
        if changed:
            out += self._infer(t)
        return out + self._refresh(t)

    def tick(self, t_ms: int) -> list[Output]:
        """Time passed: settle timers may commit a move or open a question."""
        t = max(t_ms, self._now)
        return self._advance(t) + self._refresh(t)

    def choose(self, option: str) -> list[Output]:
        """The screen answered the open question (a piece code, a move text, an answer text
        such as "stay" or a square, "pass"), or chose one of the :attr:`screen_moves` (a hex)."""
        option = str(option).strip()
        if self._prompt is not None and self._prompt_pms == [] and option in self._standing_actions:
            self._prompt = None  # answered: the screen closes it
            return self._screen_action(self._standing_actions[option])
        if (self._prompt is None or option not in self._prompt.options) and option in self._screen_actions:
            if not self.in_sync:
                raise IllegalMoveError(f"{option!r} must wait: the board does not show the game yet "
                                       f"({self.guidance.text or 'put the lifted pieces back'})")
            return self._withdraw_prompt() + self._screen_action(self._screen_actions[option])
        if self._prompt is None:
            raise IllegalMoveError("no question is waiting for an answer")
        chosen = None
        for m in (m for pm in self._prompt_pms for m in pm.moves):
            if self._prompt.kind == "promotion":
                if m.promotion and option.upper() == m.promotion.upper():
                    chosen = m
            elif option == self._action_text(m):
                chosen = m
        if chosen is None:
            raise IllegalMoveError(f"{option!r} is not one of the choices ({', '.join(self._prompt.options)})")
        self._choice = chosen
        self._prompt = None  # answered: the screen closes it; the choice waits for the board
        out: list[Output] = []
        pm = next(p for p in self._prompt_pms if chosen in p.moves)
        if self._explains(pm, exact=False):
            out += self._commit(pm, chosen)
        return out + self._refresh(self._now)

    def position_changed(self, pos=None) -> list[Output]:
        """The game changed outside the tracker (a move applied, a fight resolved, a takeback,
        a new game: pass the new position object if it is a different one)."""
        out: list[Output] = []
        new_game = pos is not None and pos is not self.pos
        if new_game:
            self.pos = pos
            self._history.clear()
            self._committed = None
        depth = self.pos.depth
        advanced = not new_game and depth > self._depth_seen
        while self._history and self._history[-1].depth > depth:
            self._history.pop()
        if self._committed is not None and depth > self._committed.depth:
            self._history.append(replace(self._committed, depth=depth))
        self._committed = None
        self._request = None
        self._request_forms = []
        # the reasons behind what the board must now change: only when the game went forward
        # (after a takeback the engine's record of effects is an older turn's)
        self._reasons = {}
        if advanced and self._effectful:
            last = self._history[-1] if self._history else None
            move = last.action if last is not None and last.depth == depth and isinstance(last.action, Move) else None
            self._reasons = self._effect_reasons(self.pos.var("effects", ()), move)
        if advanced:
            self._moved_at = self._now
        out += self._withdraw_prompt(keep_standing=True)
        if self._mode == CORRECT:
            # half-fixed board: what stands where now, as far as the tracker can tell
            self._board = {s: (self._board.get(s) if s not in self._vacated else self._target.get(s))
                           for s in self._S}
        self._load_position()
        if self._mode != SETUP:
            self._compare_board()
        if self._mode == PLAY and (self._L or self._X):
            out += self._infer(self._now)  # the next move may already be on the board
        return out + self._refresh(self._now)

    def request_move(self, move: Move) -> list[Output]:
        """A move someone else chose (the computer, a remote player) for a person to carry out.
        It is lit; only this move is accepted (in its hand or its full form). A move that
        moves no piece (a hex, a pass) has nothing to carry out: it is reported at once."""
        if move not in self._legal:
            raise IllegalMoveError(f"{self.rules.move_text(self.pos, move)} is not a legal move here")
        if move in self._screen_actions.values() or move in self._standing_actions.values():
            return self._withdraw_prompt() + self._screen_action(move)
        # the person carries out what they are told: the short settle time is enough
        self._request_forms = [replace(pm, moves=(move,), settle="normal") for pm in self._pms if move in pm.moves]
        self._request = next((pm for pm in self._request_forms if pm.form == "full"), self._request_forms[0])
        self._candidate = None
        out = self._withdraw_prompt()
        if self._mode == PLAY:
            out += self._infer(self._now)
        return out + self._refresh(self._now)

    def begin_setup(self, target: Iterable[int] | None = None) -> list[Output]:
        """Guide the players from whatever stands on the board to ``target`` (default: what the
        game expects, e.g. the start position of a new game)."""
        self._setup_target = frozenset(target) if target is not None else None
        if self._setup_target is not None:
            for sq in self._setup_target:
                self._check_square(sq)
        self._mode = SETUP
        self._candidate = None
        self._request = None
        self._request_forms = []
        out = self._withdraw_prompt()
        out += self._check_setup_done(self._now)
        return out + self._refresh(self._now)

    # ----- the game, read ---------------------------------------------------------------------
    def _load_position(self) -> None:
        rules, pos = self.rules, self.pos
        self._E = frozenset(rules.expected_occupancy(pos))
        settled = self._E == pos.occupied()
        board = pos.board
        self._target = {s: (_look(board[s]) if settled and board[s] is not None else None) for s in self._E}
        self._depth_seen = pos.depth
        # a game that is over (checkmate, a draw by rule, a fallen King) accepts no move
        over = rules.outcome(pos) is not None
        self._legal = rules.legal_moves(pos) if not over else []
        # a choice the engine waits for (not dice): its answers, made on the board or the screen
        answers = rules.answers(pos) if pos.pending is not None and not pos.pending.chance and not over else []
        self._replies: dict[Move, list] = {}
        self._screen_actions: dict[str, Action] = {}  # option -> a move that moves no piece
        self._standing_actions: dict[str, Action] = {}  # option -> answer of the standing prompt
        if self._effectful:
            self._pms = self._effect_forms(self._legal)
        else:
            self._pms = self._physical_moves(self._legal)
        answer_pms = self._answer_forms(answers) if answers else []
        self._answer_pms = answer_pms
        self._pms = self._pms + answer_pms
        self._partial = [pm for pm in self._pms if pm.optional]
        self._standing = self._standing_prompt(answers)
        self._index: dict[tuple, list[PhysicalMove]] = {}
        self._by_mover: dict[int, list[PhysicalMove]] = {}
        self._by_added: dict[int, list[PhysicalMove]] = {}
        self._by_square: dict[int, list[PhysicalMove]] = {}
        self._capture_targets: dict[int, set[int]] = {}
        for pm in self._pms:
            self._index.setdefault(pm.key, []).append(pm)
            for s in pm.movers:
                self._by_mover.setdefault(s, []).append(pm)
            for s in pm.added:
                self._by_added.setdefault(s, []).append(pm)
            for s in pm.removed | pm.victims:
                self._by_square.setdefault(s, []).append(pm)
            for v in pm.victims:
                self._capture_targets.setdefault(pm.frm, set()).add(v)
        self._check_squares: tuple[int, ...] = ()
        if pos.pending is None and pos.royals[pos.turn] and rules.in_check(pos):
            self._check_squares = tuple(sorted(pos.royals[pos.turn]))

    def _physical_moves(self, moves: list[Move]) -> list[PhysicalMove]:
        groups: dict[tuple, list[Move]] = {}
        for m in dict.fromkeys(moves):  # a move the vocabulary finds twice (leap and ride) counts once
            groups.setdefault((m.frm, m.to, m.capture, m.special), []).append(m)
        base = self._E
        out = []
        for (frm, to, capture, special), ms in groups.items():
            after = self._occupancy_after(ms[0])
            removed = frozenset(base - after)
            added = frozenset(after - base)
            needs_touch = capture if capture is not None and capture in after else None
            victims = frozenset({capture}) if capture is not None else frozenset()
            relocations = [(frm, to)]
            others_from = sorted(removed - {frm} - victims)
            others_to = sorted(added - {to})
            relocations += list(zip(others_from, others_to))
            movers = frozenset(a for a, _ in relocations)
            out.append(PhysicalMove(tuple(ms), removed, added, needs_touch, movers, tuple(relocations), victims))
        by_frm: dict[int, list[PhysicalMove]] = {}
        for pm in out:
            by_frm.setdefault(pm.frm, []).append(pm)
        multi = [pm for pm in out if len(pm.relocations) > 1]
        return [self._with_settle(pm, by_frm[pm.frm], multi) for pm in out]

    def _occupancy_after(self, move: Move) -> frozenset[int]:
        """The occupancy right after ``move`` is made by hand (the engine's answer)."""
        return frozenset(self.rules.occupancy_after(self.pos, move))

    def _effect_forms(self, moves: list[Move]) -> list[PhysicalMove]:
        """Physical forms for a game that records effects (Dungeon Chess).

        Each move is played on the position and taken back to see everything it does. A move
        that changes no square (a hex, a pass) is a screen move. Otherwise its *hand* form is
        what a hand does (the mover goes from ``frm`` to ``to``, the captured piece goes); if
        the engine does more, the extra squares are either ``optional`` in the hand form
        (pieces that only disappear: an explosion, an elimination; the players may take them
        off at once or when told) or the move also gets a *full* form (a Troll pushed back while
        the attacker stays), which is accepted as well."""
        rules, pos = self.rules, self.pos
        base = self._E
        uids = self._uids()
        groups: dict[tuple, list[Move]] = {}
        for m in dict.fromkeys(moves):  # a move the vocabulary finds twice (leap and ride) counts once
            groups.setdefault((m.frm, m.to, m.capture, m.special), []).append(m)
        hands: list[PhysicalMove] = []
        fulls: list[PhysicalMove] = []
        for (frm, to, capture, _special), ms in groups.items():
            move = ms[0]
            hand_after = (base - {frm} - ({capture} if capture is not None else set())) | {to}
            full_moves = None
            rules.apply(pos, move)
            try:
                after = frozenset(rules.expected_occupancy(pos))
                effects = tuple(pos.var("effects", ()) or ())
                if after != base and after != hand_after:
                    full_moves = _relocations(uids, pos.board, after)
            finally:
                rules.undo(pos)
            if after == base:
                self._screen_actions[self._action_text(move)] = move
                continue
            victims = frozenset({capture}) if capture is not None else frozenset()
            hand = PhysicalMove(tuple(ms), frozenset(base - hand_after), frozenset(hand_after - base),
                                capture if capture is not None and capture in hand_after else None,
                                frozenset({frm}), ((frm, to),), victims, effects=effects)
            if after != hand_after:
                full_removed, full_added = frozenset(base - after), frozenset(after - base)
                if full_added == hand.added and hand.removed <= full_removed:
                    hand = replace(hand, optional=full_removed - hand.removed)
                else:
                    # e.g. the Troll pushed back, the attacker staying: nothing to touch (the
                    # attacker's lift and return would read as "the board shows the game")
                    relocations, gone = full_moves
                    moved = any(a == frm for a, _ in relocations)
                    touch = capture if moved and capture is not None and capture in after else None
                    fulls.append(PhysicalMove(tuple(ms), full_removed, full_added, touch,
                                              frozenset(a for a, _ in relocations), relocations, gone,
                                              form="full", effects=effects))
            hands.append(hand)
        by_frm: dict[int, list[PhysicalMove]] = {}
        for pm in hands:
            by_frm.setdefault(pm.frm, []).append(pm)
        return [self._with_settle(pm, by_frm[pm.frm], []) for pm in hands] + fulls

    def _answer_forms(self, answers: list[Answer]) -> list[PhysicalMove]:
        """Forms of the answers to a pending choice that move a piece (the Salamander's step);
        the others ("stay") are options of the standing prompt only."""
        rules, pos = self.rules, self.pos
        base = self._E
        uids = self._uids()
        out = []
        for a in answers:
            rules.apply(pos, a)
            try:
                after = frozenset(rules.expected_occupancy(pos))
                effects = tuple(pos.var("effects", ()) or ())
                moved = _relocations(uids, pos.board, after) if after != base else None
            finally:
                rules.undo(pos)
            self._standing_actions[self._action_text(a)] = a
            if moved is None:
                continue
            relocations, gone = moved
            if not relocations:
                continue
            out.append(PhysicalMove((a,), frozenset(base - after), frozenset(after - base), None,
                                    frozenset(x for x, _ in relocations), relocations, gone, effects=effects))
        return out

    def _uids(self) -> dict[int, int]:
        """uid -> square of every piece the board should show now."""
        board = self.pos.board
        return {board[s].uid: s for s in self._E if board[s] is not None}

    def _standing_prompt(self, answers: list[Answer]) -> PromptRequested | None:
        """The question that stays open while the position waits for it: a pending choice
        (hit-and-run: "stay" or a square) or a forced pass."""
        pos = self.pos
        if answers:
            d = pos.pending
            options = tuple(self._standing_actions)
            square = d.get("square")
            look = _look(pos.board[square]) if isinstance(square, int) and pos.board[square] is not None else None
            if d.kind == "step":
                text = texts.text("step question", piece=self._piece(look))
                labels = tuple(texts.text("step stay", square=self._name(square)) if a.value == "stay"
                               else texts.text("step to", square=self._name(a.value))
                               for a in self._standing_actions.values())
            else:
                text = texts.text("decision question")
                labels = options
            return PromptRequested(d.kind, options, text, labels)
        if len(self._legal) == 1 and self._legal[0].frm < 0 and self._legal[0].special == "pass":
            # the only legal move: asked as a question rather than offered as a screen move
            move = self._legal[0]
            self._screen_actions.pop(self._action_text(move), None)
            self._standing_actions[self._action_text(move)] = move
            return PromptRequested("pass", (self._action_text(move),),
                                   texts.text("pass question", colour=self._colour(pos.turn)),
                                   (texts.text("pass label"),))
        return None

    def _with_settle(self, pm: PhysicalMove, same_piece: list[PhysicalMove],
                     multi: list[PhysicalMove]) -> PhysicalMove:
        """How long the board must show ``pm`` before it counts: longer if the same hand could
        still be on its way to another legal move (PicoChess's rule: only moves that can still
        be extended wait). ``same_piece``: the moves from the same square; ``multi``: moves of
        more than one piece (castling)."""
        settle = "normal"
        for other in multi:
            if other is not pm and pm.removed <= other.removed and pm.added <= other.added:
                # a part of castling: the rook moved first waits long (the hand goes on to the
                # king); the king's first step waits like a slide
                if pm.relocations[0] in other.relocations[1:]:
                    settle = "castle"
                    break
                settle = "slow"
        if settle == "normal":
            for other in same_piece:
                if other is not pm and self._strictly_between(pm.frm, pm.to, other.to):
                    settle = "slow"
                    break
        if settle == "normal":
            return pm
        return PhysicalMove(pm.moves, pm.removed, pm.added, pm.needs_touch, pm.movers,
                            pm.relocations, pm.victims, settle)

    def _strictly_between(self, a: int, b: int, c: int) -> bool:
        """Is ``b`` on the straight line from ``a`` to ``c``, before ``c``?"""
        w = self._geo.width
        dx1, dy1 = b % w - a % w, b // w - a // w
        dx2, dy2 = c % w - a % w, c // w - a // w
        if not (dx2 == 0 or dy2 == 0 or abs(dx2) == abs(dy2)):
            return False
        if dx1 * dy2 != dy1 * dx2 or dx1 * dx2 < 0 or dy1 * dy2 < 0:
            return False
        return max(abs(dx1), abs(dy1)) < max(abs(dx2), abs(dy2))

    # ----- sensing ------------------------------------------------------------------------------
    def _check_square(self, sq: int) -> None:
        if isinstance(sq, bool) or not isinstance(sq, int) or not 0 <= sq < self._size:
            raise HardwareError(f"sensor event for square {sq!r}, off this board of {self._size} squares")

    def _set_square(self, sq: int, occupied: bool, t: int) -> bool:
        if (sq in self._S) == occupied:
            return False
        self._changed_at[sq] = t
        if occupied:
            self._S.add(sq)
        else:
            self._S.discard(sq)
            self._vacated_at[sq] = t
            self._vacated.add(sq)
            self._swaps.discard(sq)
            if sq in self._E:
                self._T.add(sq)
        self._recount()
        return True

    def _recount(self) -> None:
        self._L = set(self._E - self._S)
        self._X = set(self._S - self._E)

    # ----- inference ------------------------------------------------------------------------------
    def _pool(self) -> list[PhysicalMove]:
        return self._request_forms if self._request is not None else self._pms

    def _shows_partly(self, pm: PhysicalMove) -> bool:
        """Does the board show ``pm``'s hand form with some of its ``optional`` squares already
        emptied (a player taking off the pieces an explosion destroys right away)?"""
        L, X = self._L, self._X
        if frozenset(X) != pm.added or not pm.removed <= L or not L <= pm.removed | pm.optional:
            return False
        t = pm.needs_touch
        return t is None or t in self._T

    def _explains(self, pm: PhysicalMove, exact: bool) -> bool:
        """Does the board show ``pm`` done (exactly, or with other pieces lifted besides)?"""
        L, X = self._L, self._X
        if exact:
            if (pm.removed, pm.added) != (frozenset(L), frozenset(X)):
                return False
        elif not (pm.removed <= L and pm.added <= X):
            return False
        t = pm.needs_touch
        return t is None or (t in self._T and t in self._S)

    def _consistent(self, pm: PhysicalMove) -> bool:
        """Could the board be on its way to ``pm`` (or show it)?"""
        L, X = self._L, self._X
        if not L and not X:
            return False
        if not X <= pm.added:
            return False
        allowed = pm.removed | pm.victims | pm.optional
        if not L <= allowed:
            return False
        return not X or bool(pm.movers & L)

    def _infer(self, t: int) -> list[Output]:
        out: list[Output] = []
        if self._mode == CORRECT:
            if self._S == self._E and not self._swaps:
                self._enter_play_from_correction()
            return out
        if self._mode == SETUP:
            return self._check_setup_done(t)
        if self._mode != PLAY:
            return out
        if self._prompt_pms and not any(
                self._consistent(pm) or self._explains(pm, exact=False) for pm in self._prompt_pms):
            out += self._withdraw_prompt()  # the pieces moved on: the question (or answer) lapses
        if not self._L and not self._X:
            self._T.clear()
            self._seen.clear()
            self._candidate = None
            self._illegal_since = None
            return out
        key = (frozenset(self._L), frozenset(self._X))
        shown = [pm for pm in self._pool() if pm.key == key] if self._request is not None else self._index.get(key, ())
        matches = [pm for pm in shown if pm.needs_touch is None or pm.needs_touch in self._T]
        if not matches:
            partial = [pm for pm in self._pool() if pm.optional] if self._request is not None else self._partial
            matches = [pm for pm in partial if self._shows_partly(pm)]
        if matches:
            for pm in matches:
                self._seen[pm.key] = t
            settle = self._settle_ms if self._request is not None else max(self._settles[pm.settle] for pm in matches)
            self._candidate = _Candidate(matches, key, t, settle)
            self._illegal_since = None
            return out
        self._candidate = None
        out += self._early_commit(t)
        if self._mode == PLAY:
            self._note_illegal(t)
        return out

    def _early_commit(self, t: int) -> list[Output]:
        """The board showed a finished move and now also the start of the next player's move:
        commit it at once rather than after the settle time (fast play).

        Guarded against slides, brushes and changes of mind: the move must have been shown on
        its own before, and its piece must still stand where it went; what else changed, seen
        from the board after the move, must be the start of a legal reply (a piece of the next
        player lifted, a victim lifted, a piece put where a lifted one may go, also on the
        square the move just left); and an
        enemy piece the mover could capture, lifted while nothing was put down, may mean the
        player is changing their move into that capture: no commit until more happens."""
        found = []
        S = self._S
        for pm in self._pool():
            if pm.key not in self._seen or pm.has_effects or not isinstance(pm.moves[0], Move):
                continue  # a move with effects is guided afterwards: never rushed
            if len(pm.moves) != 1 and self._choice not in pm.moves:
                continue
            # the moved piece(s) still stand where they went (else the mover may be changing
            # their mind); a square the move emptied may be filled again by the reply
            if not pm.added <= S:
                continue
            t = pm.needs_touch
            if t is not None and not (t in self._T and t in S):
                continue
            after = (self._E - pm.removed) | pm.added
            rest_l = frozenset(after - S)
            rest_x = frozenset(S - after)
            if not rest_l:
                continue
            if not rest_x and rest_l & self._capture_targets.get(pm.frm, set()):
                continue
            move = pm.moves[0] if len(pm.moves) == 1 else self._choice
            if not self._is_reply_start(move, rest_l, rest_x):
                continue
            found.append((pm, move))
        if len(found) != 1:
            return []
        return self._commit(*found[0])

    def _is_reply_start(self, move: Move, lifted: frozenset[int], placed: frozenset[int]) -> bool:
        """After ``move``, is (lifted, placed) the start of some legal reply?"""
        for removed, added, victims in self._reply_shapes(move):
            if lifted <= removed | victims and placed <= added and (not placed or lifted & (removed - victims)):
                return True
        return False

    def _reply_shapes(self, move: Move) -> list[tuple[frozenset[int], frozenset[int], frozenset[int]]]:
        """The physical shape (emptied, filled, victims) of every legal reply to ``move``,
        worked out on a scratch copy; cached until the game changes. Only reached when a
        finished move and something more show at once."""
        cached = self._replies.get(move)
        if cached is not None:
            return cached
        scratch = self.pos.copy()
        self.rules.apply(scratch, move)
        shapes = []
        if scratch.pending is None and self.rules.outcome(scratch) is None:
            before = frozenset(self.rules.expected_occupancy(scratch))
            for m2 in self.rules.legal_moves(scratch):
                if m2.special == "castle":
                    self.rules.apply(scratch, m2)
                    after = frozenset(self.rules.expected_occupancy(scratch))
                    self.rules.undo(scratch)
                else:
                    after = frozenset(self.rules.occupancy_after(scratch, m2))
                victims = frozenset({m2.capture}) if m2.capture is not None else frozenset()
                shapes.append((before - after, after - before, victims))
        self._replies[move] = shapes
        return shapes

    def _owner(self, sq: int) -> int | None:
        look = self._board.get(sq)
        return None if look is None else look[0]

    def _advance(self, t: int) -> list[Output]:
        self._now = t
        c = self._candidate
        if self._mode != PLAY or c is None or t - c.since < c.settle_ms:
            return []
        moves = c.moves
        if self._choice in moves:
            pm = next(pm for pm in c.pms if self._choice in pm.moves)
            return self._commit(pm, self._choice)
        if len(moves) == 1:
            return self._commit(c.pms[0], moves[0])
        if self._prompt_pms == c.pms:
            return []  # already asked (and maybe answered for another promotion piece)
        return self._withdraw_prompt() + self._open_prompt(c.pms)

    def _commit(self, pm: PhysicalMove, move: Action) -> list[Output]:
        # when the board last showed the move by itself (a fast reply may have touched its
        # squares since); else when its last square changed
        landed = self._seen.get(pm.key)
        if landed is None:
            landed = max((self._changed_at[s] for s in pm.footprint | (pm.optional & self._L)
                          if s in self._changed_at), default=self._now)
        board = dict(self._board)
        moving = [(a, b, board.get(a)) for a, b in pm.relocations]
        for s in pm.removed | pm.victims | (pm.optional & self._L):
            board.pop(s, None)
        for _, b, look in moving:
            board[b] = look
        if isinstance(move, Move) and move.promotion and board.get(move.to) is not None:
            board[move.to] = (board[move.to][0], move.promotion)
        self._board = board
        self._landed = landed
        return self._done(move, landed, pm.relocations[0] if isinstance(move, Answer) else None)

    def _done(self, action: Action, t_ms: int, squares: tuple[int, int] | None = None) -> list[Output]:
        """Hand ``action`` to the session and wait for the game (the contract: the session
        applies it and calls position_changed). ``squares``: what to light as the last move
        (default: a move's from and to)."""
        if squares is None and isinstance(action, Move) and action.frm >= 0 and action.to >= 0:
            squares = (action.frm, action.to)
        self._committed = _Done(action, self.pos.depth, squares)
        self._mode = WAITING
        self._candidate = None
        self._choice = None
        # a question still open was not answered (an answered one is closed already): the
        # board answered it (the Salamander stepped) or made it moot
        out: list[Output] = [PromptWithdrawn(self._prompt.kind)] if self._prompt is not None else []
        self._prompt = None
        self._prompt_pms = []
        self._request = None
        self._request_forms = []
        self._illegal_since = None
        return out + [MoveDetected(action, t_ms) if isinstance(action, Move) else AnswerDetected(action, t_ms)]

    def _screen_action(self, action: Action) -> list[Output]:
        """A move or answer made on the screen (a hex, a pass, "stay", a step chosen by
        tapping): reported at once; the board is guided afterwards if it must change."""
        return self._done(action, self._now) + self._refresh(self._now)

    # ----- questions ----------------------------------------------------------------------------------
    def _open_prompt(self, pms: list[PhysicalMove]) -> list[Output]:
        moves = [m for pm in pms for m in pm.moves]
        if len(pms) == 1 and all(m.promotion for m in moves):
            pm = pms[0]
            owner = self._owner(pm.frm)
            kinds = [self._kind_name(m.promotion) for m in moves]
            prompt = PromptRequested(
                "promotion", tuple(m.promotion for m in moves),
                texts.text("promotion question", colour=self._colour(owner), square=self._name(pm.to)),
                tuple(k.capitalize() for k in kinds))
        else:
            options = tuple(self._action_text(m) for m in moves)
            labels = tuple(self._describe(m) for m in moves)
            prompt = PromptRequested("which-move", options, texts.text("which move question"), labels)
        self._prompt = prompt
        self._prompt_pms = list(pms)
        return [prompt]

    def _withdraw_prompt(self, keep_standing: bool = False) -> list[Output]:
        """Close the open question. ``keep_standing``: leave a standing question (a pending
        choice, a forced pass) to :meth:`_sync_standing`, which closes it only if it changed."""
        self._choice = None
        if self._prompt is None:
            self._prompt_pms = []
            return []
        if keep_standing and not self._prompt_pms:
            return []
        kind = self._prompt.kind
        self._prompt = None
        self._prompt_pms = []
        return [PromptWithdrawn(kind)]

    # ----- reconciling the board with the game ---------------------------------------------------
    def _sync_standing(self) -> list[Output]:
        """Open the standing question while play is on (the board shows the game or a move is
        in progress); close it when it no longer applies or the board needs fixing first."""
        want = self._standing if self._mode == PLAY else None
        out: list[Output] = []
        if self._prompt is not None and not self._prompt_pms and self._prompt != want:
            out.append(PromptWithdrawn(self._prompt.kind))
            self._prompt = None
        if want is not None and self._prompt is None and not self._prompt_pms and self._choice is None:
            self._prompt = want
            out.append(want)
        return out

    def _compare_board(self) -> None:
        """After the game changed: does the believed physical board match it?"""
        board, target = self._board, self._target
        if set(board) == set(self._E) and all(target[s] is None or board[s] == target[s] for s in self._E):
            self._enter_play()
            return
        self._mode = CORRECT
        self._vacated = set()
        self._swaps = {s for s in self._E & set(board) & self._S
                       if target[s] is not None and board[s] != target[s]}
        self._candidate = None
        self._illegal_since = None
        self._recount()
        if self._S == self._E and not self._swaps:
            self._enter_play_from_correction()

    def _enter_play(self) -> None:
        self._board = {s: self._target[s] if self._target[s] is not None else self._board.get(s) for s in self._E}
        self._mode = PLAY
        self._recount()
        # touched: what is lifted now, and (after a committed move) what was lifted after that
        # move landed, e.g. a victim taken off by a fast reply before the move was committed
        landed = self._landed
        self._T = set(self._L)
        self._seen = {}
        if landed is not None:
            self._T |= {s for s in self._E if self._vacated_at.get(s, -1) > landed}
        self._landed = None
        self._candidate = None
        self._illegal_since = None
        self._swaps = set()
        self._note_illegal(self._now)

    def _enter_play_from_correction(self) -> None:
        kept = {s: self._board.get(s) for s in self._E if s not in self._vacated}
        self._board = {s: self._target[s] if self._target[s] is not None else kept.get(s) for s in self._E}
        self._enter_play()

    def _check_setup_done(self, t: int) -> list[Output]:
        target = self._setup_target if self._setup_target is not None else self._E
        if self._S != target:
            return []
        self._board = {s: self._target.get(s) for s in target}
        self._mode = PLAY
        self._setup_target = None
        self._compare_board()
        return [SetupCompleted(t)]

    # ----- what to show ---------------------------------------------------------------------------------
    def _illegal_squares(self) -> set[int]:
        """Squares holding a piece where no lifted piece may go, or, when every placed piece
        could be a legal move on its own but no single move explains them all, every placed
        square (two moves at once). Empty while the board may still become a legal move."""
        return self._illegality()[0]

    def _illegality(self) -> tuple[set[int], str]:
        L, X = self._L, self._X
        if not X:
            return set(), ""
        pool = self._pool()
        candidates = pool if self._request is not None else self._candidates_for(L, X)
        if any(self._consistent(pm) for pm in candidates):
            return set(), ""
        bad = set()
        for x in X:
            options = pool if self._request is not None else self._by_added.get(x, ())
            if not any(x in pm.added and pm.movers & L for pm in options):
                bad.add(x)
        if bad:
            return bad, "placed"
        if any(X <= pm.added and pm.movers & L for pm in pool):
            return set(), ""
        return set(X), "joint"

    def _note_illegal(self, t: int) -> None:
        if self._illegal_squares():
            if self._illegal_since is None:
                self._illegal_since = t
        else:
            self._illegal_since = None

    def _candidates_for(self, L: set[int], X: set[int]) -> list[PhysicalMove]:
        if X:
            return list(self._by_added.get(next(iter(X)), ()))
        if L:
            return list(self._by_square.get(next(iter(L)), ()))
        return []

    def _view(self, t: int) -> _View:
        if self._mode == SETUP:
            return self._setup_view()
        if self._mode == CORRECT:
            return self._correction_view()
        if self._mode == WAITING:
            return self._shown
        return self._play_view(t)

    def _idle_meanings(self, t: int) -> dict[int, Meaning]:
        """Nothing in the air. In order: the choice the engine waits for (the Salamander's
        square and where it may step, as hints); the King in check and the last move; or, for
        games with turn colours once the last move has been shown ``last_move_ms``, the pieces
        of the side to move in their player colour. Terrain under everything."""
        m = self._backdrop.frame()
        if self._answer_pms:
            for pm in self._answer_pms:
                a, b = pm.relocations[0]
                m[a] = Meaning.HINT_FROM
                m[b] = Meaning.HINT_TO
            return m
        fresh = self._moved_at is not None and t - self._moved_at < self._last_move_ms
        if self._turn_colours and not self._check_squares and self._request is None and not fresh \
                and self.pos.pending is None and self.pos.turn < len(self._backdrop.players):
            colour = self._backdrop.player(self.pos.turn)
            for sq in self.pos.occ[self.pos.turn]:
                m[sq] = colour
            return m
        last = next((d.squares for d in reversed(self._history) if d.squares is not None), None)
        if last is not None:
            m[last[0]] = Meaning.LAST_MOVE_FROM
            m[last[1]] = Meaning.LAST_MOVE_TO
        for k in self._check_squares:
            m[k] = Meaning.CHECK
        return m

    def _request_meanings(self, m: dict[int, Meaning]) -> None:
        req = self._request
        for a, b in req.relocations:
            if a in self._S:
                m[a] = Meaning.COMPUTER_MOVE_FROM
            m[b] = Meaning.COMPUTER_MOVE_TO
        for v in req.victims | (req.optional & self._S):
            if v not in req.added and v != req.to and v in self._S:
                m[v] = Meaning.COMPUTER_MOVE_FROM

    def _screen_offer(self) -> ScreenMovesChanged:
        """The moves only the screen can make (hexes), while play is on and no move is asked for."""
        if not self._screen_actions or self._request is not None:
            return ScreenMovesChanged(())
        options = tuple(self._screen_actions)
        return ScreenMovesChanged(options, tuple(self._describe(a) for a in self._screen_actions.values()))

    def _play_view(self, t: int) -> _View:
        L, X = self._L, self._X
        screen = self._screen_offer()
        if not L and not X:
            m = self._idle_meanings(t)
            if self._request is not None:
                self._request_meanings(m)
                return _View(m, self._request_guidance(), "in-sync", screen=screen)
            return _View(m, GuidanceChanged(""), "in-sync", screen=screen)
        illegal, reason = self._illegality()
        if illegal and t - (self._illegal_since if self._illegal_since is not None else t) >= self._illegal_ms:
            return replace(self._illegal_view(illegal, reason), screen=screen)
        m = self._backdrop.frame()
        for k in self._check_squares:
            m[k] = Meaning.CHECK
        guidance = GuidanceChanged("")
        if self._request is not None:
            self._request_meanings(m)
            guidance = self._request_guidance()
        else:
            for sq in L:
                for pm in self._by_mover.get(sq, ()):
                    if pm.form == "full":
                        continue  # lit by its hand form; the full form is what the engine does
                    for a, b in pm.relocations:
                        if a != sq:
                            continue
                        capture = b in pm.victims or (pm.victims and b == pm.to)
                        if capture:
                            m[b] = Meaning.CAPTURE
                        elif m.get(b) != Meaning.CAPTURE:
                            m[b] = Meaning.MOVE
            finish = self._finish_hint(m)
            if finish:
                guidance = GuidanceChanged(finish)
        for sq in L:
            # a lifted victim's square shows where the capturing piece goes
            if m.get(sq) != Meaning.CAPTURE:
                m[sq] = Meaning.LIFTED
        return _View(m, guidance, "moving", screen=screen)

    def _finish_hint(self, m: dict[int, Meaning]) -> str:
        """A move half done (the king castled but the rook waits; the pawn took en passant but
        the victim still stands): light and say the rest."""
        if not self._X or self._candidate is not None:
            return ""
        cands = [pm for pm in self._by_added.get(next(iter(self._X)), ()) if self._consistent(pm)]
        if len(cands) != 1:
            return ""
        pm = cands[0]
        sentences = []
        for a, b in pm.relocations:
            if a in self._S:
                m[a] = Meaning.HINT_FROM
                m[b] = Meaning.HINT_TO
                sentences.append(texts.text("finish move", piece=self._piece(self._board.get(a)),
                                            frm=self._name(a), to=self._name(b)))
        for v in pm.victims:
            if v != pm.to and v in self._S:
                m[v] = Meaning.CAPTURE
                sentences.append(texts.text("finish take", piece=self._piece(self._board.get(v)), square=self._name(v)))
        return " ".join(sentences)

    def _illegal_view(self, illegal: set[int], reason: str) -> _View:
        m = self._backdrop.frame()
        for x in self._X:
            m[x] = Meaning.ILLEGAL if x in illegal else Meaning.REMOVE
        for sq in self._L:
            m[sq] = Meaning.PLACE
        sources = {x: None for x in self._X}
        if len(self._L) == 1:
            only = next(iter(self._L))
            for x in illegal:
                sources[x] = self._board.get(only)
        targets = {sq: self._board.get(sq) for sq in self._L}
        pairs, text = self._pairing_text(sources, targets, back=True)
        bad = sorted(illegal)
        if len(bad) == 1:
            movers = [self._board.get(s) for s in self._L if self._owner(s) == self.pos.turn]
            if len(self._L) == 1:
                movers = [self._board.get(next(iter(self._L)))]
            look = movers[0] if len(movers) == 1 else None
            intro = texts.text("illegal one", piece=self._piece(look), square=self._name(bad[0]))
        elif reason == "joint":
            intro = texts.text("one at a time")
        else:
            intro = texts.text("illegal many", squares=", ".join(self._name(s) for s in bad))
        if self._request is not None:
            intro = texts.text("not the request") + " " + intro
        guidance = GuidanceChanged(" ".join(filter(None, (intro, text))), tuple(sorted(self._X)),
                                   tuple(sorted(self._L)), pairs)
        return _View(m, guidance, "out-of-sync", tuple(bad), tuple(sorted(self._L)))

    def _correction_view(self) -> _View:
        remove = (self._S - self._E) | self._swaps
        place = self._E - self._S
        m = self._backdrop.frame()
        for sq in place:
            m[sq] = Meaning.PLACE
        for sq in remove:
            m[sq] = Meaning.REMOVE
        sources = {s: (self._board.get(s) if s not in self._vacated else None) for s in remove}
        targets = {s: self._target.get(s) for s in place | self._swaps}
        pairs, text = self._pairing_text(sources, targets, back=True, reasons=self._reasons)
        guidance = GuidanceChanged(text, tuple(sorted(remove)), tuple(sorted(place | self._swaps)), pairs)
        return _View(m, guidance, "out-of-sync")

    def _setup_view(self) -> _View:
        target = self._setup_target if self._setup_target is not None else self._E
        place = sorted(target - self._S)
        remove = sorted(self._S - target)
        m = self._backdrop.frame()
        for sq in place:
            m[sq] = Meaning.SETUP_PLACE
        for sq in remove:
            m[sq] = Meaning.REMOVE
        sentences = []
        if remove:
            sentences.append(texts.text("setup take", piece=self._piece(None), square=self._name(remove[0])))
        elif place:
            sentences.append(texts.text("setup put", piece=self._piece(self._target.get(place[0])),
                                        square=self._name(place[0])))
        more = len(place) + len(remove) - 1
        if more > 0:
            sentences.append(texts.text("more", count=more))
        return _View(m, GuidanceChanged(" ".join(sentences), tuple(remove), tuple(place)), "setup")

    def _request_guidance(self) -> GuidanceChanged:
        """The whole move in words, effects included (it does not change while the person
        carries it out)."""
        req = self._request
        move = req.moves[0]
        reasons = self._effect_reasons(req.effects, move) if req.effects else {}
        sentences = []

        def take(v: int) -> str:
            piece = self._piece(self._board.get(v))
            if v in reasons:
                return fx.sentence("take off", reasons[v], piece=piece, square=self._name(v))
            return texts.text("request take", piece=piece, square=self._name(v))

        # the captured piece first (its square may be where the mover goes), the mover, then
        # what the move's effects remove
        captured = {m.capture for m in req.moves if isinstance(m, Move) and m.capture is not None}
        sentences += [take(v) for v in sorted(req.victims & captured)]
        for a, b in req.relocations:
            look = self._board.get(a)
            if b in reasons:
                sentences.append(fx.sentence("move", reasons[b], piece=self._piece(look), frm=self._name(a),
                                             to=self._name(b)))
            else:
                sentences.append(texts.text("request move", piece=self._piece(look), frm=self._name(a),
                                            to=self._name(b)))
        sentences += [take(v) for v in sorted((req.victims | req.optional) - captured)]
        if move.promotion:
            sentences.append(texts.text("request promote", kind=self._kind_name(move.promotion)))
        place = req.added | ({move.to} if move.to not in req.removed else set())
        return GuidanceChanged(" ".join(sentences), tuple(sorted(req.removed | req.victims | req.optional)),
                               tuple(sorted(place)), tuple(req.relocations))

    def _effect_reasons(self, effects, move: Move | None) -> dict[int, fx.Reason]:
        return fx.reasons(effects, move, self._colour,
                          lambda owner, title: texts.piece_phrase(self._colour(owner), self._title_word(title)))

    def _title_word(self, title: str) -> str:
        for k in self.rules.kinds:
            if (k.title or k.name) == title:
                return self._words[k.code]
        return title

    def _pairing_text(self, sources: dict[int, Look | None], targets: dict[int, Look | None],
                      back: bool, reasons: Mapping[int, fx.Reason] | None = None
                      ) -> tuple[tuple[tuple[int, int], ...], str]:
        """Pair pieces to take away with squares to fill (least total distance, same look),
        and say it: moves first, then removals, then placements; with the reason of an
        effect where one is known ("Remove the red Skeleton from c5 (destroyed by the
        explosion).")."""
        reasons = reasons or {}
        src = sorted(sources)
        dst = sorted(targets)
        pairs = assign_pairs(src, dst, lambda a, b: _compatible(sources[a], targets[b]) and a != b,
                             self._route_cost)
        paired_src = {a for a, _ in pairs}
        paired_dst = {b for _, b in pairs}
        sentences = []
        for a, b in pairs:
            look = sources[a] if sources[a] is not None else targets[b]
            sentences.append(fx.sentence("move", reasons.get(b, reasons.get(a)), piece=self._piece(look),
                                         frm=self._name(a), to=self._name(b)))
        for a in src:
            if a not in paired_src:
                sentences.append(fx.sentence("take off", reasons.get(a), piece=self._piece(sources[a]),
                                             square=self._name(a)))
        for b in dst:
            if b not in paired_dst:
                key = "put back" if back else "put"
                sentences.append(fx.sentence(key, reasons.get(b), piece=self._piece(targets[b]), square=self._name(b)))
        if len(sentences) > 4:
            sentences = sentences[:3] + [texts.text("more", count=len(sentences) - 3)]
        return tuple(pairs), " ".join(sentences)

    def _refresh(self, t: int) -> list[Output]:
        if self._mode == WAITING:
            return []
        out: list[Output] = self._sync_standing()
        view = self._view(t)
        shown = self._shown
        if view.screen != shown.screen:
            out.append(view.screen)
        if view.meanings != shown.meanings:
            out.append(LedsChanged(MappingProxyType(dict(view.meanings))))
        if view.guidance != shown.guidance:
            out.append(view.guidance)
        if view.illegal and view.illegal != shown.illegal:
            out.append(IllegalMoveShown(view.illegal, view.origins, view.guidance.text))
        bad = ("out-of-sync", "setup")
        if view.status == "out-of-sync" and shown.status != "out-of-sync":
            out.append(OutOfSync(view.guidance.remove, view.guidance.place, t))
        elif view.status not in bad and shown.status in bad:
            out.append(InSync(t))
        self._shown = view
        return out

    # ----- words ------------------------------------------------------------------------------------
    def _route_cost(self, a: int, b: int) -> int:
        """King-step distance first, then the straighter route (Manhattan distance, < 64)."""
        w = self._geo.width
        dx, dy = abs(a % w - b % w), abs(a // w - b // w)
        return max(dx, dy) * 64 + dx + dy

    def _name(self, sq: int) -> str:
        return self._geo.name_of(sq)

    def _colour(self, owner: int | None) -> str:
        return texts.colour_name(owner if owner is not None else -1, self._names)

    def _kind_name(self, code: str) -> str:
        """The kind's word in sentences: "knight" in chess, "Skeleton" for a named unit."""
        return self._words.get(code, code)  # an unknown code is named by its letter

    def _piece(self, look: Look | None) -> str:
        if look is None:
            return texts.piece_phrase(None, None)
        return texts.piece_phrase(self._colour(look[0]), self._kind_name(look[1]))

    def _describe(self, move: Action) -> str:
        """A move (or an answer) in words, for the screen's buttons."""
        if isinstance(move, Answer):
            d = self.pos.pending
            if d is not None and d.kind == "step":
                if move.value == "stay":
                    return texts.text("step stay", square=self._name(d.get("square")))
                return texts.text("step to", square=self._name(move.value))
            return self._action_text(move)
        if move.frm < 0:
            return texts.text("pass label") if move.special == "pass" else self._action_text(move)
        look = self._board.get(move.frm)
        if move.special == "hex":
            target = self._board.get(move.to)
            return texts.text("hex label", target=self._piece(target), square=self._name(move.to),
                              piece=self._piece(look))
        text = texts.text("move", piece=self._piece(look), frm=self._name(move.frm), to=self._name(move.to))
        if move.promotion:
            text += " " + texts.text("request promote", kind=self._kind_name(move.promotion))
        return text

    def _action_text(self, action: Action) -> str:
        """What :meth:`choose` takes for ``action``: the move text, or the answer text."""
        if isinstance(action, Answer):
            answer_text = getattr(self.rules, "answer_text", None)
            return answer_text(action) if answer_text is not None else str(action.value)
        return self.rules.move_text(self.pos, action)


def _look(piece) -> Look:
    return (piece.owner, piece.kind.code)


def _relocations(uids_before: Mapping[int, int], board_after,
                 after: frozenset[int]) -> tuple[tuple[tuple[int, int], ...], frozenset[int]]:
    """Which pieces moved (followed by their stable uid) and which squares lost their piece
    for good, between a board given as uid -> square and ``board_after``."""
    where_after = {board_after[s].uid: s for s in after if board_after[s] is not None}
    relocations = tuple(sorted((uids_before[u], s) for u, s in where_after.items()
                               if u in uids_before and uids_before[u] != s))
    gone = frozenset(s for u, s in uids_before.items() if u not in where_after)
    return relocations, gone


def _compatible(a: Look | None, b: Look | None) -> bool:
    return a is None or b is None or a == b


# ----- pairing ---------------------------------------------------------------------------------------

_UNPAIRED = 10_000
_FORBIDDEN = 10_000_000


def assign_pairs(sources: Sequence[int], targets: Sequence[int], allowed, cost) -> list[tuple[int, int]]:
    """Pair sources with targets to minimise the total ``cost(a, b)`` (the Hungarian method).

    Pairs that ``allowed(a, b)`` rejects are never made; anything left over stays unpaired.
    Leaving a square unpaired costs more than any move, so the result pairs as many as it can
    and then prefers short moves. Sizes are small (a handful of squares after a fight or a
    takeback); beyond 40 squares a greedy nearest-first pairing keeps it fast."""
    if not sources or not targets:
        return []
    if len(sources) + len(targets) > 40:
        return _greedy_pairs(sources, targets, allowed, cost)
    n = len(sources) + len(targets)
    matrix = [[0] * n for _ in range(n)]
    for i in range(n):
        for j in range(n):
            if i < len(sources) and j < len(targets):
                a, b = sources[i], targets[j]
                matrix[i][j] = cost(a, b) if allowed(a, b) else _FORBIDDEN
            elif i < len(sources) or j < len(targets):
                matrix[i][j] = _UNPAIRED
    match = _hungarian(matrix)
    out = []
    for i, j in enumerate(match):
        if i < len(sources) and j < len(targets) and matrix[i][j] < _UNPAIRED:
            out.append((sources[i], targets[j]))
    return sorted(out)


def _greedy_pairs(sources, targets, allowed, cost):
    options = sorted((cost(a, b), a, b) for a in sources for b in targets if allowed(a, b))
    used_a, used_b, out = set(), set(), []
    for _, a, b in options:
        if a not in used_a and b not in used_b:
            used_a.add(a)
            used_b.add(b)
            out.append((a, b))
    return sorted(out)


def _hungarian(cost: list[list[int]]) -> list[int]:
    """Minimum-cost perfect matching on a square matrix; returns the column of each row."""
    n = len(cost)
    inf = float("inf")
    u = [0] * (n + 1)
    v = [0] * (n + 1)
    p = [0] * (n + 1)
    way = [0] * (n + 1)
    for i in range(1, n + 1):
        p[0] = i
        j0 = 0
        minv = [inf] * (n + 1)
        used = [False] * (n + 1)
        while True:
            used[j0] = True
            i0 = p[j0]
            delta = inf
            j1 = 0
            row = cost[i0 - 1]
            for j in range(1, n + 1):
                if not used[j]:
                    cur = row[j - 1] - u[i0] - v[j]
                    if cur < minv[j]:
                        minv[j] = cur
                        way[j] = j0
                    if minv[j] < delta:
                        delta = minv[j]
                        j1 = j
            for j in range(n + 1):
                if used[j]:
                    u[p[j]] += delta
                    v[j] -= delta
                else:
                    minv[j] -= delta
            j0 = j1
            if p[j0] == 0:
                break
        while True:
            j1 = way[j0]
            p[j0] = p[j1]
            j0 = j1
            if j0 == 0:
                break
    match = [0] * n
    for j in range(1, n + 1):
        if p[j]:
            match[p[j] - 1] = j - 1
    return match
