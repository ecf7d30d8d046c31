"""The deployment screen (Dungeon Chess): which unit to put on the board next, and where.

The reed switches cannot tell a Wizard from a Hero, so the screen names the next unit and the
board lights the free squares of its player's spawn zone (companion.board.deployment); a piece
put there becomes that unit. Undo (the game bar's) takes back the last placement; the rest can
be placed automatically (the board is then guided to it).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from ...i18n import _
from .. import texts as T
from .. import theme
from .board_link import BoardRoom
from .display import Display
from .dungeon_setup import DungeonSetup


@dataclass(frozen=True)
class DeployView:
    title: str
    next_code: str  # the next unit's code ("WZ"), "" when all are placed
    next_line: str  # "Next: Blue Wizard"
    next_colour: tuple
    players: tuple[str, ...]  # "Blue: 3 of 9 placed" per player
    then: str  # the units after it, for the same player
    guidance: str  # the board's words: where to put it, what to fix
    in_sync: bool
    notice: str  # who moves first
    can_place_rest: bool
    help: str
    banner: str


class DeployPresenter:
    def __init__(self, dungeon: DungeonSetup, board: BoardRoom, display: Display) -> None:
        self.dungeon = dungeon
        self.board = board  # the deployment guide's words, and whether the board agrees
        self.display = display

    def place_rest(self) -> None:
        self.dungeon.place_rest()

    def back(self) -> None:
        self.dungeon.back()

    def view(self) -> DeployView | None:
        prep = self.dungeon.prep
        if prep is None or prep.deployment is None:
            return None
        dep = prep.deployment
        rules = prep.rules
        seats = rules.board_map.seats
        nxt = dep.next_unit()
        code, line, colour, then = "", T.DEPLOY_ALL_PLACED, theme.TEXT, ""
        if nxt is not None:
            player, unit = nxt
            kind = rules.roster_kind(unit)
            word = seats[player].colour
            code, colour = kind.code, theme.seat_colour(word)
            line = T.DEPLOY_NEXT.format(colour=T.seat_word(word), unit=_(kind.title))
            rest = [u for p, u in dep.queue[len(dep.placed) + 1:] if p == player]
            if rest:
                counts = Counter(_(rules.roster_kind(u).title) for u in rest)
                then = T.DEPLOY_THEN.format(units=", ".join(t if n == 1 else f"{t} \u00d7{n}" for t, n in counts.items()))
        players = []
        for p in prep.drafted:
            total = sum(1 for q, _ in dep.queue if q == p)
            placed = sum(1 for q, _, _ in dep.placed if q == p)
            players.append(T.DEPLOY_PLAYER.format(name=prep.seats[p].name, placed=placed, total=total))
        board = self.board
        return DeployView(T.DEPLOY_TITLE, code, line, colour, tuple(players), then, board.guidance, board.in_sync,
                          self.display.notice, nxt is not None, T.DEPLOY_HELP,
                          self.display.banner)
