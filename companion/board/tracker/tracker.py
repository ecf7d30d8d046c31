"""The :class:`Tracker` the session uses: one small façade over the tracker's rooms.

Each input is handled in the same few steps: time passes (a settled move may commit), the
sensed board changes, the board is read in the current mode (play, correction, set-up), and
the picture to show is compared with the last one so that only changes are reported. The
rooms do the work; this module only orders it.
"""

from __future__ import annotations

from dataclasses import replace
from types import MappingProxyType
from typing import Iterable, Mapping, Sequence

from ...core.moves import Move
from ...errors import IllegalMoveError
from ...i18n import _
from ..backdrop import Backdrop
from ..palette import Meaning
from ..ports import BoardConnected, BoardDisconnected, OccupancySnapshot, SquareChanged
from . import correction, prompts, reading, setup
from .forms import Forms
from .outputs import (Action, GuidanceChanged, InSync, LedsChanged, IllegalMoveShown, Output, OutOfSync,
                      PromptRequested, ScreenMovesChanged)
from .state import CORRECT, PLAY, SETUP, WAITING, TrackerState
from .views import view
from .words import Words


class Tracker:
    """Follows the physical board against the game; see the package docstring and
    docs/tracker.md."""

    def __init__(self, rules, pos, *, settle_ms: int = 150, slow_settle_ms: int = 600,
                 castle_settle_ms: int = 1500, illegal_ms: int = 0,
                 sensed: Iterable[int] | None = None, player_names: Sequence[str] | None = None,
                 t_ms: int = 0, turn_colours: bool | None = None, last_move_ms: int = 3000):
        """``rules``/``pos``: the game (read only). Settle times in ms (see docs/tracker.md).
        ``illegal_ms``: how long a wrong placement may stand before it is flagged (0: at once).
        ``sensed``: the occupancy at start if known (default: the board shows the game; the
        sensor port's first snapshot corrects it). ``player_names``: colour words per player
        for the guidance (default: the map's seat colours, or white, black, red, blue).
        ``turn_colours``: when nothing else is lit, light the pieces of the side to move in its
        player colour (default: on for games on a map of seats, such as Dungeon Chess; off for
        chess); the last move stays lit for ``last_move_ms`` first."""
        for name, value in (("settle_ms", settle_ms), ("slow_settle_ms", slow_settle_ms),
                            ("castle_settle_ms", castle_settle_ms), ("illegal_ms", illegal_ms),
                            ("last_move_ms", last_move_ms)):
            if isinstance(value, bool) or not isinstance(value, int) or value < 0:
                raise ValueError(f"{name} must be a whole number of milliseconds (0 or more), got {value!r}")
        backdrop = Backdrop(rules)
        has_seats = bool(getattr(getattr(rules, "board_map", None), "seats", None))
        self._st = st = TrackerState(
            rules, pos, settles={"normal": settle_ms, "slow": max(settle_ms, slow_settle_ms),
                                 "castle": max(settle_ms, castle_settle_ms)},
            illegal_ms=illegal_ms, backdrop=backdrop,
            words=Words(rules, tuple(player_names) if player_names else backdrop.colours),
            turn_colours=has_seats if turn_colours is None else bool(turn_colours), last_move_ms=last_move_ms,
            # games that record effects (Dungeon Chess): moves have a hand and a full form
            effectful=callable(getattr(rules, "describe_effects", None)), t_ms=t_ms)
        self._load_position()
        st.belief = dict(st.target)
        st.S = set(st.E if sensed is None else sensed)
        correction.compare_board(st)

    @property
    def rules(self):
        return self._st.rules

    @property
    def pos(self):
        return self._st.pos

    # ----- read-only state for the UI ------------------------------------------------------------
    @property
    def sensed(self) -> frozenset[int]:
        return frozenset(self._st.S)

    @property
    def expected(self) -> frozenset[int]:
        return self._st.E

    @property
    def lifted(self) -> frozenset[int]:
        """Squares that should hold a piece and are empty now."""
        return frozenset(self._st.E - self._st.S)

    @property
    def in_sync(self) -> bool:
        """The sensed board equals the game's and nothing needs fixing."""
        return self._st.mode in (PLAY, WAITING) and self._st.S == self._st.E

    @property
    def status(self) -> str:
        """in-sync, moving (a move in progress), out-of-sync (needs fixing), setup, waiting."""
        return WAITING if self._st.mode == WAITING else view(self._st, self._st.now).status

    @property
    def prompt(self) -> PromptRequested | None:
        return self._st.prompt

    @property
    def guidance(self) -> GuidanceChanged:
        return view(self._st, self._st.now).guidance

    @property
    def meanings(self) -> Mapping[int, Meaning]:
        return MappingProxyType(view(self._st, self._st.now).meanings)

    @property
    def last_move(self) -> Move | None:
        """The last move the tracker saw made (answers to a pending choice are not moves)."""
        return next((d.action for d in reversed(self._st.history) if isinstance(d.action, Move)), None)

    @property
    def screen_moves(self) -> ScreenMovesChanged:
        """The moves that can only be made on the screen now (see ScreenMovesChanged)."""
        return view(self._st, self._st.now).screen

    # ----- inputs -------------------------------------------------------------------------------
    def feed(self, event) -> list[Output]:
        """A sensor event (SquareChanged or OccupancySnapshot; connection events only pass time)."""
        if isinstance(event, (BoardConnected, BoardDisconnected)):
            return self.tick(event.t_ms)
        if not isinstance(event, (SquareChanged, OccupancySnapshot)):
            raise TypeError(f"the tracker takes SquareChanged or OccupancySnapshot events, not {type(event).__name__}")
        st = self._st
        t = max(event.t_ms, st.now)
        out = reading.advance(st, t)
        changed = False
        if isinstance(event, SquareChanged):
            st.check_square(event.square)
            changed = st.set_square(event.square, bool(event.occupied), t)
        else:
            occupied = frozenset(event.occupied)
            for sq in occupied:
                st.check_square(sq)
            for sq in sorted(st.S - occupied):
                changed |= st.set_square(sq, False, t)
            for sq in sorted(occupied - st.S):
                changed |= st.set_square(sq, True, t)
        if changed:
            out += self._infer(t)
        return out + self._refresh(t)

    def tick(self, t_ms: int) -> list[Output]:
        """Time passed: settle timers may commit a move or open a question."""
        t = max(t_ms, self._st.now)
        return reading.advance(self._st, t) + self._refresh(t)

    def choose(self, option: str) -> list[Output]:
        """The screen answered the open question (a piece code, a move text, an answer text
        such as "stay" or a square, "pass"), or chose one of the :attr:`screen_moves` (a hex)."""
        st = self._st
        option = str(option).strip()
        forms = st.forms
        if st.prompt is not None and st.prompt_pms == [] and option in forms.standing_actions:
            st.prompt = None  # answered: the screen closes it
            return self._screen_action(forms.standing_actions[option])
        if (st.prompt is None or option not in st.prompt.options) and option in forms.screen_actions:
            if not self.in_sync:
                raise IllegalMoveError(_("{option!r} must wait: the board does not show the game yet ({text})").format(
                    option=option, text=self.guidance.text or _("put the lifted pieces back")))
            return prompts.withdraw_prompt(st) + self._screen_action(forms.screen_actions[option])
        if st.prompt is None:
            raise IllegalMoveError(_("no question is waiting for an answer"))
        chosen = prompts.chosen_action(st, option)
        if chosen is None:
            raise IllegalMoveError(_("{option!r} is not one of the choices ({options})").format(
                option=option, options=', '.join(st.prompt.options)))
        st.choice = chosen
        st.prompt = None  # answered: the screen closes it; the choice waits for the board
        out: list[Output] = []
        pm = next(p for p in st.prompt_pms if chosen in p.moves)
        if reading.explains(st, pm, exact=False):
            out += reading.commit(st, pm, chosen)
        return out + self._refresh(st.now)

    def position_changed(self, pos=None) -> list[Output]:
        """The game changed outside the tracker (a move applied, a fight resolved, a takeback,
        a new game: pass the new position object if it is a different one)."""
        st = self._st
        out: list[Output] = []
        new_game = pos is not None and pos is not st.pos
        if new_game:
            st.pos = pos
            st.history.clear()
            st.committed = None
        depth = st.pos.depth
        advanced = not new_game and depth > st.forms.depth
        while st.history and st.history[-1].depth > depth:
            st.history.pop()
        if st.committed is not None and depth > st.committed.depth:
            st.history.append(replace(st.committed, depth=depth))
        st.committed = None
        st.request = None
        st.request_forms = []
        st.request_touched = set()
        # the reasons behind what the board must now change: only when the game went forward
        # (after a takeback the engine's record of effects is an older turn's)
        st.reasons = {}
        if advanced and st.effectful:
            last = st.history[-1] if st.history else None
            move = last.action if last is not None and last.depth == depth and isinstance(last.action, Move) else None
            st.reasons = st.words.effect_reasons(st.pos.var("effects", ()), move)
        if advanced:
            st.moved_at = st.now
        out += prompts.withdraw_prompt(st, keep_standing=True)
        if st.mode == CORRECT:
            st.belief = correction.half_fixed_belief(st)
        self._load_position()
        if st.mode != SETUP:
            correction.compare_board(st)
        if st.mode == PLAY and (st.L or st.X):
            out += self._infer(st.now)  # the next move may already be on the board
        return out + self._refresh(st.now)

    def request_move(self, move: Move) -> list[Output]:
        """A move someone else chose (the computer, a remote player) for a person to carry out.
        It is lit; only this move is accepted (in its hand or its full form). A move that
        moves no piece (a hex, a pass) has nothing to carry out: it is reported at once."""
        st = self._st
        forms = st.forms
        if move not in forms.legal:
            raise IllegalMoveError(_("{move} is not a legal move here").format(
                move=st.rules.move_text(st.pos, move)))
        if move in forms.screen_actions.values() or move in forms.standing_actions.values():
            return prompts.withdraw_prompt(st) + self._screen_action(move)
        # the person carries out what they are told: the short settle time is enough
        st.request_forms = [replace(pm, moves=(move,), settle="normal") for pm in forms.pms if move in pm.moves]
        st.request_touched = set()
        st.request = next((pm for pm in st.request_forms if pm.form == "full"), st.request_forms[0])
        st.candidate = None
        out = prompts.withdraw_prompt(st)
        if st.mode == PLAY:
            out += reading.infer(st, st.now)
        return out + self._refresh(st.now)

    def begin_setup(self, target: Iterable[int] | None = None) -> list[Output]:
        """Guide the players from whatever stands on the board to ``target`` (default: what the
        game expects, e.g. the start position of a new game)."""
        st = self._st
        setup.begin(st, frozenset(target) if target is not None else None)
        out = prompts.withdraw_prompt(st)
        out += setup.check_done(st, st.now)
        return out + self._refresh(st.now)

    # ----- the steps ----------------------------------------------------------------------------
    def _load_position(self) -> None:
        """Read the game: the forms of every action now, and the question it asks itself."""
        st = self._st
        st.forms = Forms(st.rules, st.pos, lambda a: st.words.action_text(st.pos, a), st.effectful)
        st.E = st.forms.expected
        st.target = st.forms.target
        st.standing = prompts.standing_prompt(st)

    def _infer(self, t: int) -> list[Output]:
        """The board changed: read it in the current mode."""
        st = self._st
        if st.mode == CORRECT:
            correction.on_change(st)
            return []
        if st.mode == SETUP:
            return setup.check_done(st, t)
        if st.mode != PLAY:
            return []
        return reading.infer(st, t)

    def _screen_action(self, action: Action) -> list[Output]:
        """A move or answer made on the screen (a hex, a pass, "stay", a step chosen by
        tapping): reported at once; the board is guided afterwards if it must change."""
        st = self._st
        return reading.done(st, action, st.now) + self._refresh(st.now)

    def _refresh(self, t: int) -> list[Output]:
        """Report what changed in the picture since it was last shown."""
        st = self._st
        if st.mode == WAITING:
            return []
        out: list[Output] = prompts.sync_standing(st)
        v = view(st, t)
        shown = st.shown
        if v.screen != shown.screen:
            out.append(v.screen)
        if v.meanings != shown.meanings:
            out.append(LedsChanged(MappingProxyType(dict(v.meanings))))
        if v.guidance != shown.guidance:
            out.append(v.guidance)
        if v.illegal and v.illegal != shown.illegal:
            out.append(IllegalMoveShown(v.illegal, v.origins, v.guidance.text))
        bad = ("out-of-sync", "setup")
        if v.status == "out-of-sync" and shown.status != "out-of-sync":
            out.append(OutOfSync(v.guidance.remove, v.guidance.place, t))
        elif v.status not in bad and shown.status in bad:
            out.append(InSync(t))
        st.shown = v
        return out
