"""The screen's board: what each square shows (plain values; the board widget only paints).

A square shows the game's piece (glyph, owner, fatigue badge), the colour its LED has right
now (the palette's frame, so the screen and the board agree), and marks for what the sensors
say differently: a piece lifted off its square is drawn faded, a piece sensed where the game
has none is drawn as the piece in hand (or a neutral disc). While a piece of the side to move
is lifted in Combat Chess, each square it could attack shows the chance of winning that fight.

Games on a map of seats (Dungeon Chess) draw their terrain (water, void) and their units as
discs in the player's colour with the unit's short code (``KN``, ``SK``): legible on a 20x20
board at 800x480, where a chess glyph of 20 pixels is not. A game on a map of seats whose every
piece is one of the standard set (four-player chess) is drawn with the chess glyphs, each in its
player's colour. A player out whose pieces stay on the board (four-player chess's dead armies,
``pos.var("out")``) has them drawn grey, but for a King still live (``pos.var("resigned")``).
While the armies are deployed the board shows the units placed so far (there is no game yet).
"""

from __future__ import annotations

from dataclasses import dataclass

from ...board.palette import Meaning
from ...board.ports import RGB
from ...core.geometry import VOID, WATER
from ...core.rules import goal_lines
from .. import texts as T
from .. import theme
from .board_link import BoardRoom
from .computer_turns import ComputerTurns
from .display import Display
from .dungeon_setup import DungeonSetup
from .game_room import GameRoom
from .names import draws_units, has_seats as _has_seats, standard_glyph

TERRAIN_NAMES = {WATER: "water", VOID: "void"}


@dataclass(frozen=True)
class SquareView:
    index: int
    name: str
    dark: bool
    light: RGB | None  # the LED colour, None when the LED is off
    glyph: str = ""
    owner: int = -1
    fatigue: int = 0
    lifted: bool = False  # the game's piece is off the board (in a hand)
    stray: bool = False  # the board senses a piece the game does not have here
    odds: str = ""  # "58%": the chance of winning a fight on this square
    last_move: bool = False
    check: bool = False
    terrain: str = "floor"  # floor, water or void
    badge: str = ""  # a unit's state in a few letters: "H2" hexed for 2 more turns, "W" wounded
    colour: str = ""  # a colour the game gives the square (KoL Chess: white, green, black, red, blue)
    zone: bool = False  # marked while a piece's info is open (Chess 2: inside the Elephant's box)
    dead: bool = False  # a piece of a player who is out, left on the board as a grey wall


@dataclass(frozen=True)
class BoardView:
    width: int
    height: int
    squares: tuple[SquareView, ...]
    files: tuple[str, ...]
    ranks: tuple[str, ...]
    version: int
    units: bool = False  # pieces are units: a disc in the owner's colour with the unit's code
    owner_colours: tuple = ()  # screen colour (RGBA) of each player, for units
    lines: tuple[int, ...] = ()  # ranks drawn as a line below them (Chess 2's midline: 4)
    #: the square the play is about (a lifted piece, a square to fix, the last move, the next
    #: unit's spawn zone): a map shown in part is centred on it
    focus: int | None = None


class BoardPresenter:
    """View of the board: the game's (or the armies being deployed), as the sensors and the
    LEDs show it; ``tap`` and ``hold`` are the widget's two gestures."""

    def __init__(self, board: BoardRoom, game: GameRoom, dungeon: DungeonSetup, ai: ComputerTurns,
                 display: Display) -> None:
        self.board = board
        self.game = game
        self.dungeon = dungeon
        self.ai = ai  # the computer's move, lit for a person to make, is the view's focus
        self.display = display
        self.zone_square: int | None = None  # the piece whose zone is marked (its info was asked)
        self._odds_key = None
        self._odds: dict[int, str] = {}

    @property
    def simulated(self) -> bool:
        return self.board.link.simulated is not None

    def tap(self, square: int) -> None:
        """A short tap: lift/place on the simulated board, piece info otherwise."""
        if self.info_mode or not self.simulated:
            self.zone_square = square
            self.display.show_piece_info(square)
        else:
            self.board.tap_square(square)

    def hold(self, square: int) -> None:
        """A long press always shows the piece's info (fatigue, fights)."""
        self.zone_square = square
        self.display.show_piece_info(square)

    @property
    def info_mode(self) -> bool:
        """The next tap on the board shows a piece (the game bar's Info) instead of moving it."""
        return self.display.info_mode

    def toggle_info_mode(self) -> None:
        self.display.info_mode = not self.display.info_mode
        if not self.display.info_mode:
            self.zone_square = None
        self.display.changed()

    def view(self) -> BoardView:
        width, height = self.board.link.width, self.board.link.height
        session = self.game.session
        prep = self.dungeon.prep if session is None else None
        rules = session.rules if session is not None else (prep.rules if prep is not None else None)
        pos = session.pos if session is not None else None
        sensed = self.board.sensed
        if session is not None:
            expected = session.rules.expected_occupancy(pos)
        elif prep is not None and prep.deployment is not None:
            expected = prep.deployment.occupied()
        else:
            expected = frozenset()
        units = draws_units(rules)
        last = session.last_move() if session is not None else None
        tournament = self.game.table is not None and self.game.table.tournament
        if tournament and self.game.table.setup.last_move is False:
            last = None
        check_sq = set()
        if session is not None and session.in_check() and not tournament:
            check_sq = set(pos.royals[pos.turn])
        hand = self._piece_in_hand(expected, sensed)
        odds = self._lifted_odds(expected, sensed)
        fight_board = self._fight_board()
        placed = {}
        if prep is not None and prep.deployment is not None:
            placed = {sq: (rules.roster_kind(unit), player) for player, unit, sq in prep.deployment.placed}
        gone = removed_pieces(session, units) if session is not None else {}
        dead = dead_squares(pos) if pos is not None else frozenset()
        zone = self._zone(session)
        terrain = rules.geometry.terrain if rules is not None and rules.geometry.size == width * height else None
        tints = rules.square_colours() if terrain is not None and hasattr(rules, "square_colours") else ()
        water_light = self.board.meanings if terrain is not None else {}
        squares = []
        for sq in range(width * height):
            view = _square_fields(sq, width, terrain, self.board.frame, water_light)
            view.update(last_move=last is not None and sq in last, check=sq in check_sq, odds=odds.get(sq, ""),
                        colour=tints[sq] if tints else "", zone=sq in zone)
            piece = pos.board[sq] if pos is not None else None
            if fight_board is not None and sq in fight_board:
                piece = fight_board[sq]
            if piece is not None:
                view.update(_piece_fields(piece, units), lifted=sq in expected and sq not in sensed, dead=sq in dead)
            elif sq in placed:
                kind, owner = placed[sq]
                view.update(glyph=kind.code, owner=owner, lifted=sq not in sensed)
            elif sq in sensed and sq not in expected:
                look = gone.get(sq, hand)
                view.update(stray=True, glyph=look[0] if look else "", owner=look[1] if look else -1)
            squares.append(SquareView(**view))
        colours = owner_colours(rules) if _has_seats(rules) else ()
        focus = self._focus(expected, sensed, last, prep)
        return BoardView(width, height, tuple(squares), tuple(T_FILES[:width]),
                         tuple(str(r + 1) for r in range(height)), self.display.version, units, colours,
                         goal_lines(rules, width, height), focus)

    def _focus(self, expected, sensed, last, prep) -> int | None:
        """What the play is about now, for a map shown in part: a lifted piece (or the first
        of several), else a square the board must fix, else the computer's move or the coach's
        hint (its piece), else the last move's arrival, else
        (deploying) the first free square of the next unit's spawn zone."""
        lifted = sorted(expected - sensed)
        extra = sorted(sensed - expected)
        if lifted and not extra:
            return lifted[0]
        if extra or lifted:
            return (extra or lifted)[0]
        if self.ai.requested is not None:  # the computer's move, lit for a person to make
            return self.ai.requested.frm
        hint = [sq for sq, m in self.board.coach_lights.items() if m is Meaning.HINT_FROM]
        if hint:  # the coach's hint, lit: its piece
            return hint[0]
        if last is not None:
            return tuple(last)[-1]
        if prep is not None and prep.deployment is not None and prep.deployment.next_unit() is not None:
            free = sorted(prep.deployment.free_squares())
            return free[0] if free else None
        return None

    # ----- helpers -------------------------------------------------------------------------------
    def _zone(self, session) -> frozenset[int]:
        """The zone of the piece whose info was asked (the Elephant's box): while its card is
        open, and after it closes for as long as Piece info stays on (the card covers the
        board)."""
        sq = self.zone_square
        if session is None or sq is None or not (self.info_mode or self.display.info_square == sq):
            return frozenset()
        return self.game.extras.zone(session, sq)

    def _fight_board(self):
        """During a fight the board holds the attacker on the defender's square (as moved)."""
        s = self.game.session
        if s is None or s.pos.pending is None or s.pos.pending.kind != "fight":
            return None
        pos = s.pos
        move = pos.pending.get("move")
        board = {move.frm: None, move.to: pos.board[move.frm]}
        if move.capture is not None and move.capture != move.to:
            board[move.capture] = None
        return board

    def _piece_in_hand(self, expected, sensed) -> tuple[str, int] | None:
        s = self.game.session
        if s is None:
            return None
        units = draws_units(s.rules)
        for sq in sorted(expected - sensed):
            p = s.pos.board[sq]
            if p is not None and p.owner == s.pos.turn:
                return (p.kind.code if units else chess_glyph(p.kind)), p.owner
        return None

    def _lifted_odds(self, expected, sensed) -> dict[int, str]:
        """Win chances of the lifted piece's possible fights (Combat Chess only)."""
        s = self.game.session
        if s is None or not s.setup.has_dice or s.pos.pending is not None or s.is_over:
            return {}
        if self.game.table is not None and self.game.table.tournament:
            return {}  # no fight odds before a decision in a tournament (FIDE 11.3)
        lifted = [sq for sq in expected - sensed if s.pos.board[sq] is not None and s.pos.board[sq].owner == s.pos.turn]
        if len(lifted) != 1:
            return {}
        key = (s.pos.hash, lifted[0])
        if key != self._odds_key:
            out = {}
            for m in s.rules.moves_from(s.pos, lifted[0]):
                if m.capture is not None and m.capture not in out:
                    out[m.capture] = percent(s.rules.odds_of_move(s.pos, m).attacker)
            self._odds_key, self._odds = key, out
        return self._odds


T_FILES = "abcdefghijklmnopqrstuvwxyz"


def chess_glyph(kind) -> str:
    """The chess glyph of a piece: by its name (chess), else by the piece of the standard set
    that stands for it (Chess 2's Elephant is a rook: its ``role``; four-player chess's 1-point
    Queen is shown as a Queen: ``shown_as``), else its code."""
    return standard_glyph(kind) or kind.code


def dead_squares(pos) -> frozenset[int]:
    """Squares of pieces left on the board by players who are out (a dead army: grey), but a
    resigned player's King, which is still live (four-player chess)."""
    out = pos.var("out", ()) or ()
    if not out:
        return frozenset()
    live_kings = set(pos.var("resigned", ()) or ())
    return frozenset(sq for sq, p in pos.pieces()
                     if p.owner in out and not (p.owner in live_kings and p.kind.royal))


def position_view(rules, pos, last, frame, meanings, version: int = 0) -> BoardView:
    """A position as the screen's board shows it, with no sensors (a saved game under review):
    its pieces, terrain, the LED colours of ``frame`` and the move ``last`` (from, to) marked."""
    g = rules.geometry
    width, height = g.width, g.height
    units = draws_units(rules)
    tints = rules.square_colours() if hasattr(rules, "square_colours") else ()
    dead = dead_squares(pos)
    squares = []
    for sq in range(width * height):
        view = _square_fields(sq, width, g.terrain, frame, meanings)
        view.update(last_move=last is not None and sq in last, colour=tints[sq] if tints else "")
        piece = pos.board[sq]
        if piece is not None:
            view.update(_piece_fields(piece, units), dead=sq in dead)
        squares.append(SquareView(**view))
    focus = tuple(last)[-1] if last else None
    return BoardView(width, height, tuple(squares), tuple(T_FILES[:width]), tuple(str(r + 1) for r in range(height)),
                     version, units, owner_colours(rules) if _has_seats(rules) else (), goal_lines(rules, width, height),
                     focus)


def _square_fields(sq: int, width: int, terrain, frame, meanings) -> dict:
    """A square's own look: its colour, terrain, and the LED lighting it (water's dim glow left
    out: the water is drawn as water)."""
    file, rank = sq % width, sq // width
    light = frame[sq] if sq < len(frame) else (0, 0, 0)
    ground = TERRAIN_NAMES.get(terrain[sq], "floor") if terrain is not None else "floor"
    if meanings.get(sq) is Meaning.TERRAIN_WATER:
        light = (0, 0, 0)
    return dict(index=sq, name=_name(sq, width), dark=(file + rank) % 2 == 0,
                light=None if light == (0, 0, 0) else light, terrain=ground)


def _piece_fields(piece, units: bool) -> dict:
    """How a piece is drawn: a unit's code and state badge, or a chess glyph and its fatigue."""
    glyph = piece.kind.code if units else chess_glyph(piece.kind)
    return dict(glyph=glyph, owner=piece.owner, fatigue=piece.state.get("fatigue", 0),
                badge=_badge(piece.state) if units else "")


def owner_colours(rules) -> tuple:
    """The screen colour of each player: their map seat's colour word."""
    return tuple(theme.seat_colour(seat.colour) for seat in rules.board_map.seats)


def removed_pieces(session, units: bool) -> dict[int, tuple[str, int]]:
    """Pieces the last turn took off the board besides its capture (an explosion's or a
    Whirlwind's victims, an attacker that lost its duel, an eliminated player's pieces): while
    they still stand on the board they are drawn faded as what they are (a unit's code, a
    chess glyph), not as an unknown piece."""
    rules = session.rules
    kinds = {k.title: k for k in rules.kinds}

    def look(title: str) -> str:
        kind = kinds.get(title)
        if kind is None:
            return ""
        return kind.code if units else chess_glyph(kind)

    out = {}
    for e in session.pos.var("effects", ()):
        if e[0] in ("destroyed", "duel_lost", "captured") and len(e) >= 4 and isinstance(e[1], int):
            out[e[1]] = (look(e[2]), e[3])
        elif e[0] in ("eliminated", "resigned"):
            for sq in e[2]:
                out.setdefault(sq, ("", e[1]))
    return out


def _badge(state) -> str:
    """A unit's state in a few letters for its square (the info card says it in words)."""
    if not state:
        return ""
    if state.get("hex"):
        return f"H{state['hex']}"
    if state.get("wounded"):
        return "W"
    return ""


def _name(sq: int, width: int) -> str:
    return f"{T_FILES[sq % width]}{sq // width + 1}"


def percent(p) -> str:
    """A probability as a whole percentage for a small badge ("58%")."""
    return f"{round(float(p) * 100)}%"
