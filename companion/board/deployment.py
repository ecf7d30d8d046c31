"""Deploying a Dungeon Chess army on the physical board, one unit at a time.

The reed switches cannot tell a Wizard from a Hero, so the screen says which unit comes next
(``companion.games.draft.Deployment`` decides the order: each player in turn, King first) and
the LEDs light the free squares of that player's spawn zone in the player's colour. A piece
put on one of those squares *becomes* that unit; lifting the last placed piece takes the
placement back (so does lifting the last few, newest first). A piece put anywhere else is
flagged at once. The screen may also change the deployment itself (its undo button, "place
the rest automatically"); :meth:`DeploymentTracker.deployment_changed` then guides the board
to it square by square.

Like the tracker (companion/board/tracker/) this is sans-I/O: sensor events carry their
time, :meth:`DeploymentTracker.tick` says that time passed, every call returns its outputs
as values. Unlike the tracker it changes its ``Deployment`` itself (``place``/``undo``):
during deployment the board *is* the input, and the screen reads the result from the outputs
and from ``deployment``. When it is done, the screen builds the game with
``deployment.position(first)`` and starts a ``Tracker`` with ``sensed=`` the placed squares.

LED frames stay inside one palette context (docs/leds.md): "players" while all is well
(water, the free squares in the player's colour), "correction" while something is wrong
(``ILLEGAL`` on a wrong piece, ``REMOVE`` on a piece to take off, ``PLACE`` on squares to fill
or, with a wrong piece, the free squares it may go to).
"""

from __future__ import annotations

from dataclasses import dataclass
from types import MappingProxyType
from typing import Iterable, Mapping, Sequence, Union

from ..errors import HardwareError
from ..i18n import _
from . import texts
from .backdrop import Backdrop
from .palette import Meaning
from .ports import BoardConnected, BoardDisconnected, OccupancySnapshot, SquareChanged
from .tracker import GuidanceChanged, IllegalMoveShown, InSync, LedsChanged, OutOfSync

PLACING, WRONG, DONE = "placing", "out-of-sync", "done"


@dataclass(frozen=True)
class UnitPlaced:
    """The piece on ``square`` is now player ``player``'s ``unit`` (a roster name)."""

    player: int
    unit: str
    square: int
    t_ms: int


@dataclass(frozen=True)
class PlacementUndone:
    """The placement of ``unit`` on ``square`` was taken back (its piece was lifted)."""

    player: int
    unit: str
    square: int
    t_ms: int


@dataclass(frozen=True)
class DeploymentCompleted:
    """Every unit stands on the board; ``deployment.position(first)`` is the game."""

    t_ms: int


Output = Union[UnitPlaced, PlacementUndone, DeploymentCompleted, LedsChanged, GuidanceChanged,
               IllegalMoveShown, OutOfSync, InSync]


@dataclass
class _View:
    meanings: dict[int, Meaning]
    guidance: GuidanceChanged
    status: str
    illegal: tuple[int, ...] = ()


class DeploymentTracker:
    """Follows a deployment on the board; see the module docstring."""

    def __init__(self, rules, deployment, *, settle_ms: int = 150, sensed: Iterable[int] | None = None,
                 player_names: Sequence[str] | None = None, t_ms: int = 0):
        """``deployment``: a ``companion.games.draft.Deployment`` (changed by this object).
        ``settle_ms``: how long a piece must stand (or a square stay empty) before it counts,
        so a bouncing switch or a piece slid across squares places nothing. ``sensed``: the
        occupancy now, if known (default: the board shows the deployment so far); pieces that
        are not part of the deployment are to be taken off first. ``player_names``: colour words
        (default: the map's seat colours)."""
        if isinstance(settle_ms, bool) or not isinstance(settle_ms, int) or settle_ms < 0:
            raise ValueError(f"settle_ms must be a whole number of milliseconds (0 or more), got {settle_ms!r}")
        self.rules = rules
        self.deployment = deployment
        self._geo = rules.geometry
        self._settle_ms = settle_ms
        self._backdrop = Backdrop(rules)
        self._names = tuple(player_names) if player_names else self._backdrop.colours
        self._now = t_ms
        self._since = t_ms  # when the sensed board last changed
        expected = deployment.occupied()
        self._S: set[int] = set(expected if sensed is None else sensed)
        for sq in self._S:
            self._check_square(sq)
        self._expected = expected
        self._last_placed = {sq: (p, u) for p, u, sq in deployment.placed}
        self._clear: set[int] = set(self._S - expected)  # pieces to take off (strays, screen undo)
        self._fill: set[int] = set()  # placements made on the screen, not yet on the board
        self._taken_back: dict[int, tuple[int, str]] = {}  # square -> (player, unit) undone on the screen
        self._shown = _View({}, GuidanceChanged(""), PLACING)
        self._finished = deployment.done

    # ----- read-only state -----------------------------------------------------------------------
    @property
    def sensed(self) -> frozenset[int]:
        return frozenset(self._S)

    @property
    def next_unit(self) -> tuple[int, str] | None:
        """(player, unit name) to place next, or None when every unit is placed."""
        return self.deployment.next_unit()

    @property
    def done(self) -> bool:
        """Every unit is placed and the board shows exactly the deployment."""
        return self.deployment.done and self._S == set(self.deployment.occupied())

    @property
    def status(self) -> str:
        """placing, out-of-sync (something to fix on the board) or done."""
        return self._view().status

    @property
    def guidance(self) -> GuidanceChanged:
        return self._view().guidance

    @property
    def meanings(self) -> Mapping[int, Meaning]:
        return MappingProxyType(self._view().meanings)

    # ----- inputs -----------------------------------------------------------------------------------
    def feed(self, event) -> list[Output]:
        """A sensor event (SquareChanged or OccupancySnapshot; connection events only pass time)."""
        if isinstance(event, (BoardConnected, BoardDisconnected)):
            return self.tick(event.t_ms)
        if not isinstance(event, (SquareChanged, OccupancySnapshot)):
            raise TypeError(f"deployment takes SquareChanged or OccupancySnapshot events, not {type(event).__name__}")
        t = max(event.t_ms, self._now)
        out = self._advance(t)
        if isinstance(event, SquareChanged):
            self._check_square(event.square)
            changes = {event.square: bool(event.occupied)}
        else:
            occupied = frozenset(event.occupied)
            for sq in occupied:
                self._check_square(sq)
            changes = {sq: sq in occupied for sq in self._S ^ occupied}
        for sq, occupied in changes.items():
            if (sq in self._S) == occupied:
                continue
            self._since = t
            if occupied:
                self._S.add(sq)
            else:
                self._S.discard(sq)
                self._clear.discard(sq)  # a piece to take off went
            if occupied:
                self._fill.discard(sq)  # a square to fill got its piece
        return out + self._refresh()

    def tick(self, t_ms: int) -> list[Output]:
        """Time passed: a piece that stood long enough is placed, a lift long enough undoes."""
        t = max(t_ms, self._now)
        return self._advance(t) + self._refresh()

    def undo(self) -> list[Output]:
        """The screen's undo button: take back the last placement; the board is told to lose
        that piece."""
        last = self.deployment.undo()
        out: list[Output] = []
        if last is not None:
            player, unit, sq = last
            out.append(PlacementUndone(player, unit, sq, self._now))
        return out + self.deployment_changed()

    def deployment_changed(self) -> list[Output]:
        """The screen changed the deployment (undo, automatic placement of the rest, a preset):
        guide the board to it."""
        expected = self.deployment.occupied()
        placed = {sq: (p, u) for p, u, sq in self.deployment.placed}
        for sq in self._expected - expected:
            if sq in self._last_placed:
                self._taken_back[sq] = self._last_placed[sq]
        self._fill = {s for s in (self._fill | (expected - self._expected)) if s in expected and s not in self._S}
        self._clear = {s for s in (self._clear | (self._expected - expected)) if s not in expected and s in self._S}
        self._expected = expected
        self._last_placed = placed
        self._finished = self._finished and self.deployment.done
        out: list[Output] = []
        if self.deployment.done and not self._finished and not self._fill and not self._clear:
            self._finished = True
            out.append(DeploymentCompleted(self._now))
        return out + self._refresh()

    # ----- what the board did -----------------------------------------------------------------------
    def _check_square(self, sq: int) -> None:
        if isinstance(sq, bool) or not isinstance(sq, int) or not 0 <= sq < self._geo.size:
            raise HardwareError(_("sensor event for square {sq!r}, off this board of {size} squares").format(
                sq=sq, size=self._geo.size))

    def _remember(self) -> None:
        """The deployment changed here (a placement or an undo made on the board)."""
        self._expected = self.deployment.occupied()
        self._last_placed = {sq: (p, u) for p, u, sq in self.deployment.placed}

    def _lifted(self) -> set[int]:
        """Placed units whose square is empty (not those the screen placed and the board has
        not got yet)."""
        return set(self._expected) - self._S - self._fill

    def _new(self) -> set[int]:
        """Pieces standing where no placed unit is (not those to be taken off anyway)."""
        return self._S - set(self._expected) - self._clear

    def _undoable(self, lifted: set[int]) -> int:
        """How many placements the lifted squares take back: they must be the newest ones."""
        if not lifted:
            return 0
        newest = {sq for _, _, sq in self.deployment.placed[-len(lifted):]}
        return len(lifted) if newest == lifted else 0

    def _advance(self, t: int) -> list[Output]:
        self._now = t
        if t - self._since < self._settle_ms:
            return []
        out: list[Output] = []
        n = self._undoable(self._lifted())
        for _ in range(n):
            player, unit, sq = self.deployment.undo()
            self._remember()
            self._finished = False
            out.append(PlacementUndone(player, unit, sq, t))
        new = self._new()
        if not self._lifted() and not self._fill and len(new) == 1:
            sq = next(iter(new))
            nxt = self.deployment.next_unit()
            if nxt is not None and sq in self.deployment.free_squares():
                self.deployment.place(sq)
                self._remember()
                out.append(UnitPlaced(nxt[0], nxt[1], sq, t))
        if self.deployment.done and not self._finished and not self._fill and not self._clear \
                and self._S == set(self._expected):
            self._finished = True
            out.append(DeploymentCompleted(t))
        return out

    # ----- what to show -------------------------------------------------------------------------------
    def _view(self) -> _View:
        lifted, new = self._lifted(), self._new()
        nxt = self.deployment.next_unit()
        free = self.deployment.free_squares()
        wrong = sorted(new - free) if nxt is not None else sorted(new)
        stray = sorted(lifted) if not self._undoable(lifted) else []
        extra = sorted(new) if len(new) > 1 and not wrong else []
        fill, clear = sorted(self._fill - self._S), sorted(self._clear & self._S)
        if wrong or stray or extra or fill or clear:
            return self._problem_view(wrong, stray, extra, fill, clear, free)
        m = self._backdrop.frame()
        if nxt is None:
            return _View(m, GuidanceChanged(texts.text("deploy done")), DONE if self.done else PLACING)
        player, unit = nxt
        colour = self._backdrop.player(player)
        for sq in free - new:
            m[sq] = colour
        mine = [u for p, u in self.deployment.queue if p == player]
        placed = sum(1 for p, _, _ in self.deployment.placed if p == player)
        text = " ".join((texts.text("deploy next", piece=self._unit(player, unit), colour=self._colour(player)),
                         texts.text("deploy count", placed=placed, total=len(mine))))
        return _View(m, GuidanceChanged(text, (), tuple(sorted(free - new))), PLACING)

    def _problem_view(self, wrong, stray, extra, fill, clear, free) -> _View:
        m = self._backdrop.frame()
        sentences = []
        nxt = self.deployment.next_unit()
        for sq in wrong:
            m[sq] = Meaning.ILLEGAL
            if nxt is None:
                sentences.append(texts.text("take off", piece=texts.piece_phrase(None, None), square=self._name(sq)))
            elif sq in self.rules.board_map.spawn_zone(nxt[0] + 1):
                sentences.append(texts.text("deploy water", piece=self._unit(*nxt), square=self._name(sq)))
            else:
                sentences.append(texts.text("deploy outside", square=self._name(sq), colour=self._colour(nxt[0])))
        if wrong and nxt is not None:
            for sq in free - set(self._S):
                m[sq] = Meaning.PLACE  # where the wrong piece may go instead
        if extra:
            for sq in extra:
                m[sq] = Meaning.REMOVE
            sentences.append(texts.text("deploy one at a time", squares=", ".join(self._name(s) for s in extra)))
        for sq in clear:
            m[sq] = Meaning.REMOVE
            sentences.append(texts.text("take off", piece=self._look(sq), square=self._name(sq)))
        for sq in stray:
            m[sq] = Meaning.PLACE
            sentences.append(texts.text("deploy put back", piece=self._look(sq), square=self._name(sq)))
        for sq in fill:
            m[sq] = Meaning.PLACE
            sentences.append(texts.text("put", piece=self._look(sq), square=self._name(sq)))
        if len(sentences) > 4:
            sentences = sentences[:3] + [texts.more_lit(len(sentences) - 3)]
        remove = tuple(sorted(set(wrong) | set(extra) | set(clear)))
        place = tuple(sorted(set(stray) | set(fill)))
        return _View(m, GuidanceChanged(" ".join(sentences), remove, place), WRONG, tuple(wrong))

    def _refresh(self) -> list[Output]:
        view = self._view()
        shown = self._shown
        out: list[Output] = []
        if view.meanings != shown.meanings:
            out.append(LedsChanged(MappingProxyType(dict(view.meanings))))
        if view.guidance != shown.guidance:
            out.append(view.guidance)
        if view.illegal and view.illegal != shown.illegal:
            out.append(IllegalMoveShown(view.illegal, (), view.guidance.text))
        if view.status == WRONG and shown.status != WRONG:
            out.append(OutOfSync(view.guidance.remove, view.guidance.place, self._now))
        elif view.status != WRONG and shown.status == WRONG:
            out.append(InSync(self._now))
        self._shown = view
        return out

    # ----- words --------------------------------------------------------------------------------------
    def _name(self, sq: int) -> str:
        return self._geo.name_of(sq)

    def _colour(self, player: int) -> str:
        return texts.colour_name(player, self._names)

    def _unit(self, player: int, unit: str) -> str:
        return texts.piece_phrase(self._colour(player), _(self.rules.roster_kind(unit).title))

    def _look(self, sq: int) -> str:
        """The unit placed on ``sq`` (or taken back from it on the screen) in words ("the blue
        Wizard"), or "the piece"."""
        for player, unit, s in self.deployment.placed:
            if s == sq:
                return self._unit(player, unit)
        if sq in self._clear and sq in self._taken_back:
            return self._unit(*self._taken_back[sq])
        return texts.piece_phrase(None, None)
