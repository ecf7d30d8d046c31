"""Choosing the armies of a Chess 2 game, double-blind, on one shared screen.

"Players choose their armies in a simultaneous, double-blind fashion at the start of each match.
... the loser of a game may switch to any army for the next game. The winner of the previous game
may not switch." On one screen for both players that means: each player who chooses taps an army
while the other looks away, hides it (the screen then shows nothing of it and says so), and when
every choice is in, both are revealed together. A computer chooses first, in secret (drawn at the
edge, companion/app/presenters/match_room.py). When only one player may choose (the loser of a
match game), there is nothing to hide: the winner's army is known.

:class:`ArmyChoice` is the state (plain Python); :class:`ArmiesPresenter` the screen's view and
commands.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ...games.chess2_armies import ARMIES
from .. import texts as T

ARMY_ORDER = tuple(ARMIES)  # the rulebook's order


@dataclass
class ArmyChoice:
    """The armies of the next game, by colour (0 white, 1 black). ``choosers``: the colours
    that choose now; the others keep ``kept``. ``chosen``: sealed choices (a computer's is
    sealed from the start); ``selected``: the army the current chooser has tapped, not yet
    hidden; ``revealed``: both shown."""

    names: tuple[str, str]
    computers: tuple[bool, bool]
    choosers: tuple[int, ...]
    kept: dict[int, str] = field(default_factory=dict)
    chosen: dict[int, str] = field(default_factory=dict)
    selected: str | None = None
    revealed: bool = False

    @property
    def hidden(self) -> bool:
        """Is this choice double-blind (more than one side chooses)?"""
        return len(self.choosers) > 1

    @property
    def current(self) -> int | None:
        """The colour choosing now (None once every choice is in)."""
        return next((c for c in self.choosers if c not in self.chosen), None)

    @property
    def complete(self) -> bool:
        return self.current is None

    def select(self, army: str) -> None:
        if army in ARMIES and self.current is not None:
            self.selected = army

    def seal(self) -> None:
        """The current chooser's tapped army is in (hidden when the choice is double-blind)."""
        if self.current is not None and self.selected is not None:
            self.chosen[self.current] = self.selected
            self.selected = None
            if not self.hidden:
                self.revealed = True

    def reveal(self) -> None:
        if self.complete:
            self.revealed = True

    def armies(self) -> tuple[str, str] | None:
        """(white's army, black's army) once revealed."""
        if not self.revealed:
            return None
        both = {**self.kept, **self.chosen}
        return both[0], both[1]


@dataclass(frozen=True)
class ArmyButton:
    key: str
    label: str
    hint: str
    selected: bool
    enabled: bool


@dataclass(frozen=True)
class ArmiesView:
    title: str
    score: str  # the match score ("" for a single game)
    notes: tuple[str, ...]  # who keeps their army, who has chosen in secret
    ask: str  # what to do now
    buttons: tuple[ArmyButton, ...]  # the six armies (empty while nothing is to be tapped)
    action: str  # the big button: hide, reveal, start ("" when it has nothing to do)
    action_key: str
    can_leave: bool  # a match may be left from here
    revealed: str  # both armies, once revealed
    hint: str = ""  # what the tapped army is
    back: str = ""  # the other button: leave the match, or back to the start screen


class ArmiesPresenter:
    def __init__(self, matches, display) -> None:
        self.matches = matches  # the MatchRoom (match_room.py), which holds the army choice
        self.display = display

    # commands
    def pick(self, army: str) -> None:
        choice = self.matches.army_choice
        if choice is not None:
            choice.select(army)
            self.display.changed()

    def act(self) -> None:
        """The big button: hide my choice, reveal both, or start the game."""
        key = self.view().action_key if self.matches.army_choice is not None else ""
        choice = self.matches.army_choice
        if key == "hide":
            choice.seal()
        elif key == "choose":  # the only one choosing: nothing to hide, the game starts
            choice.seal()
            self.matches.start_chosen()
            return
        elif key == "reveal":
            choice.reveal()
        elif key == "start":
            self.matches.start_chosen()
            return
        self.display.changed()

    def leave(self) -> None:
        """The other button: leave the match, or back to the start screen (the same: a match
        left is filed as it stands)."""
        self.matches.leave()

    # view
    def view(self) -> ArmiesView | None:
        choice: ArmyChoice | None = self.matches.army_choice
        if choice is None:
            return None
        match = self.matches.match
        title = T.ARMIES_TITLE
        score = ""
        if match is not None:
            title = T.ARMIES_MATCH_TITLE.format(n=match.next_number, length=match.length)
            score = match_score(match)
        names, colours = choice.names, T.COLOUR_NAMES
        notes = []
        for c, army in sorted(choice.kept.items()):
            notes.append(T.ARMIES_KEEPS.format(name=names[c], army=T.ARMY_NAMES[army]))
        if match is not None and match.finished_games and choice.hidden and not choice.kept:
            notes.append(T.ARMIES_BOTH_SWITCH)
        elif choice.kept:
            for c in choice.choosers:
                notes.append(T.ARMIES_MAY_SWITCH.format(name=names[c]))
        for c in choice.choosers:
            if c in choice.chosen and not choice.revealed:
                words = T.ARMIES_COMPUTER if choice.computers[c] else T.ARMIES_HIDDEN
                notes.append(words.format(name=names[c]))
        current = choice.current
        buttons: tuple[ArmyButton, ...] = ()
        action, key, ask, revealed = "", "", "", ""
        if choice.revealed:
            white, black = choice.armies()
            revealed = T.ARMIES_REVEALED.format(white=names[0], white_army=T.ARMY_NAMES[white],
                                                black=names[1], black_army=T.ARMY_NAMES[black])
            action, key = T.ARMIES_START, "start"
        elif current is None:
            ask, action, key = T.ARMIES_REVEAL_NOW, T.ARMIES_REVEAL, "reveal"
        else:
            others = [names[c] for c in (0, 1) if c != current and not choice.computers[c]]
            who = names[current] if names[current] == colours[current] else \
                T.NAME_AND_COLOUR.format(name=names[current], colour=colours[current])
            if choice.hidden and others:
                ask = T.ARMIES_CHOOSE.format(who=who, other=others[0])
            else:
                ask = T.ARMIES_CHOOSE_OPEN.format(who=who)
            buttons = tuple(ArmyButton(a, T.ARMY_NAMES[a], T.ARMY_HINTS[a], a == choice.selected, True)
                            for a in ARMY_ORDER)
            action, key = (T.ARMIES_HIDE, "hide") if choice.hidden else (T.ARMIES_START, "choose")
            if choice.selected is None:
                action, key = "", ""
        hint = f"{T.ARMY_NAMES[choice.selected]}: {T.ARMY_HINTS[choice.selected]}" if choice.selected else ""
        back = T.LEAVE_MATCH if match is not None else T.BACK
        return ArmiesView(title, score, tuple(notes), ask, buttons, action, key, match is not None, revealed, hint, back)


def match_score(match) -> str:
    a, b = match.score
    return T.MATCH_SCORE.format(a=match.players[0].name, b=match.players[1].name, sa=points_text(a), sb=points_text(b))


def points_text(x: float) -> str:
    """A score in points: 1, 1½, ½."""
    whole = int(x)
    return (str(whole) if whole else "") + "\u00bd" if x - whole else str(whole)
