"""Before the first move: the game the host proposes, each board's sealed choices, the set-up.

The host proposes the game (:class:`Proposal`: the game, its map and options, every seat with
its name, the board it sits at, person or computer, who starts, how long a board may stay away
before the other may claim the game). The guest accepts it. Then each board seals its own
seats' choices (:func:`choices_needed`: a Chess 2 army; a Dungeon Chess army, a preset or drafted
unit by unit, and where its units stand, placed automatically or by hand, :func:`drafted_choice`,
checked by both boards with :func:`check_choice`; nothing else for the other games) together with its share of the coin and its dice
chain's head, and opens them only when the other board's are sealed too (companion.link.sealing).
From the two openings both boards build the same :class:`~companion.session.GameSetup`
(:func:`build_setup`), so their journals start alike and the first position hash agrees.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from typing import Any

from ..errors import CompanionError, LinkError
from ..games import GAMES, make_rules
from ..i18n import _, ngettext
from ..session import FIGHTS_OPTION, GAMES_WITH_DICE, PLAYER_COUNTS, GameSetup, Seat
from .events import ChoicesOpened, GameReady, ProposalAccepted, ProposalReceived, Refused
from .sealing import coin_for

#: The label of each board's sealed choices for the game (armies, deployment, coin, chain head).
SETUP = "setup"
#: Minutes a board may stay away before the other may claim the game (the start screen's choices).
CLAIM_CHOICES = (5, 15, 60)
MAX_NAME = 40


@dataclass(frozen=True)
class LinkSeat:
    name: str
    board: int  # 0: the host, 1: the guest
    computer: bool = False
    level: int = 0

    def to_json(self) -> dict:
        return {"name": self.name, "board": self.board, "computer": self.computer, "level": self.level}


@dataclass(frozen=True)
class Proposal:
    """The game the host proposes. ``first``: the seat that starts (Dungeon Chess; None: drawn
    from both boards' coins); ``claim_after_s``: how long a board may stay away before the other
    may claim the game."""

    game: str
    seats: tuple[LinkSeat, ...]
    game_id: str
    board_map: str | None = None
    draw_rules: bool = False
    first: int | None = 0
    claim_after_s: int = 15 * 60
    #: the game's open options (not sealed): ``fights``, Four-Player Chess's ``mode``, ...
    options: tuple[tuple[str, str], ...] = ()
    d6_only: bool = False

    def __post_init__(self) -> None:
        object.__setattr__(self, "seats", tuple(self.seats))
        if isinstance(self.options, dict):
            object.__setattr__(self, "options", tuple(sorted(self.options.items())))
        object.__setattr__(self, "options", tuple(tuple(o) for o in self.options))
        if any(len(o) != 2 or not all(isinstance(x, str) for x in o) for o in self.options):
            raise LinkError(_("a game option is a name and a text"))
        if self.game not in GAMES:
            raise LinkError(_("unknown game {game!r}").format(game=self.game))
        counts = PLAYER_COUNTS.get(self.game, (2,))
        if len(self.seats) not in counts:
            raise LinkError(_("{game} is played by {least} to {most} players, got {n}").format(
                game=self.game, least=counts[0], most=counts[-1], n=len(self.seats)))
        for s in self.seats:
            if not isinstance(s.name, str) or not s.name.strip() or len(s.name) > MAX_NAME:
                raise LinkError(_("a player's name is 1 to {most} characters, got {name!r}").format(
                    most=MAX_NAME, name=str(s.name)[:50]))
            if s.board not in (0, 1):
                raise LinkError(_("a seat sits at board 0 (the host) or 1 (the guest), not {board!r}").format(
                    board=s.board))
        if {s.board for s in self.seats} != {0, 1}:
            raise LinkError(_("each board needs at least one seat of the game"))
        if self.first is not None and not (isinstance(self.first, int) and 0 <= self.first < len(self.seats)):
            raise LinkError(_("the first player is a seat 0 to {n} or drawn, not {first!r}").format(
                n=len(self.seats) - 1, first=self.first))
        if not isinstance(self.claim_after_s, int) or not 60 <= self.claim_after_s <= 24 * 3600:
            raise LinkError(_("a board may stay away 1 minute to 24 hours before the game can be claimed"))
        if not isinstance(self.game_id, str) or not self.game_id or "/" in self.game_id or len(self.game_id) > 80:
            raise LinkError(_("a game id is 1 to 80 characters without '/', got {game_id!r}").format(
                game_id=self.game_id[:40]))

    @property
    def boards(self) -> tuple[int, ...]:
        """The board of each seat."""
        return tuple(s.board for s in self.seats)

    def seats_of(self, board: int) -> tuple[int, ...]:
        return tuple(i for i, s in enumerate(self.seats) if s.board == board)

    def to_json(self) -> dict:
        return {"game": self.game, "seats": [s.to_json() for s in self.seats], "game_id": self.game_id,
                "board_map": self.board_map, "draw_rules": self.draw_rules, "first": self.first,
                "claim_after_s": self.claim_after_s, "options": dict(self.options), "d6_only": self.d6_only}

    @classmethod
    def from_json(cls, value: Any) -> Proposal:
        try:
            seats = tuple(LinkSeat(str(s["name"]), s["board"], bool(s["computer"]), int(s["level"]))
                          for s in value["seats"])
            options = value.get("options", {})
            if not isinstance(options, dict):
                raise TypeError("options")
            return cls(value["game"], seats, value["game_id"], value["board_map"], bool(value["draw_rules"]),
                       value["first"], value["claim_after_s"], tuple(sorted(options.items())),
                       bool(value.get("d6_only", False)))
        except (KeyError, TypeError, ValueError) as e:
            raise LinkError(_("the other board's proposal cannot be read ({kind}: {problem})").format(
                kind=type(e).__name__, problem=e)) from None


def choices_needed(proposal: Proposal) -> str | None:
    """What each board seals for its seats: ``"army"`` (Chess 2), ``"deployment"`` (Dungeon
    Chess: army and squares) or None."""
    return {"chess2": "army", "dungeon": "deployment"}.get(proposal.game)


def rules_of(proposal: Proposal, armies: str | None = None):
    options: dict = dict(proposal.options)
    if proposal.d6_only:
        options["d6_only"] = True
    if proposal.game in PLAYER_COUNTS:
        options["players"] = len(proposal.seats)
    if proposal.draw_rules:
        options["draw_rules"] = True
    if armies is not None:
        options["armies"] = armies
    return make_rules(proposal.game, proposal.board_map, **options)


def default_choices(proposal: Proposal, board: int, army: str = "classic") -> dict:
    """A computer's (or a hurried player's) choices for its board's seats: Chess 2's ``army``;
    Dungeon Chess's default army for the seat, placed as the automatic deployment places every
    seat's default army one after another (so both boards' defaults start with no King attacked;
    armies chosen in secret are placed without seeing the others', docs/link.md)."""
    need = choices_needed(proposal)
    if need is None:
        return {}
    if need == "army":
        return {str(s): {"army": army} for s in proposal.seats_of(board)}
    from ..games.draft import auto_placements

    rules = rules_of(proposal)
    out = {}
    armies = rules.armies()
    placed: list[tuple[int, str, int]] = []
    for seat in range(len(proposal.seats)):  # every seat's default army, in seat order, as the
        a = armies[seat]                     # board's own automatic deployment places them: no
        mine = auto_placements(rules, seat, list(a.units), placed)  # King attacked at the start
        placed += [(seat, name, sq) for name, sq in mine]
        if seat in proposal.seats_of(board):
            out[str(seat)] = {"army": {"faction": a.faction, "units": list(a.units)},
                              "placements": [[name, rules.geometry.name_of(sq)] for name, sq in mine]}
    return out


def computer_choices(proposal: Proposal, board: int, armies: str | list | None) -> dict:
    """The choices of a board whose seats computers play (``companion link-match``), from its
    ``--armies``: Chess 2's text ``WHITE,BLACK`` (this board's by its number, as before); Dungeon
    Chess's list of presets, one per seat (each of this board's seats plays its own, placed as
    :func:`dungeon_choices` places a preset); None: the defaults."""
    if isinstance(armies, (list, tuple)) and choices_needed(proposal) == "deployment":
        if len(armies) != len(proposal.seats):
            raise LinkError(_("give one army per player ({n}), got {armies}").format(
                n=len(proposal.seats), armies=",".join(map(str, armies))))
        return dungeon_choices(proposal, board, {s: armies[s] for s in proposal.seats_of(board)})
    army = armies.split(",")[board] if isinstance(armies, str) else "classic"
    return default_choices(proposal, board, army)


def dungeon_armies(proposal: Proposal, seat: int) -> list[tuple[str, str]]:
    """The armies ``seat`` may play in a linked Dungeon Chess game, as (preset, title): the
    rulebook's and the game's presets that fit its spawn zone within the draft's budget, the
    seat's default army first."""
    from ..games.draft import draft_problems, presets, zone_capacity

    rules = rules_of(proposal)
    default = rules.armies()[seat]
    out = []
    for name, army in presets().items():
        if not draft_problems(rules.roster, army, rules.draft_rules, zone_capacity(rules, seat, army)):
            out.append((name, army.title or name))
    out.sort(key=lambda o: o[1] != default.title)
    return out


def dungeon_choices(proposal: Proposal, board: int, chosen: dict[int, str]) -> dict:
    """This board's sealed Dungeon Chess choices from the army chosen for each of its seats (a
    preset's name): a seat that keeps its default army is placed as :func:`default_choices`
    places it; another army by the automatic deployment around this board's own seats only (the
    other board's are sealed)."""
    from ..games.draft import auto_placements, presets

    rules = rules_of(proposal)
    defaults = default_choices(proposal, board)
    armies, known = rules.armies(), presets()
    out, placed = {}, []
    for seat in proposal.seats_of(board):
        name = chosen.get(seat)
        if name not in known:
            raise LinkError(_("unknown army {name!r} for seat {seat}").format(name=name, seat=seat + 1))
        army = known[name]
        if army.faction == armies[seat].faction and list(army.units) == list(armies[seat].units):
            out[str(seat)] = defaults[str(seat)]
        else:
            mine = auto_placements(rules, seat, list(army.units), placed)
            out[str(seat)] = {"army": {"faction": army.faction, "units": list(army.units)},
                              "placements": [[u, rules.geometry.name_of(sq)] for u, sq in mine]}
        placed += [(seat, u, rules.geometry.parse_square(sq)) for u, sq in out[str(seat)]["placements"]]
    return out


def drafted_choice(proposal: Proposal, seat: int, army, placements) -> dict:
    """One seat's army drafted unit by unit (a :class:`~companion.games.draft.Army`) and placed
    by hand (``placements``: (unit name, square) for each unit) as this board's sealed choice
    for the seat; checked as :func:`check_choice` checks the other board's (LinkError)."""
    rules = rules_of(proposal)
    choice = {"army": {"faction": army.faction, "units": list(army.units)},
              "placements": [[unit, rules.geometry.name_of(sq)] for unit, sq in placements]}
    check_choice(proposal, seat, choice, rules)
    return choice


def check_choice(proposal: Proposal, seat: int, choice: Any, rules=None) -> None:
    """Is ``choice`` (``{"army": {"faction", "units"}, "placements": [[unit, square], ...]}``) an
    army the draft allows for ``seat`` (its faction's units, 75 XP at most, one King, a Pawn at
    least, fitting the spawn zone) with every unit once on a free square of the seat's own spawn
    zone where it may stand? LinkError in one line names the seat and what is wrong: a board
    checks its own choices before it seals them and the other board's once they are opened."""
    from ..games.draft import Army, Deployment, place_all

    rules = rules or rules_of(proposal)
    try:
        if not isinstance(choice, dict) or set(choice) != {"army", "placements"}:
            raise LinkError(_("expected an army and where its units stand"))
        army, placements = choice["army"], choice["placements"]
        if (not isinstance(army, dict) or set(army) != {"faction", "units"} or not isinstance(army["faction"], str)
                or not isinstance(army["units"], list) or not all(isinstance(u, str) for u in army["units"])):
            raise LinkError(_("the army is not a faction and a list of units"))
        if len(army["units"]) > rules.geometry.size:
            raise LinkError(ngettext("{n} unit does not fit a {size}-square board", "{n} units do not fit a {size}-square board",
                                     len(army['units'])).format(
                n=len(army['units']), size=rules.geometry.size))
        if not isinstance(placements, list) or not all(
                isinstance(p, list) and len(p) == 2 and all(isinstance(x, str) for x in p) for p in placements):
            raise LinkError(_("the placements are not a list of [unit, square]"))
        armies = list(rules.armies())
        armies[seat] = Army(army["faction"], tuple(army["units"]))
        dep = Deployment(rules, armies, players=(seat,))
        place_all(dep, [(seat, unit, rules.geometry.parse_square(sq)) for unit, sq in placements])
    except (CompanionError, TypeError, ValueError) as e:
        raise LinkError(_("{name}'s army cannot be played: {problem}").format(
            name=proposal.seats[seat].name, problem=e)) from None


def build_setup(proposal: Proposal, opened: tuple[dict, dict], heads: tuple[str, str]) -> GameSetup:
    """The set-up both boards play, from the proposal and both boards' opened choices
    (``{"coin": hex, "seats": {seat: choice}}``); LinkError names what cannot be used."""
    for board in (0, 1):
        given = set(opened[board].get("seats", {}))
        wanted = {str(s) for s in proposal.seats_of(board)} if choices_needed(proposal) else set()
        if given != wanted:
            raise LinkError(_("board {board} sealed choices for seats {given}, not its own {wanted}").format(
                board=board + 1, given=sorted(given), wanted=sorted(wanted)))
    choice = {int(k): v for board in (0, 1) for k, v in opened[board].get("seats", {}).items()}
    if choices_needed(proposal) == "deployment":
        rules = rules_of(proposal)
        for seat in choice:
            try:
                check_choice(proposal, seat, choice[seat], rules)
            except LinkError as e:
                raise LinkError(_("board {board}'s sealed choice: {problem}").format(
                    board=proposal.seats[seat].board + 1, problem=e)) from None
    coin = hashlib.sha256(bytes.fromhex(opened[0]["coin"]) + bytes.fromhex(opened[1]["coin"])).digest()
    seats = tuple(Seat(s.name, s.computer, s.level) for s in proposal.seats)
    options = dict(proposal.options)
    kwargs: dict = {"game_id": proposal.game_id, "board_map": proposal.board_map, "d6_only": proposal.d6_only}
    if proposal.game in GAMES_WITH_DICE or options.get(FIGHTS_OPTION) == "dice":
        kwargs.update(dice="linked", chains=tuple(heads))
    if proposal.draw_rules:
        kwargs["draw_rules"] = True
    try:
        if proposal.game == "chess2":
            options["armies"] = f"{choice[0]['army']},{choice[1]['army']}"
            rules_of(proposal, options["armies"])  # an unknown army: one line
        elif proposal.game == "dungeon":
            kwargs["start"] = _deployed(proposal, choice, coin)
        kwargs["options"] = options
        return GameSetup(proposal.game, seats, **kwargs)
    except (CompanionError, KeyError, TypeError, ValueError) as e:
        raise LinkError(_("the sealed choices cannot make a game: {problem}").format(problem=e)) from None


def _deployed(proposal: Proposal, choice: dict, coin: bytes) -> str:
    from ..games.draft import Army, deploy

    rules = rules_of(proposal)
    n = len(proposal.seats)
    armies = [Army(choice[s]["army"]["faction"], tuple(choice[s]["army"]["units"])) for s in range(n)]
    placements = [(s, name, rules.geometry.parse_square(sq)) for s in range(n) for name, sq in choice[s]["placements"]]
    first = proposal.first if proposal.first is not None else int.from_bytes(coin, "big") % n
    return rules.position_text(deploy(rules, armies, placements, first))


class Lobby:
    """The lobby's room: the proposal, its acceptance, this board's sealed choices, and the
    game's start once both boards' choices are open. Given the shared state, the sealing room,
    the events list and ``start_game(setup)`` (the session, with its journal)."""

    def __init__(self, st, sealing, events: list, start_game) -> None:
        self.st, self.sealing, self._events, self._start_game = st, sealing, events, start_game

    def propose(self, proposal: Proposal) -> None:
        st = self.st
        if st.me != 0 or st.proposal is not None:
            raise LinkError(_("only the host proposes the game, once"))
        st.proposal = proposal
        st.note("proposal", proposal=proposal.to_json())

    def accept(self) -> None:
        st = self.st
        if st.me != 1 or st.proposal is None or st.accepted:
            raise LinkError(_("there is no proposal to accept"))
        st.accepted = True
        st.note("accept")

    def choose(self, choices: dict) -> None:
        st = self.st
        if st.proposal is None or not st.accepted or st.choices is not None:
            raise LinkError(_("the game is not agreed yet, or the choices are made"))
        if choices_needed(st.proposal) == "deployment":  # a Dungeon army: checked before it is sealed
            mine = {str(s) for s in st.proposal.seats_of(st.me)}
            if not isinstance(choices, dict) or set(choices) != mine:
                given = sorted(choices) if isinstance(choices, dict) else type(choices).__name__
                raise LinkError(_("this board chooses the armies of seats {mine}, not {given}").format(
                    mine=sorted(mine), given=given))
            rules = rules_of(st.proposal)
            for seat, choice in choices.items():
                check_choice(st.proposal, int(seat), choice, rules)
        st.choices = choices
        self.sealing.seal(SETUP, {"coin": coin_for(st.root), "head": st.chain.head, "seats": choices})

    def absorb_mine(self, note: dict) -> None:
        if note["kind"] == "proposal":
            self.st.proposal = Proposal.from_json(note["proposal"])
        else:
            self.st.accepted = True

    def absorb_theirs(self, note: dict) -> str | None:
        st = self.st
        if note["kind"] == "proposal":
            if st.me != 1 or st.proposal is not None:
                return _("a proposal where none is expected")
            try:
                st.proposal = Proposal.from_json(note.get("proposal"))
            except LinkError as e:
                return str(e)
            self._events.append(ProposalReceived(st.proposal))
            return None
        if st.me != 0 or st.proposal is None:
            return _("an acceptance of no proposal")
        st.accepted = True
        self._events.append(ProposalAccepted())
        return None

    def step(self) -> bool:
        """Open this board's choices when both are sealed; start the game when both are open."""
        st = self.st
        if st.proposal is None or not st.accepted or (SETUP, st.me) not in st.commits:
            return False
        if self.sealing.step(SETUP):
            return True
        if not self.sealing.both_open(SETUP):
            return False
        opened = (self.sealing.value(SETUP, 0), self.sealing.value(SETUP, 1))
        try:
            setup = build_setup(st.proposal, opened, (opened[0]["head"], opened[1]["head"]))
        except (LinkError, KeyError, TypeError, ValueError) as e:
            st.refused += 1
            self._events.append(Refused(_("the game cannot start: {problem}").format(problem=e)))
            st.phase = "failed"
            return False
        if st.session is None:
            st.session = self._start_game(setup)
        st.phase = "playing"
        self._events += [ChoicesOpened(SETUP), GameReady(setup)]
        return True
