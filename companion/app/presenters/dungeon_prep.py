"""A Dungeon Chess game before its first move: armies drafted, who starts, deployment.

The rulebook's "SETUP" is four steps ("1. Choose your faction 2. Draft your army (75 XP)
3. Choose turn order: You First, AI First, or Random 4. Deploy units in your spawn zone").
:class:`DungeonPrep` holds them for the screens, one seat after another, using the game's own
rules (companion.games.draft): the draft constraints, the problems in words, the spawn zone
check, ``first_player`` and the step-by-step ``Deployment``. It draws nothing at random: the
"random" turn order takes the seat drawn at the edge as a value.

Plain Python; the DungeonSetup room (dungeon_setup.py) owns one while the draft and the
deployment screens are up, and builds the game's session from :meth:`start_position`.
"""

from __future__ import annotations

from typing import Callable, Sequence

from ...errors import CompanionError, DraftError
from ...games import make_rules
from ...games.draft import (
    FACTIONS, TURN_ORDER_CHOICES, Army, Deployment, army_cost, draft_problems, faction_units, first_player,
    presets, zone_capacity,
)
from ...i18n import _, ngettext
from ...session import Seat

#: The rulebook's four example armies, in its order (maps/variants/dungeon-armies.toml).
RULEBOOK_ARMIES = ("skeleton-swarm", "human-balanced", "redskin-elite", "greenskin-midrange")


class DungeonPrep:
    """Drafting, turn order and deployment of one Dungeon Chess game.

    ``seats``: one per player (people and computers): the map's seats, or fewer where the map
    offers a seating for them (three on the four-player map). Each seat starts with the
    game's default army for its place (a rulebook army that fits the map), so a group that only
    wants to play can go straight on; every army can be changed unit by unit or by a preset.
    ``dice``, ``d6_only`` and ``options`` (dice fights) are kept for the game that follows.
    ``here``: a linked game's seats at this board (companion/link): only their armies are
    drafted and placed here (the other board's are sealed there), and who starts is the
    proposal's, not asked."""

    def __init__(self, board_map: str, seats: Sequence[Seat], rules=None, draw_rules: bool = False, *,
                 dice: str = "virtual", d6_only: bool = False, options: dict | None = None,
                 here: Sequence[int] | None = None) -> None:
        self.rules = rules or make_rules("dungeon", board_map, players=len(seats), draw_rules=draw_rules)
        self.board_map = board_map
        self.draw_rules = draw_rules
        self.dice, self.d6_only, self.options = dice, d6_only, dict(options or {})
        if len(seats) != self.rules.nplayers:
            raise DraftError(ngettext("the map {board_map} has {seats} seats; {n} player was given",
                                      "the map {board_map} has {seats} seats; {n} players were given", len(seats)).format(
                board_map=board_map, seats=self.rules.nplayers, n=len(seats)))
        self.seats = tuple(seats)
        self.presets = presets()
        self.armies: list[Army] = list(self.rules.armies())
        #: per seat, the army last drafted in each faction: switching the faction tab back
        #: brings it back (a tab never wipes a draft)
        self.drafts: list[dict[str, Army]] = [{a.faction: a} for a in self.armies]
        self.here = None if here is None else tuple(here)
        if self.here is not None and (not self.here or not set(self.here) <= set(range(len(seats)))):
            raise DraftError(_("the seats drafted here are some of 0..{n}, not {here}").format(
                n=len(seats) - 1, here=self.here))
        self.seat = self.drafted[0]  # the seat whose army is on the draft screen
        self.first: int | None = None  # who moves first, once chosen
        self.first_choice: str | None = None
        self.deployment: Deployment | None = None
        self.guide = None  # the DeploymentTracker following the board

    @property
    def nplayers(self) -> int:
        return self.rules.nplayers

    @property
    def drafted(self) -> tuple[int, ...]:
        """The seats whose armies are drafted and placed here (every seat, unless linked)."""
        return tuple(range(self.nplayers)) if self.here is None else self.here

    @property
    def is_last_seat(self) -> bool:
        return self.seat == self.drafted[-1]

    @property
    def phase(self) -> str:
        """draft (choosing armies) or deploy (placing them on the board)."""
        return "deploy" if self.deployment is not None else "draft"

    # ----- drafting ---------------------------------------------------------------------------
    def army(self, seat: int | None = None) -> Army:
        return self.armies[self.seat if seat is None else seat]

    def units(self, faction: str | None = None) -> list:
        """The faction's unit kinds in the rulebook's roster order (Pawn ... King)."""
        return faction_units(self.rules.roster, faction or self.army().faction)

    def set_faction(self, faction: str) -> None:
        """Draft for another faction (units of two factions never mix). The army drafted so
        far is kept for its faction and comes back when its tab is chosen again; the new
        faction's own draft (empty the first time) takes its place."""
        if faction not in FACTIONS:
            raise DraftError(_("unknown faction {faction!r}; choose one of {factions}").format(
                faction=faction, factions=', '.join(FACTIONS)))
        army = self.army()
        if faction != army.faction:
            kept = self.drafts[self.seat]
            kept[army.faction] = army
            self.armies[self.seat] = kept.get(faction, Army(faction, ()))

    def add(self, unit: str) -> None:
        kind = self.rules.roster_kind(unit)
        army = self.army()
        if kind.faction != army.faction:
            raise DraftError(_("{unit} is a {faction} unit, not {army}").format(
                unit=_(kind.title), faction=kind.faction, army=army.faction))
        self.armies[self.seat] = Army(army.faction, army.units + (unit,))

    def remove(self, unit: str) -> None:
        army = self.army()
        if unit not in army.units:
            return
        units = list(army.units)
        del units[len(units) - 1 - units[::-1].index(unit)]
        self.armies[self.seat] = Army(army.faction, tuple(units))

    def use_preset(self, name: str) -> None:
        """One of the ready-made armies (by its name in dungeon-armies.toml), as it is."""
        try:
            self.armies[self.seat] = self.presets[name]
        except KeyError:
            raise DraftError(_("unknown army {name!r}; presets: {presets}").format(
                name=name, presets=', '.join(sorted(self.presets)))) from None

    def clear(self) -> None:
        self.armies[self.seat] = Army(self.army().faction, ())

    def preset_of(self, seat: int | None = None) -> str | None:
        """The preset the army is exactly (same faction, same units), if any."""
        army = self.army(seat)
        for name, p in self.presets.items():
            if p.faction == army.faction and sorted(p.units) == sorted(army.units):
                return name
        return None

    def cost(self, seat: int | None = None) -> int:
        return army_cost(self.rules.roster, self.army(seat))

    def remaining(self, seat: int | None = None) -> int:
        return self.rules.draft_rules.budget - self.cost(seat)

    def zone_squares(self, seat: int | None = None) -> int:
        """How many of the army's units the seat's spawn zone can hold (water counts only for
        units that may stand on it)."""
        seat = self.seat if seat is None else seat
        return zone_capacity(self.rules, seat, self.army(seat))

    def problems(self, seat: int | None = None) -> list[str]:
        """What keeps the army from being played, in the draft rules' words (empty: ready)."""
        return draft_problems(self.rules.roster, self.army(seat), self.rules.draft_rules, self.zone_squares(seat))

    def ready(self, seat: int | None = None) -> bool:
        return not self.problems(seat)

    def next_seat(self) -> bool:
        """Go on to the next seat's army; False when this was the last seat (or the army is
        not ready: DraftError says why)."""
        problems = self.problems()
        if problems:
            raise DraftError(_("player {n}'s army cannot be played yet: {problems}").format(
                n=self.seat + 1, problems="; ".join(problems)))
        i = self.drafted.index(self.seat)
        if i + 1 < len(self.drafted):
            self.seat = self.drafted[i + 1]
            return True
        return False

    def previous_seat(self) -> bool:
        """Back to the previous seat's army; False at the first seat."""
        i = self.drafted.index(self.seat)
        if i > 0:
            self.seat = self.drafted[i - 1]
            return True
        return False

    # ----- turn order --------------------------------------------------------------------------
    @property
    def you(self) -> int:
        """The seat the rulebook calls "you": the first seat played by a person (the first
        seat when every seat is a computer)."""
        return next((i for i, s in enumerate(self.seats) if not s.computer), 0)

    def choose_first(self, choice: str, random_value: int | None = None) -> int:
        """"first" (you), "second" (the seat after you) or "random" (``random_value``, the seat
        drawn at the edge). Every army must be ready."""
        if choice not in TURN_ORDER_CHOICES:
            raise DraftError(_("turn order {choice!r}: expected one of {choices}").format(
                choice=choice, choices=', '.join(TURN_ORDER_CHOICES)))
        for seat in range(self.nplayers):
            if not self.ready(seat):
                raise DraftError(_("player {n}'s army cannot be played yet: {problems}").format(
                    n=seat + 1, problems="; ".join(self.problems(seat))))
        self.first = first_player(choice, self.you, self.nplayers, random_value)
        self.first_choice = choice
        return self.first

    # ----- deployment ---------------------------------------------------------------------------
    def begin_deployment(self, make_guide: Callable, sensed, t_ms: int,
                         placed: Sequence[tuple[int, str, int]] = ()) -> list:
        """Start placing the armies on the board; returns the guide's first outputs (what to
        light, what to say). ``make_guide(rules, deployment, sensed=, t_ms=)`` builds the
        DeploymentTracker. ``placed``: the placements made before a power cut, made again (each
        checked as on the screen); the board is then taken to show them (its pieces stay on the
        table) until its first snapshot says otherwise, and ``sensed`` is not used."""
        if self.first is None and self.here is None:
            raise DraftError(_("choose who moves first before the armies are deployed"))
        for seat in self.drafted:
            if not self.ready(seat):
                raise DraftError(_("player {n}'s army cannot be played yet: {problems}").format(
                    n=seat + 1, problems="; ".join(self.problems(seat))))
        self.deployment = Deployment(self.rules, self.armies, players=self.here)
        try:
            for player, unit, sq in placed:
                if self.deployment.next_unit() != (player, unit):
                    raise DraftError(_("the placements are not in the deployment's order at {unit}").format(unit=unit))
                self.deployment.place(sq)
        except DraftError:
            self.deployment = None
            raise
        self.guide = make_guide(self.rules, self.deployment, sensed=None if placed else frozenset(sensed), t_ms=t_ms)
        return self.guide.tick(t_ms)

    def end_deployment(self) -> None:
        """Back to the draft (the armies stay as drafted; placements are dropped)."""
        self.deployment = None
        self.guide = None
        self.seat = self.drafted[-1]

    def placed_here(self) -> dict[int, tuple[Army, list[tuple[str, int]]]]:
        """Each seat drafted here: its army and where each unit was placed (a linked game's
        sealed choice, companion.link.lobby.drafted_choice)."""
        dep = self.deployment
        if dep is None or not dep.done:
            raise DraftError(_("the armies are not deployed yet"))
        return {seat: (self.armies[seat], [(u, sq) for p, u, sq in dep.placed if p == seat]) for seat in self.drafted}

    # ----- a linked draft kept on disk (companion.link.store.LinkStore.save_draft) ---------------
    def progress(self) -> dict:
        """This board's draft so far, as plain values: the seat on screen, each seat's army and
        its drafts per faction, the placements (None while drafting)."""
        name = self.rules.geometry.name_of
        dep = self.deployment
        return {"seat": self.seat,
                "armies": {str(s): {"faction": self.armies[s].faction, "units": list(self.armies[s].units)}
                           for s in self.drafted},
                "drafts": {str(s): {f: list(a.units) for f, a in self.drafts[s].items()} for s in self.drafted},
                "placed": None if dep is None else [[p, u, name(sq)] for p, u, sq in dep.placed]}

    def restore(self, progress: dict) -> list[tuple[int, str, int]] | None:
        """Take up :meth:`progress` again, every value checked as the screens check it (a unit
        of the army's faction, a seat drafted here, each placement where the deployment allows
        it); DraftError names what is wrong. Returns the placements to make (None: drafting)."""
        try:
            seat, armies, drafts, placed = (progress["seat"], progress["armies"], progress["drafts"],
                                            progress["placed"])
            if seat not in self.drafted or set(armies) != {str(s) for s in self.drafted} \
                    or set(drafts) != set(armies):
                raise DraftError(_("the seats drafted here are {here}").format(here=list(self.drafted)))
            for s in self.drafted:
                self.seat = s
                for faction, units in {**drafts[str(s)], armies[str(s)]["faction"]: armies[str(s)]["units"]}.items():
                    self.set_faction(faction)
                    self.clear()
                    for unit in units:
                        self.add(unit)
                self.set_faction(armies[str(s)]["faction"])
            self.seat = seat
            if placed is None:
                return None
            geo = self.rules.geometry
            return [(int(p), str(u), geo.parse_square(sq)) for p, u, sq in placed]
        except DraftError:
            raise
        except CompanionError as e:
            raise DraftError(str(e)) from None
        except (KeyError, TypeError, ValueError, AttributeError) as e:
            raise DraftError(_("the draft's values cannot be read ({kind})").format(kind=type(e).__name__)) from None

    def start_position(self) -> str:
        """The deployed armies as the game's start position text (the journal keeps it)."""
        if self.deployment is None:
            raise DraftError(_("the armies are not deployed yet"))
        pos = self.deployment.position(self.first or 0)
        return self.rules.position_text(pos)
