"""A lichess game played on the board (docs/online.md, "Playing").

:class:`OnlineGameRoom` turns what lichess says about the game into the board's game, and the
board's moves into lichess's: the game opens as any game does (NewGame: a casual table, its
journal, the board set up), with the lichess link as its site and ``lichess:<id>`` as its
source. The opponent's move is asked of the player the way the computer's is
(``Session.request_move``: lit from and to, and only it is accepted from the board), and
played into the game once it stands on the board; the player's own move, read by the tracker
like any move, is sent to lichess (companion.online.game sends it once, never twice). A
takeback or a move lichess refused is undone at the table, and the tracker guides the pieces
back; the clocks are lichess's. The game ends when lichess says so, and is filed in the games
archive with its PGN like every other game (an aborted one is kept with the unfinished games).

It hears lichess's game events (published on the bus by online_room.py) and the game's own
(MovePlayed, PlaySettled, GameOver, GameOpened, GameClosed), wired in flow.py.
"""

from __future__ import annotations

import time
from typing import Callable

from ...errors import CompanionError
from ...online import game as og
from ...session import Adjudicate, MovePlayed, Seat
from ...tournament.table import TableSetup
from .. import online_texts as W
from .display import Display
from .game_room import GameRoom
from .messages import Bus, ComputerMoveChosen, GameClosed, GameOpened, NewGame
from .online_room import OnlineRoom
from .questions import Prompt, PromptOption

#: The prompts asked here (flow.py routes their answers back).
ASKED = ("online-draw", "online-takeback", "online-resign", "online-claim")
SOURCE = "lichess:"


class OnlineGameRoom:
    def __init__(self, online: OnlineRoom, game: GameRoom, display: Display, bus: Bus, *,
                 clock_ms: Callable[[], int], today: Callable[[], str] = lambda: time.strftime("%Y.%m.%d")) -> None:
        self.online = online
        self.bus = bus
        self.game = game
        self.display = display
        self.clock_ms = clock_ms
        self.today = today
        self.game_id: str | None = None  # the lichess game the open game plays
        self.owed: list[str] = []  # lichess's moves the board has not made yet, in order
        self._asked: tuple | None = None  # (session actions, move) last asked of the player
        self._loading = False  # playing the first gameFull's moves into a new game
        self.notice = ""
        self.ended: og.GameEnded | None = None
        self._face = -1

    # ----- what is on ---------------------------------------------------------------------------------
    @property
    def machine(self) -> og.OnlineGame | None:
        p = self.online.play
        g = p.game if p is not None else None
        return g if g is not None and g.game_id == self.game_id else None

    @property
    def active(self) -> bool:
        """The open game is a lichess game."""
        return self.game_id is not None and self.game.session is not None

    @property
    def live(self) -> bool:
        m = self.machine
        return self.active and m is not None and m.is_playing

    def seat_of(self, colour: str) -> int:
        return 0 if colour == "white" else 1

    @property
    def my_seat(self) -> int:
        m = self.machine
        return self.seat_of(m.color) if m is not None else 0

    # ----- lichess's events -------------------------------------------------------------------------------
    def loaded(self, ev: og.GameLoaded) -> None:
        """The game's first line: a new game at a casual table (or the game taken up again)."""
        full = ev.full
        if self.game_id == full.id and self.game.session is not None:
            return
        s = self.game.session
        if s is not None and not s.is_over and self.display.screen not in ("online", "start"):
            # a game is being played at the table: a lichess game begun elsewhere waits on the
            # lichess screen ("Play it on the board") instead of taking the board away
            self.online.publish(self.online.play.leave(full.id) if self.online.play else [])
            self.online.notice = W.NOT_TAKEN.format(reason=W.BOARD_BUSY)
            return
        self.game_id, self.owed, self.ended, self._asked, self.notice = full.id, [], None, None, ""
        names = tuple(Seat(p.shown[:40]) for p in (full.white, full.black))
        perf = full.perf or full.speed.capitalize()
        table = TableSetup(event=f"{'Rated' if full.rated else 'Casual'} {perf} game"[:80],
                           site=f"{self.online.setup.server}/{full.id}", date=self.today(),
                           ratings=tuple(p.rating if p.rating is not None and 0 <= p.rating <= 4000 else None
                                         for p in (full.white, full.black)),
                           ids=tuple(p.id[:40] for p in (full.white, full.black)), source=SOURCE + full.id)
        self._loading = True
        try:
            if not self.bus.handle(NewGame("chess", names, table=table, start=_start_fen(full.initial_fen))):
                self.game_id = None
                return
            s = self.game.session
            for uci in full.state.moves:  # the moves made before the board took the game
                self.game.command(lambda: s.play(_engine_text(s, uci)))
            if s.moves:
                self.game.begin_setup()  # set up the position reached
        finally:
            self._loading = False

    def game_opened(self, ev: GameOpened) -> None:
        """A game opened: a lichess game taken up after a restart follows lichess again."""
        source = getattr(getattr(ev.table, "setup", None), "source", "")
        if not source.startswith(SOURCE):
            if not self._loading:
                self.game_id = None
            return
        if self._loading:
            return
        self.game_id = source[len(SOURCE):]
        moves = tuple(m.move for m in self.game.session.moves)
        game_id = self.game_id

        def take_up() -> None:
            self.online.publish(self.online.play.take_up(game_id, moves))

        if self.online.play is not None:
            take_up()
        else:
            self.online.after_connect.append(take_up)
            self.online.connect()

    def game_closed(self, _ev: GameClosed) -> None:
        """The game was put away: lichess's game goes on without the board (its stream closes)."""
        if self.game_id is not None and not self._loading:
            if self.online.play is not None:
                self.online.publish(self.online.play.leave(self.game_id))
            self.game_id, self.owed = None, []

    def moved(self, ev: og.MovePlayed) -> None:
        """A move lichess has and the board has not: asked of the player (a move the game has
        already, or has been asked for, is not asked again)."""
        if not self.active or ev.ply < len(self.game.session.moves) + len(self.owed):
            return
        self.owed.append(ev.uci)
        self.ask_move()

    def undone(self, ev: og.MovesUndone) -> None:
        """lichess's moves end earlier (a takeback, a refused move): owed moves are forgotten,
        the rest taken back at the table; the tracker guides the pieces back."""
        if not self.active:
            return
        count = ev.count
        while count and self.owed:
            self.owed.pop()
            count -= 1
        table, s = self.game.table, self.game.session
        for _ in range(min(count, len(s.moves))):
            self.game.command(lambda: table.undo(self.clock_ms()))
        self._asked = None

    def said(self, ev) -> None:
        """Everything else lichess said about the game, in words on the game screen."""
        m = self.machine
        if not self.active or m is None:
            return
        other = m.opponent.shown if m.opponent else "?"
        if isinstance(ev, og.MoveConfirmed):
            self.notice = ""
        elif isinstance(ev, og.MoveWaiting):
            seconds = max(0, ((ev.until_ms or 0) - self.clock_ms() + 999) // 1000)
            self.notice = {"offline": W.MOVE_WAITING_OFFLINE, "rate-limited": W.MOVE_WAITING_HELD,
                           "checking": W.MOVE_CHECKING}[ev.why].format(move=ev.uci, seconds=seconds)
        elif isinstance(ev, og.MoveRefused):
            self.notice = W.MOVE_REFUSED.format(move=ev.uci, reason=ev.reason)
        elif isinstance(ev, og.OffersChanged):
            self._offers(ev, other)
        elif isinstance(ev, og.OpponentLeft):
            if ev.gone:
                seconds = max(0, ((ev.claim_at_ms or 0) - self.clock_ms()) // 1000)
                self.notice = (W.OPPONENT_GONE.format(name=other, seconds=seconds) if seconds
                               else W.OPPONENT_GONE_NOW.format(name=other))
            else:
                self.notice = W.OPPONENT_BACK.format(name=other)
        elif isinstance(ev, og.ActionRefused):
            self.notice = W.ACTION_REFUSED.format(reason=ev.reason)
        self.display.changed()

    def _offers(self, ev: og.OffersChanged, other: str) -> None:
        mine = self.machine.color
        d = self.display
        for kind, by, title, sent in (("online-draw", ev.draw_by, W.DRAW_OFFERED_BY, W.DRAW_SENT),
                                      ("online-takeback", ev.takeback_by, W.TAKEBACK_BY, W.TAKEBACK_SENT)):
            if by and by != mine:
                d.prompt = Prompt(kind, title.format(name=other), (PromptOption("accept", W.ACCEPT),
                                                                   PromptOption("decline", W.DECLINE)), cancel=False)
            elif d.prompt is not None and d.prompt.kind == kind:
                d.prompt = None  # withdrawn, or answered elsewhere
            if by == mine:
                self.notice = sent.format(name=other)

    def ended_on_lichess(self, ev: og.GameEnded) -> None:
        """The game is over on lichess: the moves the board still owes go into the record, the
        result is lichess's; an aborted game is kept with the unfinished ones."""
        if not self.active or self.ended is not None:
            return
        self.ended = ev
        s = self.game.session
        owed, self.owed = self.owed, []
        for uci in owed:
            if not s.is_over:
                self.game.command(lambda: s.play(_engine_text(s, uci)))
        reason = W.STATUS_REASONS.get(ev.status, "ended on lichess")
        if reason in W.NO_RESULT:
            other = self.machine.opponent.shown if self.machine and self.machine.opponent else "?"
            self.game.leave()
            self.online.notice = W.ABORTED.format(name=other)
            self.display.show("online")
            return
        if not s.is_over:
            winners = (self.seat_of(ev.winner),) if ev.winner else ()
            self.game.command(lambda: s.act(Adjudicate(winners, reason)))

    def game_over(self, _ev) -> None:
        """The game ended: a lichess game is filed at once (no takeback after lichess's end)."""
        if self.active and self.game.saved_as is None and self.game.journal is not None \
                and not self.game.journal.closed:
            self.game.archive(self.game.table)

    # ----- the board's moves -------------------------------------------------------------------------------
    def move_made(self, ev: MovePlayed) -> None:
        """A move was made on the board and played into the game: an owed move is done; the
        player's own goes to lichess; a move of the opponent's pieces the board was not asked
        for is taken back."""
        if not self.active or self._loading or self.ended is not None:
            return
        uci = ev.entry.move
        self._asked = None
        if self.owed and self.owed[0] == uci:
            self.owed.pop(0)
            return
        if ev.entry.player == self.my_seat and self.online.play is not None:
            self.online.publish(self.online.play.play(uci, self.clock_ms()))
            return
        other = self.machine.opponent.shown if self.machine and self.machine.opponent else "?"
        self.notice = W.NOT_YOUR_PIECE.format(name=other)
        table = self.game.table
        self.game.command(lambda: table.undo(self.clock_ms()))

    def settled(self, _ev=None) -> None:
        """A batch of the game's events is shown: lichess's next move is asked of the player."""
        self.ask_move()

    def ask_move(self) -> None:
        s = self.game.session
        if not self.owed or s is None or self.display.screen != "game" or s.is_over:
            return
        key = (s.actions, self.owed[0])
        if self._asked == key:
            return
        try:
            move = s.rules.parse_move(s.pos, _engine_text(s, self.owed[0]))
            self._asked = key
            self.game.handle(s.request_move(move))
            self.bus.publish(ComputerMoveChosen(move))  # said aloud now, as a computer's (docs/speech.md)
        except CompanionError as e:  # lichess's move is not legal here: the game is read afresh
            self.notice = str(e)
            self.owed = []
            if self.online.play is not None and self.game_id:
                self.online.publish([og.Reopen(self.game_id)])

    # ----- the player's commands ----------------------------------------------------------------------------
    def propose_takeback(self) -> None:
        self._send(lambda m: m.propose_takeback())

    def offer_draw(self) -> None:
        self._send(lambda m: m.offer_draw())

    def resign(self) -> None:
        if self.live:
            self.display.ask(Prompt("online-resign", W.CONFIRM_RESIGN, (PromptOption("yes", W.YES_RESIGN),)))

    def abort(self) -> None:
        self._send(lambda m: m.abort())

    def claim_victory(self) -> None:
        """The game's slot once the opponent has gone: lichess lets the player claim the win
        or a draw; the question says which."""
        m = self.machine
        if m is None or not self.live or not m.can_claim_victory(self.clock_ms()):
            return
        other = m.opponent.shown if m.opponent else "?"
        self.display.ask(Prompt("online-claim", W.CLAIM_QUESTION.format(name=other),
                                (PromptOption("victory", W.CLAIM_WIN), PromptOption("draw", W.CLAIM_DRAW))))

    def _send(self, make: Callable) -> None:
        m = self.machine
        if m is not None and self.active:
            self.online.publish(make(m))

    def answer(self, prompt: Prompt, key: str | None) -> None:
        """Display.answers_to ASKED."""
        m = self.machine
        if m is None or key is None:
            return
        if prompt.kind == "online-draw":
            self.online.publish(m.answer_draw(key == "accept"))
        elif prompt.kind == "online-takeback":
            self.online.publish(m.answer_takeback(key == "accept"))
        elif prompt.kind == "online-resign" and key == "yes":
            self.online.publish(m.resign())
        elif prompt.kind == "online-claim":
            now = self.clock_ms()
            self.online.publish(m.claim_victory(now) if key == "victory" else m.claim_draw(now))

    def tick(self, t_ms: int) -> None:
        """While a clock runs, the screen is redrawn as its second turns (a face, not activity)."""
        m = self.machine
        if m is None or not self.active:
            return
        _, _, running = m.clocks(t_ms)
        face = t_ms // 1000 if running else -1
        if face != self._face:
            self._face = face
            self.display.changed(activity=False)


def _start_fen(initial: str) -> str | None:
    return None if initial in ("", "startpos") else initial


def _engine_text(s, uci: str) -> str:
    """lichess's move as the engine writes it: a castling given king-to-rook (Chess960's form,
    which GameStateEvent.yaml allows) becomes the king's two-square move."""
    king_to_rook = {"e1h1": "e1g1", "e1a1": "e1c1", "e8h8": "e8g8", "e8a8": "e8c8"}
    if uci in king_to_rook:
        g = s.rules.geometry
        piece = s.pos.board[g.parse_square(uci[:2])]
        if piece is not None and piece.kind.royal:
            return king_to_rook[uci]
    return uci


__all__ = ["OnlineGameRoom", "ASKED", "SOURCE"]
