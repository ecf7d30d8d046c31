"""Dungeon Chess setup, pure: drafting an army, choosing who starts, deploying in spawn zones.

The rulebook's "SETUP": "1. Choose your faction 2. Draft your army (75 XP) 3. Choose turn
order: You First, AI First, or Random 4. Deploy units in your spawn zone". Constraints and the
ready-made armies are data (maps/variants/dungeon-armies.toml). Nothing here draws a random
number: "Random" takes the drawn value as an argument.

An army is a faction and a list of unit names (maps/variants/dungeon.toml). Deployment places
them one at a time (``Deployment``: which unit next, where it may go, undo), or all at once
(``auto_placements`` / ``deploy``) for tests, the AI and the default start position.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Iterable, Mapping, Sequence

from ..bounds import MAX_DATA_FILE_BYTES, read_text_file
from ..core.compiled import relative_rank
from ..core.position import Position
from ..errors import DraftError, VariantError
from ..i18n import _, ngettext
from ..toml_locations import parse_toml
from .abilities import can_stand

ARMIES_FILE = Path(__file__).resolve().parent.parent.parent / "maps" / "variants" / "dungeon-armies.toml"
FACTIONS = ("human", "undead", "redskin", "greenskin")
#: The order the screen asks for units during deployment.
DEPLOY_ORDER = ("king", "queen", "bishop", "knight", "castle", "pawn")
TURN_ORDER_CHOICES = ("first", "second", "random")


@dataclass(frozen=True)
class DraftRules:
    budget: int = 75
    kings: int = 1
    min_pawns: int = 1


@dataclass(frozen=True)
class Army:
    """A drafted army: its faction and its units by roster name (duplicates repeat)."""

    faction: str
    units: tuple[str, ...]
    title: str = ""
    source: str = ""
    rulebook: bool = False

    @classmethod
    def from_counts(cls, faction: str, counts: Mapping[str, int], title: str = "", source: str = "",
                    rulebook: bool = False) -> "Army":
        units = tuple(name for name, n in counts.items() for _ in range(n))
        return cls(faction, units, title, source, rulebook)

    def counts(self) -> dict[str, int]:
        return dict(Counter(self.units))


# ------------------------------------------------------------------------------- the data


def load_armies_file(path: str | Path | None = None) -> tuple[DraftRules, dict[str, Army]]:
    """The draft constraints and the preset armies; errors name the file and the key."""
    path = Path(path) if path else ARMIES_FILE
    where = str(path)
    try:
        text = read_text_file(path, MAX_DATA_FILE_BYTES, _("an armies file"), DraftError)
    except FileNotFoundError:
        raise DraftError(_("{where}: no such file").format(where=where)) from None
    except (OSError, UnicodeDecodeError) as e:
        raise DraftError(_("{where}: cannot read the armies ({reason})").format(
                             where=where, reason=getattr(e, 'strerror', None) or e)) from None
    data = parse_toml(text, where, DraftError)
    for key in data:
        if key not in ("draft", "armies"):
            raise DraftError(_("{where}: unknown table [{key}]; expected [draft] and [armies.<name>]").format(
                                 where=where, key=key))
    d = data.get("draft", {})
    for key, value in d.items():
        if key not in ("budget", "kings", "min_pawns"):
            raise DraftError(_("{where}: [draft] unknown key {key!r}; allowed: budget, kings, min_pawns").format(
                                 where=where, key=key))
        if not isinstance(value, int) or isinstance(value, bool) or value < 0:
            raise DraftError(_("{where}: [draft] {key} must be a whole number >= 0, got {value!r}").format(
                                 where=where, key=key, value=value))
    rules = DraftRules(**d)
    armies = {}
    for name, table in data.get("armies", {}).items():
        at = f"{where}: [armies.{name}]"
        if not isinstance(table, dict):
            raise DraftError(_("{at} must be a table").format(at=at))
        for key in table:
            if key not in ("title", "faction", "units", "source", "rulebook"):
                raise DraftError(_("{at}: unknown key {key!r}; allowed: title, faction, units, source, rulebook").format(
                                     at=at, key=key))
        units = table.get("units")
        if not isinstance(units, dict) or not units:
            raise DraftError(_("{at}: units must be a table like {{ warlock = 1, skeleton = 55 }}").format(at=at))
        for unit, n in units.items():
            if not isinstance(n, int) or isinstance(n, bool) or n < 1:
                raise DraftError(_("{at}: units.{unit} must be a count >= 1, got {n!r}").format(at=at, unit=unit, n=n))
        if table.get("faction") not in FACTIONS:
            raise DraftError(_("{at}: faction must be one of {factions}, got {get!r}").format(
                                 at=at, factions=', '.join(FACTIONS), get=table.get('faction')))
        armies[name] = Army.from_counts(table["faction"], units, table.get("title", name),
                                        table.get("source", ""), bool(table.get("rulebook", False)))
    return rules, armies


def presets(path: str | Path | None = None) -> dict[str, Army]:
    return load_armies_file(path)[1]


def draft_rules(path: str | Path | None = None) -> DraftRules:
    return load_armies_file(path)[0]


# ------------------------------------------------------------------------------ drafting


ROSTER_ORDER = ("pawn", "castle", "knight", "bishop", "queen", "king")


def faction_units(roster, faction: str) -> list:
    """The faction's units in the rulebook's roster order (Pawn, Castle, Knight, Bishop, Queen,
    King), for the draft screen: each has ``title``, ``cost``, ``abilities`` and its plain
    words in ``dict(kind.info)["notes"]``."""
    if faction not in FACTIONS:
        raise DraftError(_("unknown faction {faction!r}; choose one of {factions}").format(
                             faction=faction, factions=', '.join(FACTIONS)))
    order = {role: i for i, role in enumerate(ROSTER_ORDER)}
    return sorted((k for k in roster.kinds if k.faction == faction), key=lambda k: order.get(k.role, len(order)))


def army_cost(roster, army: Army) -> int:
    return sum(_kind(roster, u).cost for u in army.units)


def draft_problems(roster, army: Army, rules: DraftRules | None = None, zone_squares: int | None = None) -> list[str]:
    """Everything wrong with ``army``, in words for the draft screen (empty: the army is fine).

    ``zone_squares``: the size of the spawn zone on the chosen map; None skips that check (an
    army may be drafted before the map is chosen)."""
    rules = rules or DraftRules()
    problems = []
    if army.faction not in FACTIONS:
        return [_("unknown faction {faction!r}; choose one of {factions}").format(faction=army.faction,
                                                                                   factions=", ".join(FACTIONS))]
    names = {k.name: k for k in roster.kinds}
    unknown = sorted({u for u in army.units if u not in names})
    if unknown:
        units = ", ".join(k.name for k in roster.kinds if k.faction == army.faction)
        return [_("unknown unit {unit!r}; the {faction} units are {units}").format(
            unit=u, faction=army.faction, units=units) for u in unknown]
    foreign = sorted({u for u in army.units if names[u].faction != army.faction})
    for u in foreign:  # in the board's language (docs/i18n.md): the draft screen shows these
        problems.append(_("{unit} is from another faction").format(unit=_(names[u].title)))
    cost = army_cost(roster, army)
    if cost > rules.budget:
        problems.append(_("the army costs {cost} XP, over the {budget} XP budget by {over}").format(
            cost=cost, budget=rules.budget, over=cost - rules.budget))
    kings = sum(1 for u in army.units if names[u].royal)
    if kings != rules.kings:
        problems.append(ngettext("an army needs exactly {n} King, this one has {have}",
                                 "an army needs exactly {n} Kings, this one has {have}", rules.kings).format(
            n=rules.kings, have=kings))
    pawns = sum(1 for u in army.units if names[u].role == "pawn")
    if pawns < rules.min_pawns:
        problems.append(ngettext("an army needs at least {n} Pawn, this one has {have}",
                                 "an army needs at least {n} Pawns, this one has {have}", rules.min_pawns).format(
            n=rules.min_pawns, have=pawns))
    if zone_squares is not None and len(army.units) > zone_squares:
        problems.append(_("the army has {units} units but the spawn zone on this map has only {squares} squares: "
                          "every unit must fit in the spawn zone").format(units=len(army.units), squares=zone_squares))
    return problems


def validate_army(roster, army: Army, rules: DraftRules | None = None, zone_squares: int | None = None) -> None:
    problems = draft_problems(roster, army, rules, zone_squares)
    if problems:
        title = army.title or _("{faction} army").format(faction=army.faction)
        raise DraftError(_("{army}: {problems}").format(army=title, problems="; ".join(problems)))


def remaining_budget(roster, army: Army, rules: DraftRules | None = None) -> int:
    return (rules or DraftRules()).budget - army_cost(roster, army)


def first_player(choice: str, you: int = 0, nplayers: int = 2, random_value: int | None = None) -> int:
    """Who moves first. "first": you; "second": the next seat after you ("AI First");
    "random": ``random_value`` (a seat number 0..nplayers-1 drawn by the caller)."""
    if choice == "first":
        return you
    if choice == "second":
        return (you + 1) % nplayers
    if choice == "random":
        if random_value is None or not 0 <= random_value < nplayers:
            raise DraftError(_("turn order 'random' needs the drawn seat, a number 0..{nplayers}, got "
                               "{random_value!r}").format(nplayers=nplayers - 1, random_value=random_value))
        return random_value
    raise DraftError(_("turn order {choice!r}: expected one of {turn_order_choices}").format(
                         choice=choice, turn_order_choices=', '.join(TURN_ORDER_CHOICES)))


# ---------------------------------------------------------------------------- deployment


def spawn_zone(rules, player: int) -> frozenset[int]:
    """Player ``player``'s (0-based) spawn squares on the rules' map."""
    return rules.board_map.spawn_zone(player + 1)


def zone_capacity(rules, player: int, army: Army) -> int:
    """How many of ``army``'s units can stand in the zone (water squares only for units that
    may stand on water)."""
    geo = rules.geometry
    zone = spawn_zone(rules, player)
    floor = sum(1 for s in zone if can_stand(geo, s, _FLOOR_ONLY))
    water = len(zone) - floor
    swimmers = sum(1 for u in army.units if rules.roster_kind(u).water == "stop")
    return floor + min(water, swimmers)


def deploy_order(rules, army: Army) -> list[str]:
    """The army's units in the order the screen asks for them: King first, Pawns last."""
    rank = {role: i for i, role in enumerate(DEPLOY_ORDER)}
    return sorted(army.units, key=lambda u: (rank.get(rules.roster_kind(u).role, len(rank)), u))


def _lateral(geo, sq: int, home: str) -> int:
    return sq % geo.width if home in ("south", "north") else sq // geo.width


def auto_placements(rules, player: int, units: Sequence[str],
                    placed: Iterable[tuple[int, str, int]] = ()) -> list[tuple[str, int]]:
    """A default deployment: the King at the back in the middle, the other non-Pawns around it
    from the back row forward, the Pawns in the rows just in front of them, middle first.
    A unit skips a square where it would attack a King or expose one (cannons make that easy:
    a King behind its own Pawn on an enemy cannon's file is attacked), unless no square is
    left. ``placed``: (player, unit name, square) already on the board. Deterministic; raises
    DraftError if the units do not fit."""
    geo = rules.geometry
    home = rules.homes[player]
    placed = list(placed)
    taken = {s for __, __, s in placed}
    scratch = build_position(rules, placed)
    free = [s for s in spawn_zone(rules, player) if s not in taken]
    if not free:
        raise DraftError(_("player {player}'s spawn zone is full").format(player=player + 1))
    lats = [_lateral(geo, s, home) for s in spawn_zone(rules, player)]
    centre2 = min(lats) + max(lats)  # twice the middle, to stay in integers

    def key(s, back_first):
        depth = relative_rank(geo, s, home)
        lat = _lateral(geo, s, home)
        return (depth if back_first else -depth, abs(2 * lat - centre2), lat)

    back = sorted(free, key=lambda s: key(s, True))
    used: set[int] = set()
    out = []
    ordered = deploy_order(rules, _units_army(units))
    pawn_pool: list[int] | None = None
    for name in ordered:
        kind = rules.roster_kind(name)
        if kind.role == "pawn" and pawn_pool is None:
            # the rows in front of the other units first, going forward, then whatever is left
            line = max((relative_rank(geo, s, home) for s in used), default=-1)
            pawn_pool = sorted(free, key=lambda s: (relative_rank(geo, s, home) <= line,) + key(s, True))
        pool = pawn_pool if kind.role == "pawn" else back
        fits = [s for s in pool if s not in used and can_stand(geo, s, kind)]
        if fits:
            s = next((s for s in fits if not _checks_any_king(rules, scratch, player, kind, s)), fits[0])
            scratch.put(s, scratch.new_piece(kind.code, player))
            used.add(s)
            out.append((name, s))
        else:
            raise DraftError(_("player {player}: no room left in the spawn zone for {title} ({n} units, {n2} free "
                               "squares): the army must fit its spawn zone").format(
                                 player=player + 1, title=_(kind.title), n=len(ordered), n2=len(free)))
    return out


def _checks_any_king(rules, pos: Position, player: int, kind, sq: int) -> bool:
    """Would a unit of ``kind`` on ``sq`` leave some King attacked?"""
    pos.put(sq, pos.new_piece(kind.code, player))
    try:
        for p in range(rules.nplayers):
            for k in pos.royals[p]:
                if any(rules.is_attacked(pos, k, e) for e in range(rules.nplayers) if e != p):
                    return True
        return False
    finally:
        pos.take(sq)


def _units_army(units: Sequence[str]) -> Army:
    return Army("", tuple(units))


class Deployment:
    """Step-by-step deployment for the screen: which unit next, where it may go, undo.

    Players deploy in ``order`` (default: seat order), each all their units, King first.
    ``players``: only these seats deploy (a linked board places its own seats' armies, the
    other board's are sealed); the other seats' armies are then not looked at.
    """

    def __init__(self, rules, armies: Sequence[Army], order: Sequence[int] | None = None,
                 players: Iterable[int] | None = None):
        if len(armies) != rules.nplayers:
            raise DraftError(_("{nplayers} players need {nplayers} armies, got {n}").format(
                                 nplayers=rules.nplayers, n=len(armies)))
        self.rules = rules
        self.armies = tuple(armies)
        order = tuple(range(rules.nplayers)) if order is None else tuple(order)
        if sorted(order) != list(range(rules.nplayers)):
            raise DraftError(_("deployment order must name each player 0..{nplayers} once, got {order}").format(
                                 nplayers=rules.nplayers - 1, order=order))
        if players is not None:
            only = set(players)
            order = tuple(p for p in order if p in only)
        for p in order:
            army = self.armies[p]
            validate_army(rules.roster, army, rules.draft_rules, zone_capacity(rules, p, army))
        self.queue = [(p, u) for p in order for u in deploy_order(rules, self.armies[p])]
        self.placed: list[tuple[int, str, int]] = []

    @property
    def done(self) -> bool:
        return len(self.placed) == len(self.queue)

    def next_unit(self) -> tuple[int, str] | None:
        """(player, unit name) to place next, or None when everyone has deployed."""
        return None if self.done else self.queue[len(self.placed)]

    def occupied(self) -> frozenset[int]:
        return frozenset(s for _, _, s in self.placed)

    def free_squares(self) -> frozenset[int]:
        """Where the next unit may go (its player's spawn squares, empty, standable)."""
        nxt = self.next_unit()
        if nxt is None:
            return frozenset()
        player, name = nxt
        kind = self.rules.roster_kind(name)
        taken = self.occupied()
        return frozenset(s for s in spawn_zone(self.rules, player)
                         if s not in taken and can_stand(self.rules.geometry, s, kind))

    def place(self, sq: int) -> None:
        nxt = self.next_unit()
        if nxt is None:
            raise DraftError(_("every unit is deployed already"))
        player, name = nxt
        if sq not in self.free_squares():
            geo = self.rules.geometry
            name_sq = geo.name_of(sq) if 0 <= sq < geo.size else str(sq)
            kind = self.rules.roster_kind(name)
            if sq not in spawn_zone(self.rules, player):
                why = _("it is not in player {player}'s spawn zone").format(player=player + 1)
            elif sq in self.occupied():
                why = _("a unit stands there already")
            else:
                why = _("a {unit} cannot stand on water").format(unit=_(kind.title))
            raise DraftError(_("cannot place {unit} on {square}: {why}").format(
                                 unit=_(kind.title), square=name_sq, why=why))
        self.placed.append((player, name, sq))

    def undo(self) -> tuple[int, str, int] | None:
        """Take back the last placement (None if nothing is placed)."""
        return self.placed.pop() if self.placed else None

    def auto_rest(self) -> None:
        """Place every remaining unit automatically (auto_placements per player)."""
        while not self.done:
            player, _ = self.next_unit()
            rest = [u for p, u in self.queue[len(self.placed):] if p == player]
            for name, sq in auto_placements(self.rules, player, rest, self.placed):
                if self.next_unit() != (player, name):
                    raise AssertionError("deployment order and auto placement disagree")
                self.place(sq)

    def position(self, first: int = 0) -> Position:
        if not self.done:
            player, name = self.next_unit()
            raise DraftError(_("deployment is not finished: player {player} still has to place {title}").format(
                                 player=player + 1, title=_(self.rules.roster_kind(name).title)))
        return build_position(self.rules, self.placed, first)


def build_position(rules, placements: Iterable[tuple[int, str, int]], first: int = 0) -> Position:
    """A start position from (player, unit name, square) placements; ``first`` moves first."""
    if not 0 <= first < rules.nplayers:
        raise DraftError(_("first player must be 0..{nplayers}, got {first}").format(
                             nplayers=rules.nplayers - 1, first=first))
    pos = rules.new_position()
    for player, name, sq in placements:
        kind = rules.roster_kind(name)
        pos.put(sq, pos.new_piece(kind.code, player))
    pos.set_turn(first)
    return pos


def deploy(rules, armies: Sequence[Army], placements: Iterable[tuple[int, str, int]] | None = None,
           first: int = 0) -> Position:
    """Deploy ``armies`` (one per player) and return the start position. ``placements``:
    (player, unit name, square) for every unit in any order; None = the automatic deployment.
    Every placement is checked as on the screen (spawn zone, free square, water)."""
    dep = Deployment(rules, armies)
    if placements is None:
        dep.auto_rest()
        return dep.position(first)
    place_all(dep, placements)
    return dep.position(first)


def place_all(dep: Deployment, placements: Iterable[tuple[int, str, int]]) -> None:
    """Place (player, unit name, square) for every unit ``dep`` still has to place, in any
    order; each is checked as on the screen (DraftError says which and why)."""
    placements = list(placements)
    want = Counter((p, u) for p, u in dep.queue[len(dep.placed):])
    got = Counter((p, u) for p, u, __ in placements)
    if want != got:
        missing = want - got
        extra = got - want
        parts = []

        def units(counts: Counter) -> str:
            return ", ".join(_("player {player} {unit} x{n}").format(player=p + 1, unit=u, n=n)
                             for (p, u), n in sorted(counts.items()))

        if missing:
            parts.append(_("missing {units}").format(units=units(missing)))
        if extra:
            parts.append(_("not in the armies {units}").format(units=units(extra)))
        raise DraftError(_("placements do not match the armies: {problems}").format(problems="; ".join(parts)))
    # feed them in the screen's order so every check applies
    pending = list(placements)
    while not dep.done:
        player, name = dep.next_unit()
        i = next(i for i, (p, u, __) in enumerate(pending) if p == player and u == name)
        dep.place(pending.pop(i)[2])


def _kind(roster, name: str):
    for k in roster.kinds:
        if k.name == name:
            return k
    raise DraftError(_("unknown unit {name!r}").format(name=name))


class _FloorOnly:
    water = "block"


_FLOOR_ONLY = _FloorOnly()
