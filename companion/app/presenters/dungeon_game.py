"""The side panel of a game on a map of seats (Dungeon Chess, KoL Chess, four-player chess):
2 to 4 players in their colours (who is to move, who is out, their points in a game that keeps
them: ``pos.var("points")``), what the last turn did in words (with its fight's result), what
the board asks, the hex button.

Effects come from the game itself (``pos.var("effects")``, companion/games/abilities.py) and
are said here with the players' names, or by the game's own ``rules.describe_turn(pos)`` where
it has one (four-player chess: points, players out); the tracker's guidance says what to do on
the board about them ("Remove the yellow Warlord from r11 (destroyed by the explosion).").
"""

from __future__ import annotations

from dataclasses import dataclass

from ...i18n import _
from .. import texts as T
from .. import theme
from .board_link import BoardRoom
from .computer_turns import ComputerTurns
from .display import Display
from .game_room import GameRoom
from .coach_room import CoachRoom
from .game import CoachControls, CoachLine, move_rows, notice_line, result_headline

#: Earlier moves listed under the last turn (newest first; the game-over screen lists all).
HISTORY_LINES = 12

@dataclass(frozen=True)
class PlayerChip:
    name: str
    colour: tuple
    to_move: bool
    out: bool
    computer: bool
    units: str  # how many units it has on the board
    detail: str = ""  # beside the name: "out", a game's points ("12 pts", "12 · out")


@dataclass(frozen=True)
class DungeonGameView:
    title: str
    players: tuple[PlayerChip, ...]
    status: str
    check: bool
    last_turn: str  # "Blue: KN k14xm13"
    effects: str  # what that turn did besides, in sentences
    guidance: str
    notice: str
    thinking: str
    progress: float
    moves: tuple[tuple[str, str, str], ...]
    history: str  # the moves before the last, newest first ("12. Red SK b8-b9")
    banner: str
    legend: str  # what the badges on the board mean, when any is shown
    coach: CoachLine | None = None  # the coach's row, as on the chess screen (widgets/coach_panel.kv)


class DungeonGamePresenter(CoachControls):
    def __init__(self, game: GameRoom, ai: ComputerTurns, board: BoardRoom, display: Display,
                 coach: CoachRoom | None = None) -> None:
        self.game = game
        self.ai = ai
        self.board = board
        self.display = display
        self.coach = coach  # the hint, the threats, the word after a bad move (as on the chess screen)

    def view(self) -> DungeonGameView | None:
        s = self.game.session
        if s is None:
            return None
        rules, pos = s.rules, s.pos
        seats = rules.board_map.seats
        out = set(pos.var("out", ()))
        points = pos.var("points") or ()
        d = pos.pending
        turn = d.player if d is not None and d.player >= 0 else pos.turn
        players = tuple(
            PlayerChip(seat.name, theme.seat_colour(seats[i].colour), turn == i and not s.is_over, i in out,
                       seat.computer, T.UNITS_LEFT.format(n=len(pos.occ[i])), chip_detail(i in out, points, i))
            for i, seat in enumerate(s.seats)
        )
        names = tuple(seat.name for seat in s.seats)
        if s.result is not None:
            status = result_headline(s, s.result)
        else:
            status = T.TO_MOVE.format(name=names[turn]) + ("  " + T.CHECK if s.in_check() else "")
        if self.ai.requested is not None:
            g = rules.geometry
            status = T.COMPUTER_MOVE.format(name=names[pos.turn], frm=g.name_of(self.ai.requested.frm),
                                            to=g.name_of(self.ai.requested.to))
        last_turn = ""
        if s.moves:
            last = s.moves[-1]
            last_turn = T.LAST_TURN.format(name=names[last.player], move=marked(last))
        last = s.moves[-1] if s.moves else None
        if not s.moves:
            effects = ""
        elif hasattr(rules, "describe_turn"):  # the game says its turns itself (four-player chess)
            effects = " ".join(rules.describe_turn(pos))
        else:
            effects = " ".join(effect_words(rules, e, names, pos, last.frm if last else None)
                               for e in pos.var("effects", ()))
        thinking, progress = "", -1.0
        if self.ai.thinking is not None:
            thinking = T.THINKING.format(name=names[self.ai.thinking.seat])
            progress = max(0.0, min(1.0, self.ai.thinking.progress))
        moves = move_rows(s.moves, names)
        history = "\n".join(T.HISTORY_LINE.format(n=i + 1, name=names[m.player], move=marked(m))
                            for i, m in reversed(list(enumerate(s.moves[:-1])))
                            if i >= len(s.moves) - 1 - HISTORY_LINES)
        return DungeonGameView(
            _(rules.board_map.title), players, status, s.in_check(), last_turn, effects, self.board.guidance,
            notice_line(self.display),
            thinking, progress, moves, history, self.display.banner, badge_legend(pos), self.coach_line(),
        )


def chip_detail(out: bool, points, player: int) -> str:
    """Beside a player's name: their points in a game that keeps them (and "out"), else "out"
    for a player out, else nothing."""
    if points and player < len(points):
        return (T.POINTS_OUT if out else T.POINTS_SHORT).format(n=points[player])
    return T.OUT if out else ""


def marked(entry) -> str:
    """A move as the list shows it, with its fight's result ("e4xd5 (fight won)")."""
    return T.MOVE_FIGHT.format(move=entry.san, result=T.FIGHT_MARK[entry.fight]) if entry.fight else entry.san


def badge_legend(pos) -> str:
    """What the badges on the board's units mean, for those shown now ("" when none is): a
    unit's state, a fighter's fatigue (a game with dice fights)."""
    seen = []
    for _square, piece in pos.pieces():
        state = piece.state or {}
        if state.get("hex") and "hex" not in seen:
            seen.append("hex")
        elif state.get("wounded") and not state.get("hex") and "wounded" not in seen:
            seen.append("wounded")
        elif state.get("fatigue") and not state.get("hex") and not state.get("wounded") and "fatigue" not in seen:
            seen.append("fatigue")
    return "   ".join(T.BADGE_LEGEND[k] for k in ("wounded", "hex", "fatigue") if k in seen)


def effect_words(rules, effect: tuple, names, pos=None, frm: int | None = None) -> str:
    """One effect of a turn (companion/games/abilities.py) as a sentence with the players' names
    (``pos`` and the turn's ``frm`` name the attacker that a thick skin sent back)."""
    sq = rules.geometry.name_of
    kind = effect[0]
    if kind in ("eliminated", "king_falls", "pass"):
        return T.EFFECTS[kind].format(owner=_name(names, effect[1]))
    if kind == "resigned":
        return T.EFFECTS["resigned" if effect[2] else "resigned last"].format(owner=_name(names, effect[1]))
    if kind == "captured":
        key = "captured fragile" if _is_fragile(rules, effect[2]) else "captured"
        return T.EFFECTS[key].format(owner=_name(names, effect[3]), unit=_(effect[2]), square=sq(effect[1]))
    if kind == "absorbed":
        attacker = pos.board[frm] if pos is not None and frm is not None and frm >= 0 else None
        return T.EFFECTS[kind].format(owner=_name(names, effect[4]), unit=_(effect[3]), square=sq(effect[1]),
                                      to=sq(effect[2]), attacker=_(attacker.kind.title) if attacker else T.ATTACKER_WORD,
                                      frm=sq(frm) if frm is not None and frm >= 0 else T.ITS_SQUARE)
    if kind == "step":
        return T.EFFECTS[kind].format(owner=_name(names, effect[4]), unit=_(effect[3]), square=sq(effect[1]),
                                      to=sq(effect[2]))
    if kind == "crushed":
        return T.EFFECTS[kind].format(owner=_name(names, effect[3]), unit=_(effect[2]), square=sq(effect[1]),
                                      why=T.WHY_BEHIND.get(effect[4], effect[4]))
    if kind == "hex":
        return T.EFFECTS[kind].format(owner=_name(names, effect[3]), unit=_(effect[2]), square=sq(effect[1]),
                                      turns=effect[4])
    if kind in ("explosion", "destroyed", "hex_ends"):
        return T.EFFECTS[kind].format(owner=_name(names, effect[3]), unit=_(effect[2]), square=sq(effect[1]))
    # KoL Chess (companion/games/kol.py)
    if kind == "retreat":
        return T.EFFECTS[kind].format(owner=_name(names, effect[3]), square=sq(effect[1]), to=sq(effect[2]),
                                      n=effect[4])
    if kind == "exit":
        return T.EFFECTS[kind].format(owner=_name(names, effect[3]), square=sq(effect[1]), to=sq(effect[2]))
    if kind == "swap":
        return T.EFFECTS[kind].format(owner=_name(names, effect[5]), unit=_(effect[3]), other=_(effect[4]),
                                      square=sq(effect[1]), to=sq(effect[2]))
    if kind == "charge":
        return T.EFFECTS[kind].format(owner=_name(names, effect[4]), square=sq(effect[2]), to=sq(effect[3]))
    if kind == "trade":
        return T.EFFECTS[kind].format(owner=_name(names, effect[4]), unit=_(effect[2]), other=_(effect[3]),
                                      square=sq(effect[1]))
    return ""


def _name(names, player: int) -> str:
    return names[player] if 0 <= player < len(names) else T.PLAYER_N.format(n=player + 1)


def _is_fragile(rules, title: str) -> bool:
    return any(k.title == title and "fragile" in k.abilities for k in rules.kinds)
