"""The game screen's side panel: players, whose turn, check, what to do, moves, buttons."""

from __future__ import annotations

from dataclasses import dataclass

from ... import session as S
from .. import texts as T
from .board_link import BoardRoom
from .coach_room import CoachRoom
from .computer_turns import ComputerTurns
from .display import Display
from .game_room import GameRoom
from .menu import Menu
from .names import colour_names
from .play import Play


@dataclass(frozen=True)
class PlayerLine:
    name: str
    player: int
    to_move: bool
    computer: bool
    captured: str  # glyphs of this player's pieces that are gone
    counter: str = ""  # what the game keeps per player (Chess 2: "3 stones")


@dataclass(frozen=True)
class GameView:
    title: str
    players: tuple[PlayerLine, ...]
    status: str
    check: bool
    guidance: str
    notice: str
    thinking: str
    progress: float  # 0..1 while the computer thinks, -1 otherwise
    moves: tuple[tuple[str, str, str], ...]  # ("12.", white's move, black's move)
    marks: tuple[tuple[str, str], ...]  # the fights' results of those moves ("won", "")
    seal: str
    banner: str
    simulated: bool
    legend: str = ""  # what the numbers on the board's pieces mean, when any is shown
    question: str = ""  # a decision the game screen asks (Chess 2's king-turn), in words
    coach: "CoachLine | None" = None  # the coach's row: None where it cannot help (tournament mode)


@dataclass(frozen=True)
class CoachLine:
    """The coach's row for the person to move: its switch, the Hint button, what it says."""

    on: bool  # this seat asked for the coach
    can_hint: bool
    text: str
    progress: float  # 0..1 while the hint is searched, -1 otherwise
    offer_undo: bool  # the last move dropped material: Undo it, one tap


class CoachControls:
    """The coach's row on a game screen (widgets/coach_panel.kv), the same on every game's
    screen (chess, Chess 2, Combat Chess on the game screen; Dungeon Chess, KoL Chess and
    four-player chess on the map screen): its switch, Hint, Undo it, and what the coach says.
    A presenter that has it holds ``self.coach`` (a CoachRoom, or None) and ``self.board``
    (a BoardRoom: the tracker's words come first)."""

    coach: CoachRoom | None
    board: BoardRoom

    def toggle_coach(self) -> None:
        if self.coach is not None:
            self.coach.toggle()

    def hint(self) -> None:
        if self.coach is not None:
            self.coach.ask_hint()

    def undo_blunder(self) -> None:
        if self.coach is not None:
            self.coach.undo()

    def coach_line(self) -> CoachLine | None:
        c = self.coach
        if c is None or not c.available:
            return None
        on = c.is_on()
        if not on and not c.verdict:
            return None  # no row unless asked for (Menu: Coach on / off): the move list keeps its room
        # what the board asks of the players comes first: the coach's words wait (a small
        # screen has no room for both), except its word on the move just made
        text = c.text() if c.verdict or not self.board.guidance else ""
        return CoachLine(on, on and c.hinting is None, text, c.progress, c.offer_undo)


class GamePresenter(CoachControls):
    def __init__(self, game: GameRoom, play: Play, ai: ComputerTurns, board: BoardRoom, menu: Menu,
                 display: Display, online=None, coach: CoachRoom | None = None) -> None:
        self.game = game
        self.online = online  # a lichess game's room (online_game_room.py): its clocks, names, link
        self.play = play  # the game's own question (Chess 2's king-turn)
        self.ai = ai  # the computer thinking, or its move asked of the players
        self.board = board  # the board's guidance; the simulated board
        self.game_menu = menu
        self.display = display
        self.coach = coach  # the hint, the threats, the word after a bad move

    def menu(self) -> None:
        self.game_menu.open()

    def view(self) -> GameView:
        s = self.game.session
        banner = self.display.banner
        if s is None:
            return GameView("", (), "", False, "", self.display.notice, "", -1, (), (), "", banner,
                            self.board.link.simulated is not None)
        extras = self.game.extras
        glyph = captured_glyphs(s.rules)
        players = tuple(
            PlayerLine(seat.name, i, s.turn == i and not s.is_over, seat.computer,
                       "".join(glyph(k) for k in s.captured(i)), extras.counter(s, i))
            for i, seat in enumerate(s.seats)
        )
        thinking, progress = "", -1.0
        if self.ai.thinking is not None:
            thinking = T.THINKING.format(name=s.seats[self.ai.thinking.seat].name)
            progress = max(0.0, min(1.0, self.ai.thinking.progress))
        status = status_line(self.game)
        guidance = self.board.guidance  # the tracker's words: what to do on the board, if anything
        if self.ai.requested is not None:
            g = s.rules.geometry
            status = T.COMPUTER_MOVE.format(name=s.seats[s.turn].name, frm=g.name_of(self.ai.requested.frm),
                                            to=g.name_of(self.ai.requested.to))
        seal = T.COMMITMENT.format(short=s.setup.commitment[:8]) if s.setup.commitment else ""
        tournament = self.game.table is not None and self.game.table.tournament  # no word of check (FIDE 11.3)
        question = self.play.question()
        if self.online is not None and self.online.active:
            return online_view(self.online, GameView(
                T.GAME_TITLES.get(s.setup.game, s.setup.game), players, status, s.in_check(), guidance,
                notice_line(self.display), "", -1, move_rows(s.moves), fight_marks(s.moves, extras.move_mark), "",
                banner, self.board.link.simulated is not None))
        return GameView(
            T.GAME_TITLES.get(s.setup.game, s.setup.game), players, status, s.in_check() and not tournament, guidance,
            notice_line(self.display), thinking, progress, move_rows(s.moves), fight_marks(s.moves, extras.move_mark),
            seal,
            banner, self.board.link.simulated is not None,
            T.FATIGUE_LEGEND if any(p.state.get("fatigue") for _, p in s.pos.pieces()) else "",
            question.text if question is not None else "",
            self.coach_line(),
        )


def online_view(online, view: GameView) -> GameView:
    """A lichess game's side panel: each player's clock (lichess's times), whose move it is
    (lichess's move to make on the board, lit), what lichess said, the last chat line, and
    whether the board is connected."""
    from dataclasses import replace

    from .. import online_texts as W

    s, m = online.game.session, online.machine
    if m is None or m.full is None:
        return replace(view, seal=online.online.connection_word())
    now = online.clock_ms()
    white, black, running = m.clocks(now)
    players = []
    for line, ms in zip(view.players, (white, black)):
        clock = clock_face(ms) if m.has_clock() else (W.CORRESPONDENCE_CLOCK.format(days=m.full.days_per_turn)
                                                      if m.full.days_per_turn else "")
        players.append(replace(line, counter=clock,
                               to_move=line.to_move if s.result is None else False))
    status = view.status
    if s.result is None:
        other = m.opponent.shown if m.opponent else "?"
        if online.owed:
            uci = online.owed[0]
            status = W.MAKE_THEIR_MOVE.format(name=other, frm=uci[:2], to=uci[2:4])
        else:
            status = W.YOUR_MOVE if s.turn == online.my_seat else W.THEIR_MOVE.format(name=other)
        deadline = m.first_move_deadline_ms()
        if deadline is not None and s.turn == online.my_seat and len(m.moves) < 2:
            online_notice = W.FIRST_MOVE.format(seconds=max(0, (deadline - now) // 1000))
        else:
            online_notice = online.notice
    else:
        online_notice = W.LINK.format(url=online.game.table.setup.site) if online.game.table else ""
    chat = m.chat[-1] if m.chat else None
    return replace(view, players=tuple(players), status=status,
                   notice=" ".join(filter(None, (online_notice, view.notice))),
                   legend=W.CHAT.format(name=chat.username, text=chat.text) if chat else "",
                   seal=online.online.connection_word())


def clock_face(ms: int) -> str:
    """lichess's time left: 1:02:03, 9:58, 0:09.4 under ten seconds."""
    ms = max(0, ms)
    if ms < 10_000:
        return f"0:{ms // 1000:02d}.{(ms % 1000) // 100}"
    seconds = ms // 1000
    h, rest = divmod(seconds, 3600)
    mnt, sec = divmod(rest, 60)
    return f"{h}:{mnt:02d}:{sec:02d}" if h else f"{mnt}:{sec:02d}"


def notice_line(display: Display) -> str:
    """The small line under the status: what just happened, or how piece info works."""
    return display.notice or (T.INFO_HINT if display.info_mode else "")


def status_line(game: GameRoom) -> str:
    s = game.session
    if s.result is not None:
        return result_headline(s, s.result)
    if s.pos.pending is not None:
        kind = s.pos.pending.kind
        if kind in game.extras.decision_screens:
            return T.DUEL_PENDING
        if kind != "fight":
            d = s.pos.pending
            player = d.player if 0 <= d.player < len(s.seats) else s.turn
            return to_move(s.seats[player].name, colour_names(s.rules)[player])
        return T.FIGHT_PENDING
    text = to_move(s.seats[s.turn].name, colour_names(s.rules)[s.turn])
    tournament = game.table is not None and game.table.tournament  # no word of check (FIDE 11.3)
    return text + ("  " + T.CHECK if s.in_check() and not tournament else "")


def to_move(name: str, colour: str) -> str:
    return (T.TO_MOVE if name == colour else T.TO_MOVE_COLOUR).format(name=name, colour=colour)


def result_headline(s: S.Session, result: S.GameResult) -> str:
    reason = T.RESULT_REASONS.get(result.reason, result.reason)
    if result.is_draw:
        return f"{T.DRAW}: {reason}"
    return f"{winners_words(s, result)}: {reason}"


def winners_words(s: S.Session, result: S.GameResult) -> str:
    """"Ann wins", or a team or players level on points together: "Ann and Cy win"."""
    return T.winners_text(s.seats[w].name for w in sorted(result.winners) if 0 <= w < len(s.seats))


def move_rows(moves: list[S.MoveEntry], names: tuple[str, ...] = ()) -> tuple[tuple[str, str, str], ...]:
    """The move list in pairs ("1.", white's move, black's move), in standard notation; with
    more than two players one move per row ("7.", the player's name, the move)."""
    if len(names) > 2:
        return tuple((f"{i + 1}.", names[m.player], m.san) for i, m in enumerate(moves))
    return tuple((n, w.san if w else "", b.san if b else "") for n, w, b in _pairs(moves))


def fight_marks(moves: list[S.MoveEntry], mark=None) -> tuple[tuple[str, str], ...]:
    """For each row of :func:`move_rows`: how each move's fight ended ("won", "lost", ...), or
    the game's own mark of the move (``mark(entry)``: Chess 2's "duel won")."""
    def word(m) -> str:
        if m is None:
            return ""
        if m.fight:
            return T.FIGHT_MARK[m.fight]
        return mark(m) if mark is not None else ""

    return tuple(tuple(word(m) for m in (w, b)) for _, w, b in _pairs(moves))


def captured_glyphs(rules):
    """A kind name -> its chess glyph (a game of the standard set whose kinds are named by
    army, Chess 2's ``elephant``, is drawn by the piece that stands for it: its role)."""
    roles = {k.name: k.role for k in rules.kinds}
    return lambda name: T.PIECE_GLYPHS.get(name) or T.PIECE_GLYPHS.get(roles.get(name, ""), "?")


def _pairs(moves: list[S.MoveEntry]):
    rows: list[list] = []
    for m in moves:
        if m.player == 0 or not rows or rows[-1][2] is not None:
            rows.append([f"{len(rows) + 1}.", None, None])
        rows[-1][1 + m.player] = m
    return rows
