"""The fight screen: both sides, their dice and every modifier, the exact odds, the rolls
(animated, or typed from real dice on a number pad), and who won and why. The same screen in
every game with dice fights: each fighter named and drawn as its game draws it (a chess glyph
in its side's colour, or a unit's disc with its code: "Blue Iron Golem")."""

from __future__ import annotations

from dataclasses import dataclass, replace
from fractions import Fraction

from ...dice.record import RoundRecord
from ...session import FighterInfo
from .. import texts as T
from .. import theme
from .names import draws_units, standard_glyph
from .display import Display
from .game_room import GameRoom
from .names import fighter_words
from .play import Play


@dataclass(frozen=True)
class FighterView:
    role: str
    name: str
    glyph: str  # a chess glyph, or "" for a unit (drawn as a disc with its code)
    owner: int
    square: str
    dice: str
    modifiers: tuple[str, ...]
    faces: tuple[int, ...]  # the last round's faces (empty before the first roll)
    total: str
    sides: int
    code: str = ""  # a unit's code ("IG"), on its disc
    fill: tuple = (1, 1, 1, 1)  # the glyph's or disc's colour
    outline: tuple = (0, 0, 0, 1)


@dataclass(frozen=True)
class OddsLine:
    label: str
    value: str
    owner: int  # whose colour (-1: nobody's)


@dataclass(frozen=True)
class EntryView:
    ask: str
    sides: int
    entered: tuple[int, ...]
    slots: int
    complete: bool


@dataclass(frozen=True)
class FightView:
    title: str
    attacker: FighterView
    defenders: tuple[FighterView, ...]
    odds: tuple[OddsLine, ...]
    rounds: tuple[str, ...]
    phase: str  # ready | rolling | again | done
    result: str
    action: str  # the big button's label ("" when the number pad is shown instead)
    entry: EntryView | None
    supporters: str = ""  # King's Prerogative: the other defenders, in words


class FightPresenter:
    def __init__(self, play: Play, game: GameRoom, display: Display) -> None:
        self.play = play
        self.game = game
        self.display = display
        self.entered: list[int] = []
        self._entry_key = None

    # ----- commands -----------------------------------------------------------------------------
    def act(self) -> None:
        """The big button: roll, roll again, or continue after the result."""
        phase = self.phase()
        if phase == "done":
            self.play.fight_continue()
        elif phase in ("ready", "again") and not self.entering and not self.linked:
            self.play.roll()

    def animation_done(self) -> None:
        self.play.fight_shown()

    def enter(self, face: int) -> None:
        slots = self._slots()
        if slots is None or len(self.entered) >= len(slots):
            return
        if 1 <= face <= slots[len(self.entered)][1]:
            self.entered.append(face)
            self.display.changed()

    def fix(self) -> None:
        if self.entered:
            self.entered.pop()
            self.display.changed()

    def use_dice(self) -> None:
        fight = self.play.fight
        slots = self._slots()
        if fight is None or slots is None or len(self.entered) != len(slots):
            return
        faces = list(self.entered)
        self.entered = []
        att_n = fight.info.attacker.dice.count
        attacker, rest = faces[:att_n], faces[att_n:]
        defenders = []
        for d in fight.info.defenders:
            defenders.append(rest[:d.dice.count])
            rest = rest[d.dice.count:]
        self.play.enter_dice(attacker, defenders)

    # ----- view ---------------------------------------------------------------------------------
    @property
    def linked(self) -> bool:
        """A game with a friend's board: the dice come from both boards' secrets by themselves."""
        s = self.game.session
        return s is not None and s.setup.dice == "linked"

    @property
    def entering(self) -> bool:
        s = self.game.session
        return s is not None and s.setup.dice == "entered"

    def phase(self) -> str:
        fight = self.play.fight
        if fight is None:
            return "none"
        if fight.rolling:
            return "rolling"
        if fight.ended is not None:
            return "done"
        if fight.rounds:
            return "again"
        return "ready"

    def view(self) -> FightView | None:
        fight = self.play.fight
        if fight is None:
            return None
        key = (fight.info.number, len(fight.rounds))
        if key != self._entry_key:
            self.entered, self._entry_key = [], key
        info = fight.info
        last = fight.rounds[-1] if fight.rounds else None
        rules = self.game.session.rules
        g_name = rules.geometry.name_of
        attacker = fighter_view(T.ATTACKER, info.attacker, last, "attacker", 0, rules)
        defenders = tuple(fighter_view(T.DEFENDER, d, last, "defender", i, rules)
                          for i, d in enumerate(info.defenders))
        phase = self.phase()
        result = ""
        if fight.ended is not None and phase == "done":
            result = result_text(fight.ended.result, attacker, defenders, last, g_name(info.defenders[0].square))
        action = {"ready": T.ROLL, "again": T.ROLL_AGAIN, "done": T.CONTINUE, "rolling": T.ROLLING}[phase]
        if self.linked and phase in ("ready", "again"):
            action = T.LINK_DICE_WAIT
        entry = None
        if self.entering and phase in ("ready", "again"):
            entry = self._entry_view()
            action = T.ENTRY_USE if entry.complete else ""
            attacker, defenders = self._with_entered(attacker, defenders)
        return FightView(
            T.FIGHT_TITLE.format(number=info.number, san=info.san), attacker, defenders,
            odds_lines(info, attacker, defenders),
            tuple(round_line(r) for r in (fight.rounds[:-1] if phase == "rolling" else fight.rounds)),
            phase, result, action, entry, supporters_text(defenders),
        )

    def _with_entered(self, attacker: FighterView, defenders: tuple[FighterView, ...]):
        """Show the numbers typed so far on the fighters' cards."""
        rest = list(self.entered)
        out = []
        for f, dice in zip((attacker, *defenders), (self.play.fight.info.attacker, *self.play.fight.info.defenders)):
            mine, rest = tuple(rest[:dice.dice.count]), rest[dice.dice.count:]
            out.append(replace(f, faces=mine, total=""))
        return out[0], tuple(out[1:])

    def _slots(self) -> list[tuple[str, int]] | None:
        """Every die to enter, in order: (who rolls it, its number of sides)."""
        fight = self.play.fight
        if fight is None:
            return None
        out = []
        rules = self.game.session.rules
        for f in (fight.info.attacker, *fight.info.defenders):
            out += [(fighter_words(rules, f.player, f.kind), f.dice.sides)] * f.dice.count
        return out

    def _entry_view(self) -> EntryView:
        slots = self._slots()
        n = len(self.entered)
        if n < len(slots):
            who, sides = slots[n]
            same = [s for s in slots if s[0] == who]
            ask = T.ENTRY_ASK.format(name=who, dice=f"a d{sides}")
            if len(same) > 1:
                first = next(i for i, s in enumerate(slots) if s[0] == who)
                ask += " (" + T.ENTRY_DIE.format(i=n - first + 1, n=len(same)) + ")"
        else:
            who, sides, ask = "", 0, ""
        return EntryView(ask, sides, tuple(self.entered), len(slots), n == len(slots))


def fighter_view(role: str, f: FighterInfo, last: RoundRecord | None, side: str, index: int, rules) -> FighterView:
    mods = []
    if f.weapon_choice:
        mods.append(T.WEAPON_CHOICE)
    if f.fatigue:
        mods.append(T.FATIGUE_MOD.format(n=f.fatigue))
    faces: tuple[int, ...] = ()
    total = ""
    if last is not None:
        roll = last.side(side).fighters[index]
        faces = roll.faces
        total = T.TOTAL.format(total=roll.total)
    kind = next((k for k in rules.kinds if k.name == f.kind), None)
    glyph = standard_glyph(kind) if kind is not None and not draws_units(rules) else ""
    fill, outline = fighter_colours(rules, f.player)
    return FighterView(
        role, fighter_words(rules, f.player, f.kind), glyph, f.player,
        rules.geometry.name_of(f.square),
        T.ROLLS.format(dice=T.dice_words(f.dice.sides, f.dice.count, f.dice.keep)),
        tuple(mods) or (T.NO_MODIFIER,), faces, total, f.dice.sides,
        kind.code if kind is not None else "?", fill, outline,
    )


def fighter_colours(rules, player: int) -> tuple[tuple, tuple]:
    """(fill, outline) of a fighter as the board draws its side: its map seat's colour outlined
    dark, else white or black."""
    seats = getattr(getattr(rules, "board_map", None), "seats", None)
    if seats and 0 <= player < len(seats):
        return theme.seat_colour(seats[player].colour), theme.SEAT_OUTLINE
    return theme.piece_colours(player)


def supporters_text(defenders: tuple[FighterView, ...]) -> str:
    """The defenders after the first (King's Prerogative, a double capture), with their
    squares, dice, modifiers and faces."""
    if len(defenders) < 2:
        return ""
    others = []
    for d in defenders[1:]:
        mods = "" if d.modifiers == (T.NO_MODIFIER,) else ", " + ", ".join(d.modifiers)
        faces = (": " + " ".join(str(f) for f in d.faces)) if d.faces else ""
        others.append(T.SUPPORTER.format(name=in_sentence(d.name), square=d.square, dice=d.dice, mods=mods,
                                         faces=faces))
    return T.SUPPORTERS.format(first=in_sentence(defenders[0].name), others="; ".join(others))


def in_sentence(name: str) -> str:
    """A fighter's name inside a sentence: "the white pawn", "the blue Iron Golem"."""
    return name[:1].lower() + name[1:]


def odds_lines(info, attacker: FighterView, defenders: tuple[FighterView, ...]) -> tuple[OddsLine, ...]:
    o = info.odds
    a, d, b = percentages((o.attacker, o.defender, o.bounce))
    defence = (T.ODDS_WIN.format(name=defenders[0].name) if len(defenders) == 1
               else T.ODDS_WIN_TOGETHER.format(name=T.DEFENDERS))
    lines = [OddsLine(T.ODDS_WIN.format(name=attacker.name), a, attacker.owner),
             OddsLine(defence, d, defenders[0].owner)]
    if o.bounce:
        lines.append(OddsLine(T.ODDS_BOUNCE, b, -1))
    return tuple(lines)


def percentages(ps: tuple[Fraction, ...], decimals: int = 1) -> tuple[str, ...]:
    """Exact probabilities as percentages that add up to exactly 100 (largest remainder)."""
    scale = 100 * 10**decimals
    raw = [p * scale for p in ps]
    floors = [int(r) for r in raw]
    short = scale - sum(floors)
    order = sorted(range(len(ps)), key=lambda i: raw[i] - floors[i], reverse=True)
    for i in order[:short]:
        floors[i] += 1
    return tuple(f"{v / 10**decimals:.{decimals}f}%" for v in floors)


def round_line(r: RoundRecord) -> str:
    text = T.ROUND.format(n=r.round) + ": " + T.ROUND_LINE.format(a=r.attacker.total, d=r.defender.total)
    if r.result in ("tie", "bounce"):
        text += " \u2014 " + T.ROUND_TIE
    return text


def result_text(result: str, attacker: FighterView, defenders: tuple[FighterView, ...], last: RoundRecord | None,
                square: str) -> str:
    if result == "bounce":
        return T.RESULT_BOUNCE
    a = last.attacker.total if last else 0
    d = last.defender.total if last else 0
    if result == "attacker":
        return T.RESULT_ATTACKER.format(winner=attacker.name, a=a, d=d, square=square) + " " + T.RESULT_TOKEN
    if len(defenders) > 1:
        return T.RESULT_DEFENDERS.format(a=a, d=d, loser=in_sentence(attacker.name)) + " " + T.RESULT_TOKEN
    return T.RESULT_DEFENDER.format(winner=defenders[0].name, a=a, d=d, loser=in_sentence(attacker.name)) + " " + \
        T.RESULT_TOKEN
