"""The game on the screen: how its events show (a fight, the end, a question about the board,
a game's own decision screen such as Chess 2's duel) and the players' commands on the game
screens (undo, draw, resign, roll, answer).

:class:`Play` owns what the game screens show beyond the game itself: the fight on screen, how
the game ended, the moves only the screen can make (a hex), a board question put aside, the
game's own decision screen. It subscribes to the session's events on the bus (wired in flow.py)
and runs the players' commands through the GameRoom.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ...board.tracker import PromptRequested, PromptWithdrawn, ScreenMovesChanged, SetupCompleted
from ...dice.record import RoundRecord
from ...errors import CompanionError
from ...session import (
    DiceRolled, DrawDeclined, DrawOffered, FightEnded, FightInfo, FightStarted, GameOver, MovePlayed, PlayerResigned,
    PositionSet, ActionRefused, TurnsUndone,
)
from ...i18n import _
from .. import texts as T
from .board_link import BoardRoom
from .display import BOARD, Display
from .game_room import GameRoom
from .messages import Bus, GameFinished, GameOpened, PlaySettled
from .questions import BOARD_QUESTIONS, Prompt, PromptOption

#: The session's events this room shows (flow.py subscribes :meth:`Play.show` to them).
SHOWN = (MovePlayed, ScreenMovesChanged, FightStarted, DiceRolled, FightEnded, TurnsUndone, PositionSet, DrawOffered,
         PlayerResigned, DrawDeclined, GameOver, ActionRefused, PromptRequested, PromptWithdrawn, SetupCompleted)


@dataclass
class FightState:
    """The fight on screen: its info, the rounds rolled, how it ended; ``rolling`` while the
    dice animation runs (the LEDs wait, so they do not tell the result first)."""

    info: FightInfo
    rounds: list[RoundRecord] = field(default_factory=list)
    ended: FightEnded | None = None
    rolling: bool = False


@dataclass
class DecisionState:
    """A game's own decision screen (Chess 2's duel) is up: ``start`` is how many effects the
    turn had when it opened; ``done`` once its decision is answered and it shows the result."""

    screen: str
    start: int
    done: bool = False
    memo: dict = field(default_factory=dict)  # what the game's screen remembers of it


class Play:
    def __init__(self, game: GameRoom, display: Display, board: BoardRoom, bus: Bus) -> None:
        self.game = game
        self.display = display
        self.board = board
        self.bus = bus
        self.fight: FightState | None = None
        self.over: GameOver | None = None
        self.screen_moves = ScreenMovesChanged(())  # moves only the screen can make (a hex)
        self.parked: Prompt | None = None  # a board question closed to look at the board
        self.decision: DecisionState | None = None  # a game's own decision screen is up

    @property
    def session(self):
        return self.game.session

    # ----- a game opened or closed ----------------------------------------------------------------
    def reset(self, event=None) -> None:
        self.fight, self.over, self.decision, self.parked = None, None, None, None
        self.screen_moves = ScreenMovesChanged(())
        s = self.session
        if isinstance(event, GameOpened) and s is not None and s.is_over:  # a finished game, loaded
            self.over = GameOver(s.result, s.setup.seed)

    # ----- the game's events ------------------------------------------------------------------------
    def show(self, ev) -> None:
        """One of the session's events (SHOWN), as the screens show it."""
        d = self.display
        if isinstance(ev, MovePlayed):
            d.notice = ""
        elif isinstance(ev, ScreenMovesChanged):
            self.screen_moves = ev
        elif isinstance(ev, FightStarted):
            self.fight = FightState(ev.fight)
            d.screen = "fight"
        elif isinstance(ev, DiceRolled):
            if self.fight is not None:
                self.fight.rounds.append(ev.round)
                if ev.fight is not None:
                    self.fight.info = ev.fight
                self.fight.rolling = self.session.setup.dice != "entered"
                self.board.leds_held = self.fight.rolling
        elif isinstance(ev, FightEnded):
            if self.fight is not None:
                self.fight.ended = ev
        elif isinstance(ev, TurnsUndone):
            self._undone(ev)
        elif isinstance(ev, PositionSet):
            d.notice = T.POSITION_SET
        elif isinstance(ev, DrawOffered):
            self._ask_draw(ev.player)
        elif isinstance(ev, PlayerResigned):
            words = T.PLAYER_RESIGNED_LAST if self.session.is_over else T.PLAYER_RESIGNED  # the last: no one plays on
            d.notice = words.format(name=self.session.seats[ev.player].name)
        elif isinstance(ev, DrawDeclined):
            d.notice = T.DRAW_DECLINED.format(name=self.session.seats[ev.player].name)
        elif isinstance(ev, GameOver):
            self._ended(ev)
        elif isinstance(ev, ActionRefused):
            d.notice = T.MOVE_REFUSED.format(reason=ev.reason)
        elif isinstance(ev, PromptRequested):
            self._ask_tracker(ev)
        elif isinstance(ev, PromptWithdrawn):
            if d.prompt is not None and d.prompt.kind == ev.kind:
                d.prompt = None
            if self.parked is not None and self.parked.kind == ev.kind:
                self.parked = None
        elif isinstance(ev, SetupCompleted):
            self.board.in_sync = True
            if d.screen == "setup":
                self.start_playing()

    def _undone(self, ev: TurnsUndone) -> None:
        self.fight = None
        self.decision = None
        self.board.leds_held = False
        self.display.notice = T.UNDONE.format(moves=", ".join(e.san for e in ev.entries))
        if self.over is not None and self.session.result is None:
            self.over = None  # the move that ended the game was taken back: play on
        if self.display.screen in ("fight", "game_over") or self.display.screen in self._decision_screens():
            self.display.screen = "game"

    def _ended(self, ev: GameOver) -> None:
        """The game is over: the rooms hear GameFinished (the computer stops, a match scores
        it), then it is filed, unless it stays open for a takeback (filed on leaving)."""
        self.over = ev
        self.bus.publish(GameFinished(self.session))
        if not self.game.can_undo():
            self.game.archive(self.game.table if self.game.table is not None else self.session)
        if self.display.screen != "fight" and not (self.decision is not None and self._decision_result_shown()):
            self.display.screen = "game_over"

    def start_playing(self) -> None:
        """Leave the set-up: to the fight screen when a resumed game stopped mid-fight."""
        if self.session is None or self.display.screen != "setup":
            return
        fight = self.session.pending_fight()
        if fight is not None:
            self.fight = FightState(fight, list(fight.rounds))
            self.display.screen = "fight"
        else:
            self.display.screen = "game"
        self._settled()

    def _settled(self) -> None:
        self.bus.publish(PlaySettled())
        self.display.changed()

    # ----- a game's own decisions (Chess 2's duel, its king-turn) -------------------------------------
    def _decision_screens(self) -> tuple[str, ...]:
        return tuple(self.game.extras.decision_screens.values())

    def sync_decision(self, _event=None) -> None:
        """Open the game's own screen for a decision it asks there (a duel), keep it up after the
        answer while it shows what happened, and go back to the game otherwise."""
        s = self.session
        d = self.display
        if s is None or d.screen not in ("game", "game_over") + self._decision_screens():
            return
        pending = s.pos.pending
        screen = self.game.extras.decision_screens.get(pending.kind) if pending is not None and s.result is None \
            else None
        turn_effects = len(s.moves[-1].effects) if s.moves else 0
        if screen is not None:
            if self.decision is None or self.decision.screen != screen:
                self.decision = DecisionState(screen, turn_effects)
            elif self.decision.done:
                return  # the last one's result is on screen: Continue opens this one
            d.screen = screen
            return
        if self.decision is not None and not self.decision.done:
            if self._decision_result_shown():
                self.decision.done = True
                return
            self.decision = None
            d.screen = "game_over" if self.over is not None else "game"

    def _decision_result_shown(self) -> bool:
        return self.session is not None and self.game.extras.result_shown(self.session, self.decision.start)

    @property
    def showing_result(self) -> bool:
        """The result of a game's own decision is on screen (the computer waits for Continue)."""
        return self.decision is not None and self.decision.done

    def decision_continue(self) -> None:
        """Leave the result of a game's own decision (the duel's): the next decision, the game
        or the game over screen."""
        if self.decision is None or not self.decision.done:
            return
        self.decision = None
        self.display.screen = "game_over" if self.over is not None else "game"
        self._settled()

    def answer_decision(self, text: str) -> None:
        """The game's own screen answered the pending decision (``duel``, ``gain``, ``1-2``)."""
        self.game.command(lambda: self.session.play_answer(text))

    def seal_part(self, player: int, part) -> None:
        """A person's part of the pending joint decision (a secret bid), sealed."""
        self.game.command(lambda: self.session.play_part(player, part))

    def question(self):
        """The decision the game screen asks itself now (Chess 2's king-turn), if any."""
        s = self.session
        if s is None or s.is_over or self.display.screen != "game" or s.computer_to_move() is not None:
            return None
        if not self.board.in_sync:  # the board is fixed first (the tracker asks nothing meanwhile)
            return None
        return self.game.extras.question(s)

    def answer_question(self, option: str) -> None:
        """A button of the game screen's question: answered like a question of the board."""
        self.game.command(lambda: self.session.choose(option))

    def show_card(self) -> None:
        """The game's information card (Chess 2's stones), if it has one."""
        if self.session is not None:
            self.display.show_card(self.game.extras.card(self.session))

    # ----- fights -------------------------------------------------------------------------------------
    def roll(self) -> None:
        self.game.command(lambda: self.session.roll())

    def enter_dice(self, attacker, defenders) -> None:
        self.game.command(lambda: self.session.enter_dice(attacker, defenders))

    def fight_shown(self) -> None:
        """The dice animation is over: the result is on screen, the LEDs may tell it too."""
        if self.fight is not None:
            self.fight.rolling = False
        self.board.leds_held = False
        self.display.changed()

    def fight_continue(self) -> None:
        """Leave the fight screen once the fight is over."""
        if self.fight is None or self.fight.ended is None:
            return
        self.fight = None
        self.board.leds_held = False
        self.display.screen = "game_over" if self.over is not None else "game"
        self._settled()

    # ----- the game bar ---------------------------------------------------------------------------------
    def undo(self) -> None:
        table = self.game.table
        if table is not None:
            self.game.command(lambda: table.undo(self.game.clock_ms()))
        else:
            self.game.command(lambda: self.session.undo())

    def offer_draw(self) -> None:
        s = self.session
        if s is None or s.is_over:
            return
        humans = [i for i, seat in enumerate(s.seats) if not seat.computer]
        player = s.turn if s.turn in humans else humans[0]
        self.game.command(lambda: s.offer_draw(player))

    def resign(self) -> None:
        s = self.session
        if s is None or s.is_over:
            return
        out = s.pos.var("out", ())
        humans = [i for i, seat in enumerate(s.seats) if not seat.computer and i not in out]
        if not humans:
            return
        if len(humans) == 1:
            self.display.ask(Prompt("resign-confirm", T.CONFIRM_RESIGN.format(name=s.seats[humans[0]].name),
                                    (PromptOption(str(humans[0]), T.YES_RESIGN),)))
        else:
            self.display.ask(Prompt("resign-who", T.WHO_RESIGNS, tuple(
                PromptOption(str(i), s.seats[i].name, T.PIECE_GLYPHS["king"], i) for i in humans)))

    def reopen_question(self) -> None:
        """Show again a board question that was closed to look at the board."""
        if self.parked is not None and self.display.prompt is None:
            prompt, self.parked = self.parked, None
            self.display.ask(prompt)

    def open_screen_moves(self) -> None:
        """The moves only the screen can make (a Shaman's hex) as big buttons."""
        offer = self.screen_moves
        if not offer.options or self.session is None:
            return
        labels = offer.labels or offer.options
        options = tuple(PromptOption(str(i), label) for i, label in enumerate(labels))
        self.display.ask(Prompt("hex", T.HEX_TITLE, options, values=tuple(offer.options)))

    # ----- answers to the questions asked here ----------------------------------------------------------
    def answer(self, prompt: Prompt, key: str | None) -> None:
        """Display.answers_to: board questions (BOARD), a draw offer, who resigns."""
        kind = prompt.kind
        if kind == BOARD or prompt.board or kind in BOARD_QUESTIONS or kind == "hex":
            if key is None:
                if kind in BOARD_QUESTIONS:
                    self.parked = prompt  # still open on the board; a button brings it back
                return
            index = [o.key for o in prompt.options].index(key)
            self.parked = None
            self.game.command(lambda: self.session.choose(prompt.values[index]))
        elif kind == "draw":
            self.game.command(lambda: self.session.answer_draw(key == "accept"))
        elif kind in ("resign-who", "resign-confirm"):  # with three or more players the game goes on
            table = self.game.table
            if table is not None:
                self.game.command(lambda: table.resign(int(key), self.game.clock_ms()))
            else:
                self.game.command(lambda: self.session.resign(int(key)))

    def _ask_draw(self, player: int) -> None:
        s = self.session
        other = 1 - player
        if s.seats[other].computer:
            return  # the session has the computer's answer already
        self.display.prompt = Prompt(
            "draw", T.DRAW_OFFER.format(name=s.seats[other].name, other=s.seats[player].name),
            (PromptOption("accept", T.ACCEPT), PromptOption("decline", T.DECLINE)), cancel=False)

    def _ask_tracker(self, ev: PromptRequested) -> None:
        """A tracker question as big buttons: a piece for a promotion, or which of two moves.
        A decision the game asks on a screen of its own (a duel) or on the game screen (a
        king-turn) is not asked again in a popup."""
        extras = self.game.extras
        s = self.session
        if ev.kind in extras.decision_screens:
            return
        own = extras.question(s) if s is not None else None
        if own is not None and own.kind == ev.kind:
            return
        options = []
        owner = s.turn if s else 0
        for i, value in enumerate(ev.options):
            code = str(value).upper()
            if ev.kind == "promotion" and code in T.PIECE_CODES:
                kind = T.PIECE_CODES[code]
                options.append(PromptOption(str(i), T.piece_name(kind).capitalize(), T.PIECE_GLYPHS[kind], owner))
            else:
                label = ev.labels[i] if i < len(ev.labels) else move_words(s, str(value))
                options.append(PromptOption(str(i), label))
        d = self.display
        if ev.kind in ("promotion", "which-move"):
            title = T.PROMOTE if ev.kind == "promotion" else T.WHICH_MOVE
            d.prompt = Prompt(ev.kind, title, tuple(options), cancel=False, values=tuple(ev.options))
            return
        if ev.kind == "trade":  # KoL Chess's back-row trade: the pieces by name
            title, trade = trade_words(s, ev)
            self.parked = None
            d.prompt = Prompt(ev.kind, title, trade, cancel=False, values=tuple(ev.options), board=True)
            return
        # a question the game waits for (a Salamander's step, a forced pass): the tracker's
        # words; a step may also be made on the board, so the question can be put aside
        may_close = ev.kind != "pass"
        self.parked = None
        d.prompt = Prompt(ev.kind, ev.text, tuple(options), cancel=may_close, values=tuple(ev.options),
                          cancel_label=T.LOOK_AT_BOARD if may_close else "")


def trade_words(s, ev: PromptRequested) -> tuple[str, tuple[PromptOption, ...]]:
    """A back-row trade as the screen asks it: the pawn, and each piece offered by name."""
    d = s.pos.pending
    square = d.get("square") if d is not None else None
    pawn = s.pos.board[square] if isinstance(square, int) else None
    unit = _(pawn.kind.title) if pawn is not None else ""
    where = s.rules.geometry.name_of(square) if isinstance(square, int) else ""
    options = []
    for i, value in enumerate(ev.options):
        if value == "keep":
            label = T.TRADE_KEEP.format(unit=unit)
        else:
            label = T.TRADE_FOR.format(unit=_(s.rules.kind(str(value)).title))
        options.append(PromptOption(str(i), label))
    return T.TRADE_QUESTION.format(unit=unit, square=where), tuple(options)


def move_words(s, text: str) -> str:
    """A move as the screen names it: "e2 → e4" (the text itself when it is not a move)."""
    try:
        m = s.rules.parse_move(s.pos, text)
    except CompanionError:
        return text
    g = s.rules.geometry
    return f"{g.name_of(m.frm)} \u2192 {g.name_of(m.to)}"


__all__ = ["Play", "FightState", "DecisionState", "SHOWN", "move_words"]
