"""The chess clock screen: two big halves, one per player, each tapped by its player; the game's
status, the board's guidance, the last moves and the procedures' buttons underneath.

In a tournament game each half carries its player's own buttons (offer a draw, claim a draw,
tap a result, resign), so the app knows who asked. The half whose clock is not running is
disabled, as on a real clock; before the start, Black's half starts White's clock.
"""

from __future__ import annotations

from dataclasses import dataclass

from ...tournament.clock import format_time
from .. import texts as T
from .board_link import BoardRoom
from .clock_room import ClockRoom
from .display import Display
from .game_room import GameRoom
from .menu import Menu
from .play import Play
from .game import colour_names, move_rows, result_headline

LOW_MS = 10_000


@dataclass(frozen=True)
class HalfView:
    side: int
    name: str
    detail: str  # colour, rating
    face: str
    running: bool
    can_tap: bool
    flagged: bool
    low: bool  # under ten seconds: tenths shown
    info: str  # move count, period, delay, illegal moves
    tapped: str  # the result this player tapped, if any


@dataclass(frozen=True)
class ClockView:
    header: str
    halves: tuple[HalfView, HalfView]  # left, right
    status: str
    guidance: str
    notice: str
    last_moves: str
    tournament: bool
    paused: bool
    over: bool
    can_pause: bool
    can_resume: bool
    can_undo: bool
    can_draw: bool
    can_resign: bool
    can_claim: bool
    banner: str
    offer: str = ""  # a draw offer standing (until the opponent moves or answers)


class ClockPresenter:
    def __init__(self, clock: ClockRoom, game: GameRoom, play: Play, board: BoardRoom, menu: Menu,
                 display: Display) -> None:
        self.clock = clock
        self.game = game
        self.play = play  # the casual game's undo, draw and resignation
        self.board_room = board  # the board's guidance, and whether it is connected
        self.game_menu = menu
        self.display = display

    # ----- commands -------------------------------------------------------------------------
    def tap(self, position: int) -> None:
        """A tap on the left (0) or right (1) half."""
        self.clock.tap(self._side(position))

    def pause(self) -> None:
        self.clock.pause()

    def resume(self) -> None:
        self.clock.resume()

    def board(self) -> None:
        self.clock.toggle_view()

    def offer(self, position: int) -> None:
        self.clock.offer_draw_by(self._side(position))

    def claim(self, position: int) -> None:
        self.clock.claim_by(self._side(position))

    def result(self, position: int) -> None:
        self.clock.result_by(self._side(position))

    def resign(self, position: int) -> None:
        self.clock.resign_by(self._side(position))

    def undo(self) -> None:
        self.play.undo()

    def offer_casual(self) -> None:
        self.play.offer_draw()

    def resign_casual(self) -> None:
        self.play.resign()

    def menu(self) -> None:
        self.game_menu.open()

    def _side(self, position: int) -> int:
        return position if not self.clock.swapped else 1 - position

    # ----- the view ---------------------------------------------------------------------------
    def view(self) -> ClockView | None:
        table, s = self.game.table, self.game.session
        if table is None or s is None or table.clock is None:
            return None
        t = self.game.clock_ms()
        c = table.clock
        view = c.view(t)
        over = s.is_over
        setup = table.setup
        halves = []
        for side in (0, 1):
            ms = view.times[side]
            running = view.running == side and not over
            info = []
            if c.started:
                info.append(T.MOVES_MADE.format(n=view.moves[side] + (1 if view.running == side else 0)))
            if len(c.control.periods) > 1:
                info.append(T.PERIOD.format(n=view.periods[side] + 1))
            if running and view.delay_left:
                info.append(T.DELAY.format(time=format_time(view.delay_left)))
            if table.illegal.get(side):
                info.append(T.ILLEGAL_COUNT.format(n=table.illegal[side]))
            rating = setup.ratings[side] if side < len(setup.ratings) else None
            word = colour_names(s.rules)[side]
            colour = word if s.seats[side].name != word else ""
            detail = " \u00b7 ".join(x for x in (colour, str(rating) if rating else "") if x)
            tapped = table.taps.get(side)
            halves.append(HalfView(side, s.seats[side].name, detail, T.FLAG if view.flagged == side else format_time(ms),
                                   running, table.can_press(side), view.flagged == side, ms < LOW_MS,
                                   "  \u00b7  ".join(info), T.RESULT_BUTTONS[tapped] if tapped else ""))
        if self.clock.swapped:
            halves.reverse()
        header = _header(table)
        status = self._status(table, view)
        rows = move_rows(s.moves)
        last = ""
        if rows:
            tail = rows[-2:]
            last = T.LAST_MOVES.format(moves="  ".join(" ".join(x for x in r if x) for r in tail))
        live = not over and s.pos.pending is None
        board = self.board_room
        return ClockView(
            header, (halves[0], halves[1]), status, board.guidance, self.display.notice, last, table.tournament,
            view.paused, over, live and view.counting, live and view.paused and view.flagged is None,
            not table.tournament and s.can_undo(), live and not table.tournament and s.draw_offer is None,
            not over, live and table.tournament, "" if board.connected else T.BOARD_DISCONNECTED, _offer(table, s))

    def _status(self, table, view) -> str:
        s = self.game.session
        if s.result is not None:
            return result_headline(s, s.result)
        c = table.clock
        if not c.started:
            starter = 1 if table.nsides == 2 else 0
            return T.CLOCK_TAP_TO_START.format(name=s.seats[starter].name, other=s.seats[s.turn].name)
        if view.paused:
            return T.CLOCK_PAUSED_ARBITER if table.tournament else T.CLOCK_PAUSED
        if s.pos.pending is not None:
            return T.FIGHT_PENDING
        seat = s.seats[s.turn]
        colour = colour_names(s.rules)[s.turn]
        text = (T.TO_MOVE if seat.name == colour else T.TO_MOVE_COLOUR).format(name=seat.name, colour=colour)
        if not table.tournament and s.in_check():
            text += "  " + T.CHECK
        return text


def _offer(table, s) -> str:
    """A standing draw offer: one player's tap on the draw, from the offer or the result button."""
    if s.is_over or len(table.taps) != 1:
        return ""
    ((player, result),) = table.taps.items()
    if result != "1/2-1/2" or not table.offers or table.offers[-1][1] != player:
        return ""
    other = 1 - player
    return T.OFFER_STANDING.format(name=s.seats[player].name, other=s.seats[other].name)


def _header(table) -> str:
    setup = table.setup
    parts = []
    if setup.round and setup.board:
        parts.append(T.HEADER_PAIRED.format(round=setup.round, board=setup.board))
    elif setup.round:
        parts.append(f"{T.ROUND_LABEL} {setup.round}")
    if setup.event:
        parts.append(setup.event)
    from ...tournament.timecontrol import PRESETS

    preset = next((p.key for p in PRESETS if p.control.pgn() == setup.time_control), None)
    clock = T.CLOCK_PRESETS.get(preset) or setup.time_control or ""
    parts.append(T.MODE_NAMES[setup.mode] + " \u00b7 " + clock)
    return "  \u2013  ".join(parts)
