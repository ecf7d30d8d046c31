"""The link to the board: what its sensors say, what its LEDs show, the board check, and
playing maps of different sizes on it.

:class:`BoardRoom` owns the board link and everything the board itself tells: the squares it
senses, whether it is connected, the tracker's guidance (what the LEDs mean, the words telling
the players what to do on the board, whether the board agrees with the game) and the LED frame
rendered from it. Board events come from the board's own thread through the Mailbox; the room
keeps what they say and publishes each one on the bus (the game or the deployment being set up
feeds its tracker with it). The tracker's outputs come back through the bus too (LedsChanged,
GuidanceChanged, InSync, ...).

A game is played on its map's squares: 8x8 for chess, 10x10, 8x20 or 20x20 for Dungeon Chess.
The simulated board is simply made anew at the map's size; a hardware board is opened again for
the map (companion/board/hardware.py: "To play a map of another size, stop both ports and open
the board again"), and one too small for the map says so and stays as it was.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable

from ...board.palette import PLAYERS, Meaning, Pattern, blinking, phase, render
from ...board.ports import BoardConnected, BoardDisconnected, OccupancySnapshot, SquareChanged, blank_frame
from ...board.simulated import SimulatedBoard
from ...board.tracker import GuidanceChanged, IllegalMoveShown, InSync, LedsChanged, OutOfSync
from ...errors import CompanionError, HardwareError
from ...games import GAMES
from ...maps import load_map
from .. import texts as T
from .display import Display
from .mailbox import Mailbox
from .messages import Bus

#: Milliseconds each LED stays lit during the board check's walk.
WALK_STEP_MS = 250
#: The tracker's outputs about the board that this room keeps.
GUIDE_EVENTS = (LedsChanged, GuidanceChanged, IllegalMoveShown, InSync, OutOfSync)
BOARD_EVENTS = (SquareChanged, OccupancySnapshot, BoardDisconnected, BoardConnected)
#: Screens the board check goes back to.
CHECK_RETURNS = ("start", "game", "setup", "fight", "game_over", "draft", "deploy")


@dataclass
class BoardLink:
    """The board the app talks to: its two ports, and the simulated board when there is no
    hardware (then taps on the screen's board move its pieces)."""

    sensors: Any
    leds: Any
    width: int
    height: int
    simulated: Any = None
    name: str = "simulated"
    #: opens the same board for a map of another size: (width, height) -> BoardLink (None: a
    #: simulated board is simply made anew; hardware without it plays only its own size)
    opener: Callable[[int, int], "BoardLink"] | None = None

    @property
    def size(self) -> int:
        return self.width * self.height


class BoardRoom:
    def __init__(self, link: BoardLink, display: Display, mailbox: Mailbox, bus: Bus,
                 clock_ms: Callable[[], int]) -> None:
        self.link = link
        self.display = display
        self.mailbox = mailbox
        self.bus = bus
        self.clock_ms = clock_ms
        self.sensed: frozenset[int] = frozenset()
        self.connected = True
        self.disconnect_reason = ""
        # what the tracker says about the board (the game's, or the deployment's)
        self.meanings: dict[int, Meaning] = {}
        self.guidance = ""
        self.in_sync = True
        #: the coach's lights (a hint, threatened pieces: coach_room.py), under the tracker's own
        self.coach_lights: dict[int, Meaning] = {}
        self.leds_held = False  # the dice are rolling on screen: the LEDs wait to tell the result
        self.frame = blank_frame(link.size)
        self.walk: int | None = None  # the board check's LED walk: the square lit now
        self._walk_t = 0
        self._check_back = "start"
        self._last_leds = None
        self.leds_moved = False
        self._led_meanings: dict | None = None  # what the last LED frame was rendered from
        self._led_patterns: frozenset = frozenset()
        self._led_key: tuple | None = None
        #: blinking lights are timed from here: a light that starts blinking comes on at once
        #: (the computer's or a remote opponent's move is seen the moment it is asked for)
        self._blink_origin = 0
        self._blinking_lights: frozenset = frozenset()

    # ----- the sensors ------------------------------------------------------------------------
    def start(self) -> None:
        self.link.sensors.start(self.sink)

    def sink(self, event) -> None:
        """Any thread: a board event, to the UI thread."""
        self.mailbox.post("board", event)

    def receive(self, event) -> None:
        """UI thread: a board event; kept, then published for the tracker being fed."""
        if isinstance(event, SquareChanged):
            s = set(self.sensed)
            (s.add if event.occupied else s.discard)(event.square)
            self.sensed = frozenset(s)
        elif isinstance(event, OccupancySnapshot):
            self.sensed = frozenset(event.occupied)
        elif isinstance(event, BoardDisconnected):
            self.connected, self.disconnect_reason = False, event.reason
        elif isinstance(event, BoardConnected):
            self.connected, self.disconnect_reason = True, ""
        self.bus.publish(event)
        self.display.changed()

    def request_snapshot(self) -> None:
        self.link.sensors.request_snapshot()

    def banner(self) -> str:
        return "" if self.connected else T.BOARD_DISCONNECTED

    @property
    def simulated(self):
        """The simulated board (None on hardware): taps on the screen move its pieces."""
        return self.link.simulated

    def tap_square(self, square: int) -> None:
        """A tap on the screen's board: on the simulated board it lifts or places a piece;
        on hardware it shows the piece's information."""
        if self.link.simulated is None:
            self.display.show_piece_info(square)
            return
        self.link.simulated.toggle(square, self.clock_ms())

    def set_simulated(self, occupied) -> None:
        """The simulated board set to ``occupied`` (no 32 taps to set up); nothing on hardware."""
        if self.link.simulated is not None:
            self.link.simulated.set_occupancy(frozenset(occupied), self.clock_ms())

    # ----- what the tracker says ----------------------------------------------------------------
    def guide(self, ev) -> None:
        """One of the tracker's outputs about the board (GUIDE_EVENTS)."""
        if isinstance(ev, LedsChanged):
            self.meanings = dict(ev.meanings)
        elif isinstance(ev, (GuidanceChanged, IllegalMoveShown)):
            self.guidance = ev.text
        elif isinstance(ev, InSync):
            self.in_sync = True
        elif isinstance(ev, OutOfSync):
            self.in_sync = False

    def reset_guide(self, *_event) -> None:
        self.meanings, self.guidance, self.in_sync, self.leds_held = {}, "", True, False

    # ----- the LEDs -------------------------------------------------------------------------------
    @property
    def animating(self) -> bool:
        """The LED walk of the board check, or a light flashing fast (a piece put where it may
        not go): the screen needs its full frame rate."""
        return self.walk is not None or Pattern.FLASH in self._led_patterns

    def show_leds(self, t_ms: int) -> None:
        """Render the LED frame, unless it would be the last one again: the same meanings (the
        same dict, or an equal one) in the same blink phase (at rest the pump runs for nothing
        but this check; rendering 400 squares each time cost the 20x20 board 0.5% of a core)."""
        self.leds_moved = False
        if self.leds_held:
            return
        if self.display.screen == "board_check":
            meanings = {self.walk: Meaning.DIAG_TEST} if self.walk is not None else {}
        elif self.coach_lights:
            # what the board asks comes first; the seats' resting colours (a map of seats) give way,
            # told apart by the coach's blinking (a threatened unit blinks yellow, the hint white)
            meanings = {**self.coach_lights, **{sq: m for sq, m in self.meanings.items()
                                                if m not in PLAYERS or sq not in self.coach_lights}}
        else:
            meanings = self.meanings
        if meanings is not self._led_meanings and meanings != self._led_meanings:
            self._led_meanings, self._led_patterns = meanings, blinking(meanings)
            self._led_key = None
            lights = frozenset((sq, m) for sq, m in meanings.items() if blinking((m,)))
            if lights - self._blinking_lights:  # a light starts blinking: its on phase first
                self._blink_origin = t_ms
            self._blinking_lights = lights
        size = self.link.size
        t = t_ms - self._blink_origin
        key = (size, phase(self._led_patterns, t))
        if key == self._led_key and self._last_leds is not None:
            return
        self._led_key = key
        frame = render(meanings, size, t_ms=t)
        if frame != self.frame:
            self.frame = frame
            self.leds_moved = True
        if frame != self._last_leds:
            self._last_leds = frame
            self.link.leds.show(frame)

    # ----- the board check ------------------------------------------------------------------------
    def open_check(self) -> None:
        if self.display.screen != "board_check":
            self._check_back = self.display.screen
        self.walk = None
        self.display.show("board_check")

    def close_check(self) -> None:
        self.walk = None
        self.display.show(self._check_back if self._check_back in CHECK_RETURNS else "start")

    def toggle_walk(self) -> None:
        self.walk = None if self.walk is not None else -1
        self._walk_t = -WALK_STEP_MS
        self.display.changed()

    def step_walk(self, t_ms: int) -> None:
        if self.display.screen != "board_check" or self.walk is None:
            return
        if self.walk == -1 or t_ms - self._walk_t >= WALK_STEP_MS:
            self.walk = (self.walk + 1) % self.link.size
            self._walk_t = t_ms
            self.display.changed()

    # ----- maps of other sizes ----------------------------------------------------------------------
    def use_board_for(self, command) -> None:
        """The UseBoardFor command: the board opened for the game's map (HardwareError when it
        cannot be; the board stays as it was)."""
        info = GAMES.get(command.game)
        if info is None:
            return  # GameSetup says what is wrong
        g = load_map(command.board_map or info.default_map).geometry
        self.use_size(g.width, g.height)

    def use_size(self, width: int, height: int) -> None:
        """Play a map of ``width`` x ``height``: the board is opened again for it when its
        size differs (a hardware board must be large enough; HardwareError says so)."""
        old = self.link
        if (old.width, old.height) == (width, height):
            return
        if old.opener is None and old.simulated is None:
            raise HardwareError(T.BOARD_TOO_SMALL.format(width=old.width, height=old.height, map_width=width,
                                                         map_height=height))
        self.stop()
        self.mailbox.drop("board")  # events of the old board mean nothing on the new one
        if old.opener is not None:
            try:
                new = old.opener(width, height)
            except (OSError, CompanionError):
                self._reopen(old)  # keep playing on the board as it was
                raise
        else:
            sim = SimulatedBoard(width, height)
            new = BoardLink(sim, sim, width, height, simulated=sim, name=old.name)
        self.link = new
        self.sensed = frozenset()
        self.meanings = {}
        self.frame = blank_frame(new.size)
        self._last_leds = None
        new.sensors.start(self.sink)

    def _reopen(self, old: BoardLink) -> None:
        """Open ``old``'s board again at its own size (its ports were stopped for a new size
        that could not be opened); if even that fails, the banner says the board is gone."""
        try:
            again = old.opener(old.width, old.height)
        except (OSError, CompanionError) as e:
            self.connected, self.disconnect_reason = False, str(e)
            return
        self.link = again
        self.sensed = frozenset()
        self._last_leds = None
        again.sensors.start(self.sink)

    def stop(self) -> None:
        for port in (self.link.sensors, self.link.leds):
            try:
                port.stop()
            except Exception:  # noqa: BLE001 - a port that fails to stop must not keep the other (or a new one) from it
                pass


__all__ = ["BoardLink", "BoardRoom", "GUIDE_EVENTS", "BOARD_EVENTS", "WALK_STEP_MS"]
