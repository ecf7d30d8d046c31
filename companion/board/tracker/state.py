"""What the tracker knows at any moment, in one record that its rooms share.

Notation (docs/tracker.md): ``E`` the occupancy the game expects, ``S`` the occupancy sensed,
``L = E - S`` squares lifted, ``X = S - E`` squares filled that should be empty, ``T``
*touched*: squares of ``E`` emptied at some time since the board last showed the game exactly.

The façade (tracker.py) owns one :class:`TrackerState`; each room reads it and changes the part
it is about: reading.py the move in progress, prompts.py the open question, correction.py and
setup.py the mode and the belief of what stands where.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ...errors import HardwareError
from ...i18n import _
from ..palette import Meaning
from .effects import Reason
from .forms import Forms, PhysicalMove
from .outputs import Action, GuidanceChanged, Look, PromptRequested, ScreenMovesChanged

#: The tracker's modes: reading moves; guiding the board back to the game; setting up;
#: waiting for the session to play the action it reported.
PLAY, CORRECT, SETUP, WAITING = "play", "correct", "setup", "waiting"


@dataclass
class Candidate:
    """The forms the board shows now, since ``since``; committed after ``settle_ms``."""

    pms: list[PhysicalMove]
    key: tuple[frozenset[int], frozenset[int]]
    since: int
    settle_ms: int

    @property
    def moves(self) -> list[Action]:
        return [m for pm in self.pms for m in pm.moves]


@dataclass(frozen=True)
class Done:
    """A committed action in the tracker's history: the position depth after it and the two
    squares to light as the last move (None: nothing moved, e.g. a pass or "stay")."""

    action: Action
    depth: int
    squares: tuple[int, int] | None


@dataclass
class View:
    """What should be shown now (compared with what was shown to emit changes)."""

    meanings: dict[int, Meaning] = field(default_factory=dict)
    guidance: GuidanceChanged = GuidanceChanged("")
    status: str = "in-sync"  # in-sync | moving | out-of-sync | setup
    illegal: tuple[int, ...] = ()
    origins: tuple[int, ...] = ()
    screen: ScreenMovesChanged = ScreenMovesChanged(())


class TrackerState:
    """The tracker's whole state. Set up by the façade; see the module docstring."""

    def __init__(self, rules, pos, *, settles: dict[str, int], illegal_ms: int, backdrop, words,
                 turn_colours: bool, last_move_ms: int, effectful: bool, t_ms: int):
        self.rules = rules
        self.pos = pos
        self.size: int = rules.geometry.size
        self.settles = settles  # settle time per kind of form: "normal", "slow", "castle"
        self.illegal_ms = illegal_ms
        self.backdrop = backdrop
        self.words = words
        self.effectful = effectful  # moves have a hand and a full form (forms.py)
        self.turn_colours = turn_colours
        self.last_move_ms = last_move_ms
        self.now = t_ms
        self.mode = PLAY
        # the game, read: forms of every action (replaced whenever the game changes)
        self.forms: Forms = None  # type: ignore[assignment]
        self.E: frozenset[int] = frozenset()
        self.target: dict[int, Look | None] = {}
        self.standing: PromptRequested | None = None  # the question the position itself asks
        # the physical board
        self.belief: dict[int, Look | None] = {}  # which piece stands where, as far as known
        self.S: set[int] = set()
        self.L: set[int] = set()
        self.X: set[int] = set()
        self.T: set[int] = set()
        self.changed_at: dict[int, int] = {}
        self.vacated_at: dict[int, int] = {}
        self.vacated: set[int] = set()  # emptied since correction began
        self.swaps: set[int] = set()  # right occupancy, wrong piece: empty and refill it
        # the move in progress
        self.candidate: Candidate | None = None
        self.seen: dict[tuple, int] = {}  # forms the board showed exactly since it was last in step: when
        self.illegal_since: int | None = None
        self.request: PhysicalMove | None = None  # the requested move as shown (its full form)
        self.request_forms: list[PhysicalMove] = []  # every form it may be made in
        self.request_touched: set[int] = set()  # squares lifted since it was asked (in-place forms)
        # the open question
        self.prompt: PromptRequested | None = None
        self.prompt_pms: list[PhysicalMove] = []
        self.choice: Action | None = None
        # what was done
        self.history: list[Done] = []
        self.committed: Done | None = None
        self.landed: int | None = None  # when the last committed move's last piece landed
        self.moved_at: int | None = None  # when the game last advanced (for last_move_ms)
        self.reasons: dict[int, Reason] = {}  # why squares must change after the last move
        self.setup_target: frozenset[int] | None = None
        self.shown = View(meanings={}, guidance=GuidanceChanged(""), status="in-sync")

    # ----- sensing ------------------------------------------------------------------------------
    def check_square(self, sq: int) -> None:
        if isinstance(sq, bool) or not isinstance(sq, int) or not 0 <= sq < self.size:
            raise HardwareError(_("sensor event for square {sq!r}, off this board of {size} squares").format(
                sq=sq, size=self.size))

    def set_square(self, sq: int, occupied: bool, t: int) -> bool:
        """A switch changed; False if it already said so."""
        if (sq in self.S) == occupied:
            return False
        self.changed_at[sq] = t
        if occupied:
            self.S.add(sq)
        else:
            self.S.discard(sq)
            self.vacated_at[sq] = t
            self.vacated.add(sq)
            self.swaps.discard(sq)
            if sq in self.E:
                self.T.add(sq)
        self.recount()
        return True

    def recount(self) -> None:
        self.L = set(self.E - self.S)
        self.X = set(self.S - self.E)

    def pool(self) -> list[PhysicalMove]:
        """The forms the board may show now: the requested move's, or every legal one's."""
        return self.request_forms if self.request is not None else self.forms.pms

    def owner(self, sq: int) -> int | None:
        look = self.belief.get(sq)
        return None if look is None else look[0]
