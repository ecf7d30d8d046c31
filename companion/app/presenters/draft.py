"""The draft screen (Dungeon Chess): one seat's army, unit by unit or one of the rulebook's
armies with one tap; the budget left; what keeps the army from being played, in plain words.

The draft rules are the game's (companion.games.draft via DungeonPrep): 75 XP, exactly one
King, at least one Pawn, and the army must fit its spawn zone on the chosen map. No keyboard:
a unit is added and removed with big buttons, and tapping a unit shows what it does.
"""

from __future__ import annotations

from dataclasses import dataclass

from ...errors import CompanionError
from ...games.abilities import ABILITIES
from ...games.draft import FACTIONS
from ...i18n import _
from .. import link_texts as L
from .. import texts as T
from .. import theme
from .dungeon_prep import RULEBOOK_ARMIES
from .display import Display
from .dungeon_setup import DungeonSetup
from .start import Choice


@dataclass(frozen=True)
class UnitLine:
    name: str  # roster name ("iron_golem")
    code: str  # "IG"
    title: str  # "Iron Golem"
    line: str  # "Castle, 18 XP"
    count: int
    can_add: bool
    can_remove: bool
    selected: bool


@dataclass(frozen=True)
class DraftView:
    title: str  # "Blue army"
    seat: str  # "Ann, player 1 of 4"
    colour: tuple  # the seat's screen colour
    factions: tuple[Choice, ...]
    units: tuple[UnitLine, ...]
    presets: tuple[Choice, ...]  # the rulebook's four armies
    budget: str
    over_budget: bool
    detail_title: str
    detail: str  # the selected unit in words: what it does, its abilities
    problems: str  # empty when the army is ready
    summary: str  # "9 units, 75 XP: ready."
    ready: bool
    next_label: str
    notice: str


class DraftPresenter:
    def __init__(self, dungeon: DungeonSetup, display: Display) -> None:
        self.dungeon = dungeon
        self.display = display
        self.selected: str | None = None  # the unit whose words are shown

    @property
    def prep(self):
        return self.dungeon.prep

    # ----- commands (one per button) -----------------------------------------------------------
    def choose_faction(self, faction: str) -> None:
        self._do(lambda: self.prep.set_faction(faction))
        self.selected = None

    def add(self, unit: str) -> None:
        self.selected = unit
        self._do(lambda: self.prep.add(unit))

    def remove(self, unit: str) -> None:
        self.selected = unit
        self._do(lambda: self.prep.remove(unit))

    def select(self, unit: str) -> None:
        self.selected = unit
        self.display.changed()

    def use_preset(self, name: str) -> None:
        self.selected = None
        self._do(lambda: self.prep.use_preset(name))

    def clear(self) -> None:
        self._do(lambda: self.prep.clear())

    def next(self) -> None:
        self.selected = None
        self.dungeon.draft_next()

    def back(self) -> None:
        self.selected = None
        self.dungeon.draft_back()

    def _do(self, change) -> None:
        if self.prep is None:
            return
        try:
            change()
            self.display.notice = ""
            self.dungeon.kept()
        except CompanionError as e:
            self.display.notice = str(e)
        self.display.changed()

    # ----- view -----------------------------------------------------------------------------------
    def view(self) -> DraftView | None:
        prep = self.prep
        if prep is None:
            return None
        seat = prep.seat
        word = prep.rules.board_map.seats[seat].colour
        army = prep.army()
        counts = army.counts()
        left = prep.remaining()
        budget = prep.rules.draft_rules.budget
        kinds = prep.units()
        kings = sum(n for u, n in counts.items() if prep.rules.roster_kind(u).royal)
        selected = self.selected if self.selected in {k.name for k in kinds} else None
        units = tuple(
            UnitLine(k.name, k.code, _(k.title), T.UNIT_LINE.format(role=T.ROLE_NAMES.get(k.role, k.role), cost=k.cost),
                     counts.get(k.name, 0),
                     k.cost <= left and not (k.royal and kings >= prep.rules.draft_rules.kings),
                     counts.get(k.name, 0) > 0, k.name == selected)
            for k in kinds
        )
        current = prep.preset_of()
        presets = tuple(Choice(name, _(prep.presets[name].title), name == current) for name in RULEBOOK_ARMIES)
        factions = tuple(Choice(f, T.FACTION_NAMES[f], f == army.faction) for f in FACTIONS)
        detail_title, detail = "", ""
        if selected is not None:
            kind = prep.rules.roster_kind(selected)
            detail_title = f"{_(kind.title)} ({kind.code})"
            detail = unit_words(kind)
        problems = [sentence(p) for p in prep.problems()]
        over = left < 0
        budget_text = T.BUDGET_OVER.format(over=-left, budget=budget) if over else T.BUDGET_LEFT.format(left=left, budget=budget)
        last = prep.is_last_seat
        return DraftView(
            T.DRAFT_TITLE.format(colour=T.seat_word(word)),
            (T.DRAFT_SEAT if prep.seats[seat].name.lower() not in (word, T.seat_word(word).lower()) else T.DRAFT_SEAT_PLAYER).format(
                name=prep.seats[seat].name, n=seat + 1, count=prep.nplayers),
            theme.seat_colour(word), factions, units, presets, budget_text, over, detail_title, detail,
            "\n".join(problems), "" if problems else T.ARMY_READY.format(units=len(army.units), cost=prep.cost()),
            not problems, (L.LINK_DRAFT_PLACE if prep.here is not None else T.WHO_STARTS_BUTTON) if last else T.NEXT_ARMY, self.display.notice,
        )


def unit_words(kind) -> str:
    """What a unit does, in the roster's plain words, then each ability's."""
    notes = dict(kind.info).get("notes", "")
    lines = [_(notes) if notes else ""]
    for name in kind.abilities:
        a = ABILITIES.get(name)
        if a is not None:
            lines.append(T.ABILITY_LINE.format(title=_(a.title), words=_(a.words)))
    return "\n".join(line for line in lines if line)


def sentence(text: str) -> str:
    """A draft problem as a sentence: a capital first letter and a full stop."""
    text = text.strip()
    if not text:
        return text
    return text[0].upper() + text[1:] + ("" if text.endswith(".") else ".")
