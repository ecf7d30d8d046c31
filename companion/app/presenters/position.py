"""Start from a position (chess and Combat Chess): set it up on the board, say on the screen
which piece stands where, confirm; the game then starts from it (its FEN is the game's start
position, in the journal like any).

The reed switches tell where pieces stand, not which: a square the board senses with no piece
named yet is marked "?" on the screen; a piece named on a square the board does not sense is
drawn faded until it is put there. A tap on a square names it with the piece chosen in the
palette (or empties it). "Start position" fills in the usual start to change from there. The
side to move is chosen with one tap; castling rights follow from kings and rooks on their
first squares. Confirming checks the position with the game's own rules (one line saying what
is wrong: two white kings, a pawn on the last rank, the side not to move in check).

A position can also be typed as text (FEN) on the on-screen keyboard of Load / Save
(presenters/game_text.py, ``type_for``): it fills the screen, to set up on the board and
confirm as any.

Plain Python; the board events keep the BoardRoom's ``sensed`` up to date.
"""

from __future__ import annotations

from dataclasses import dataclass

from ...errors import CompanionError
from ...games import make_rules
from .. import texts as T
from .board import BoardView, SquareView, T_FILES, _name
from .board_link import BoardRoom
from .display import Display
from .messages import UseBoardFor
from .start import POSITION_GAMES

#: The palette: the six pieces of each side, then an empty square.
PIECES = ("K", "Q", "R", "B", "N", "P")
EMPTY = "-"
#: Castling rights that a king and a rook on their first squares give (FEN letters).
CASTLES = (("K", 4, 7, 0), ("Q", 4, 0, 0), ("k", 60, 63, 1), ("q", 60, 56, 1))


def fen_of(pieces: dict[int, tuple[str, int]], turn: int) -> str:
    """The FEN of ``pieces`` (square -> (code, owner 0/1)) on 8x8, ``turn`` to move, castling
    wherever king and rook stand on their first squares, no en passant, move 1."""
    rows = []
    for rank in range(7, -1, -1):
        row, gap = "", 0
        for file in range(8):
            piece = pieces.get(rank * 8 + file)
            if piece is None:
                gap += 1
                continue
            if gap:
                row, gap = row + str(gap), 0
            code, owner = piece
            row += code.upper() if owner == 0 else code.lower()
        rows.append(row + (str(gap) if gap else ""))
    castling = ""
    for letter, king, rook, owner in CASTLES:
        if pieces.get(king) == ("K", owner) and pieces.get(rook) == ("R", owner):
            castling += letter
    return f"{'/'.join(rows)} {'w' if turn == 0 else 'b'} {castling or '-'} - 0 1"


def pieces_of(_rules, pos) -> dict[int, tuple[str, int]]:
    return {sq: (p.kind.code, p.owner) for sq, p in pos.pieces()}


@dataclass(frozen=True)
class PaletteChoice:
    key: str  # "K0" (white king), "p1" ... or "-" (empty)
    glyph: str
    owner: int
    selected: bool


@dataclass(frozen=True)
class PositionView:
    title: str
    palette: tuple[PaletteChoice, ...]
    turn: str  # "White to move"
    unnamed: int  # squares the board senses with no piece named
    missing: int  # named pieces the board does not sense
    status: str  # what is left to do, or why the position cannot be played
    ready: bool


class PositionPresenter:
    """The position being set up; ``start`` (the start screen's presenter) starts the game with
    its players and dice."""

    def __init__(self, board: BoardRoom, display: Display, start) -> None:
        self.board_room = board  # the sensors (and the simulated board) the position is set up on
        self.display = display
        self.start = start
        self.game = "chess"
        self.pieces: dict[int, tuple[str, int]] = {}
        self.turn = 0
        self.chosen = "P0"
        self.problem = ""

    # ----- commands ------------------------------------------------------------------------------
    def open(self, game: str) -> None:
        """From the start screen: set a position up for ``game`` (chess or Combat Chess)."""
        if game not in POSITION_GAMES:
            return
        self.game, self.problem = game, ""
        try:
            self.board_room.use_board_for(UseBoardFor(game))
        except CompanionError as e:
            self.display.start_problem = str(e)
            self.display.changed()
            return
        self.display.screen = "position"
        self.display.changed()

    def choose(self, key: str) -> None:
        if key == EMPTY or (len(key) == 2 and key[0].upper() in PIECES and key[1] in "01"):
            self.chosen = key
            self.display.changed()

    def tap(self, square: int) -> None:
        """Name the square with the chosen piece (or empty it); on the simulated board the
        piece is put there (or taken off) too."""
        if self.chosen == EMPTY:
            self.pieces.pop(square, None)
        else:
            self.pieces[square] = (self.chosen[0].upper(), int(self.chosen[1]))
        self.problem = ""
        sim = self.board_room.link.simulated
        if sim is not None and (square in self.pieces) != (square in self.board_room.sensed):
            sim.toggle(square, self.board_room.clock_ms())
        self.display.changed()

    def hold(self, square: int) -> None:
        self.tap(square)

    def toggle_turn(self) -> None:
        self.turn = 1 - self.turn
        self.display.changed()

    def standard(self) -> None:
        """The usual start position, to change from there."""
        rules = make_rules(self.game)
        self.pieces = pieces_of(rules, rules.start_position())
        self.turn, self.problem = 0, ""
        self._fill_simulated()
        self.display.changed()

    def clear(self) -> None:
        self.pieces, self.problem = {}, ""
        self._fill_simulated()
        self.display.changed()

    def _fill_simulated(self) -> None:
        self.board_room.set_simulated(self.pieces)

    def position_text(self) -> str:
        """The position as text (FEN) to edit on the keyboard."""
        return fen_of(self.pieces, self.turn)

    def load_text(self, text: str) -> str | None:
        """A position typed as text (FEN for chess and Combat Chess, as Load / Save writes it):
        it replaces the one on screen, to set up on the board and confirm; None, or what is
        wrong in one line (nothing changes then)."""
        try:
            pos = make_rules(self.game).position_from_text(text.strip())
        except CompanionError as e:
            return T.POSITION_WRONG.format(reason=_plain(str(e)))
        self.pieces, self.turn, self.problem = pieces_of(None, pos), pos.turn, ""
        self._fill_simulated()
        self.display.changed()
        return None

    def cancel(self) -> None:
        self.display.screen = "start"
        self.display.changed()

    def confirm(self) -> None:
        """Start the game from this position, if the game's rules accept it."""
        fen = fen_of(self.pieces, self.turn)
        try:
            make_rules(self.game).position_from_text(fen)
        except CompanionError as e:
            self.problem = T.POSITION_WRONG.format(reason=_plain(str(e)))
            self.display.changed()
            return
        self.start.start(start_text=fen)

    # ----- views --------------------------------------------------------------------------------
    def view(self) -> PositionView:
        sensed = self.board_room.sensed
        unnamed = len(sensed - set(self.pieces))
        missing = len(set(self.pieces) - sensed)
        palette = tuple(PaletteChoice(f"{code}{owner}", T.PIECE_GLYPHS[T.PIECE_CODES[code]], owner,
                                      self.chosen == f"{code}{owner}")
                        for owner in (0, 1) for code in PIECES)
        palette += (PaletteChoice(EMPTY, "", -1, self.chosen == EMPTY),)
        if self.problem:
            status = self.problem
        elif unnamed or missing:
            status = T.POSITION_TODO.format(unnamed=unnamed, missing=missing)
        else:
            status = T.POSITION_READY
        return PositionView(T.POSITION_TITLE.format(game=T.GAME_TITLES.get(self.game, self.game)), palette,
                            T.TO_MOVE.format(name=T.COLOUR_NAMES[self.turn]), unnamed, missing, status,
                            not self.problem and bool(self.pieces))

    def board(self) -> BoardView:
        sensed = self.board_room.sensed
        frame = self.board_room.frame
        squares = []
        for sq in range(64):
            piece = self.pieces.get(sq)
            light = frame[sq] if sq < len(frame) else (0, 0, 0)
            view = dict(index=sq, name=_name(sq, 8), dark=(sq % 8 + sq // 8) % 2 == 0,
                        light=None if light == (0, 0, 0) else light)
            if piece is not None:
                code, owner = piece
                view.update(glyph=T.PIECE_GLYPHS[T.PIECE_CODES[code]], owner=owner, lifted=sq not in sensed)
            elif sq in sensed:
                view.update(stray=True, glyph="?", owner=-1)
            squares.append(SquareView(**view))
        return BoardView(8, 8, tuple(squares), tuple(T_FILES[:8]), tuple(str(r + 1) for r in range(8)),
                         self.display.version)


def _plain(message: str) -> str:
    """A FEN error in the players' words: the notation's name left out."""
    return message.removeprefix("FEN: ").replace("FEN ", "")
