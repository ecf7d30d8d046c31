"""One game from the first move to the result: rules, position, players, dice, the board.

The session is the app's single owner of the game. Everything that changes the game is an
*action*, a small value (:class:`PlayMove`, :class:`PlayAnswer`, :class:`Roll`, :class:`Undo`,
:class:`Resign`, :class:`OfferDraw`, :class:`AnswerDraw`), and every action goes the same way:

1. it is checked (an illegal move or an impossible die is refused, nothing is written);
2. it is handed to the ``recorder`` (the crash-safe journal, companion.journal) *before* it
   takes effect, so a power cut never loses an action that the players saw happen;
3. it is applied, and the session returns what happened as event values (``MovePlayed``,
   ``FightStarted``, ``DiceRolled``, ``FightEnded``, ``GameOver``, ...) for the presenters.

Replaying the journal's actions through :meth:`Session.replay` therefore rebuilds the game
exactly, fatigue and dice record included. Randomness never happens inside an action: the
faces of a virtual roll are drawn first (by the dice source, at the edge) and the action
carries them.

The physical board comes in through a tracker (companion.board.tracker) that the app attaches
with :meth:`Session.attach_tracker`. The session feeds it sensor events and answers, turns
its ``MoveDetected`` into :class:`PlayMove` actions (and ``AnswerDetected``, a choice made on
the board such as a Salamander's step, into :class:`PlayAnswer`), tells it
``position_changed()`` after each action, and passes its other outputs (lights, guidance,
prompts, in/out of sync) on to the presenters untouched. No clock, no threads, no I/O here.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field, replace
from typing import Any, Callable, Iterable, Sequence

from .board.tracker import AnswerDetected, MoveDetected
from .core.moves import Answer, Move
from .dice.odds import DiceSpec, FightOdds
from .dice.record import DiceRecord, FighterRoll, RoundRecord, score_round, start_record
from .dice.sources import SeededDice, SystemDice, commitment_of, seed_bytes
from .errors import CompanionError, DiceError, IllegalMoveError, RecordError, VariantError
from .games import FIGHTS, GAMES, make_rules
from .games.fight_dice import seat_colour

COLOURS = ("white", "black")
#: Where the dice of a Combat Chess game come from (the start screen's three choices).
DICE_MODES = ("virtual", "seeded", "entered")
#: Source names written in the journal and the dice record, per dice mode.
SOURCE_OF_MODE = {"virtual": "system", "seeded": "seeded", "entered": "entered"}
GAMES_WITH_DICE = frozenset({"combat"})
#: How many players each game takes (a game not listed: 2). Dungeon Chess: the map's seats, or a
#: smaller seating the map offers (the session asks the rules for ``players=len(seats)``).
PLAYER_COUNTS = {"dungeon": (2, 3, 4), "chess4": (4,)}
#: Games whose draw rules are an option (the start screen's "Draws"); other games' are fixed.
GAMES_WITH_DRAW_OPTION = frozenset({"dungeon"})
#: Game options a set-up may carry to the game's rules (``make_rules(game, map, **options)``).
GAME_OPTIONS: dict[str, tuple[str, ...]] = {"chess2": ("armies",), "chess4": ("mode",)}
#: The option every game that takes dice fights has (``("fights", "dice")``: Human Combat Chess's
#: fights on its captures, companion/games/fights.py; the dice modes then apply as in Combat Chess).
FIGHTS_OPTION = "fights"


def game_options(game: str) -> tuple[str, ...]:
    """The options a set-up of ``game`` may carry: its own, and ``fights`` where it takes them."""
    info = GAMES.get(game)
    fights = (FIGHTS_OPTION,) if info is not None and not info.no_fights and game != "combat" else ()
    return GAME_OPTIONS.get(game, ()) + fights
#: Games with joint decisions (Chess 2's secret duel bids) and how their parts are entered at the
#: table: each player taps a bid on the screen in turn while the other looks away ("screen"), or
#: the players bid with real stones in closed fists, reveal together and enter both ("stones").
GAMES_WITH_BIDS = frozenset({"chess2"})
BID_MODES = ("screen", "stones")
#: Results the players decided rather than the position: taking a move back does not undo them.
DECIDED_RESULTS = frozenset({"resigned", "draw agreed"})
MAX_TIES = 3
#: The move list's entry for a player who resigned a game of three or more.
RESIGNS = "resigns"


# --- the game's set-up ----------------------------------------------------------------------------


@dataclass(frozen=True)
class Seat:
    """One player: a display name, and for a computer seat its strength (level 1..)."""

    name: str
    computer: bool = False
    level: int = 0

    def __post_init__(self) -> None:
        if not isinstance(self.name, str) or not self.name.strip():
            raise VariantError(f"a player needs a name, got {self.name!r}")
        if self.computer and (not isinstance(self.level, int) or self.level < 1):
            raise VariantError(f"a computer player needs a level of 1 or more, got {self.level!r}")


@dataclass(frozen=True)
class GameSetup:
    """Everything chosen on the start screen. ``seed`` (hex) exists for seeded dice only and is
    kept secret until the game ends; ``start`` is an optional start position text;
    ``draw_rules``: the game's optional draw rules (Dungeon Chess; off: the rulebook's game);
    ``options``: the game's own options as (name, text) pairs (Chess 2: ``("armies",
    "classic,animals")``); ``bids``: how a game's secret bids are entered (:data:`BID_MODES`)."""

    game: str
    seats: tuple[Seat, ...]
    dice: str = "virtual"
    d6_only: bool = False
    game_id: str = "game"
    seed: str | None = None
    start: str | None = None
    board_map: str | None = None
    draw_rules: bool = False
    options: tuple[tuple[str, str], ...] = ()
    bids: str = "screen"

    def __post_init__(self) -> None:
        object.__setattr__(self, "seats", tuple(self.seats))
        if isinstance(self.options, dict):
            object.__setattr__(self, "options", tuple(sorted(self.options.items())))
        object.__setattr__(self, "options", tuple(tuple(o) for o in self.options))
        if self.game not in GAMES:
            raise VariantError(f"unknown game {self.game!r}; known: {', '.join(sorted(GAMES))}")
        counts = PLAYER_COUNTS.get(self.game, (2,))
        if len(self.seats) not in counts:
            wanted = "2 players" if counts == (2,) else f"{counts[0]} to {counts[-1]} players"
            raise VariantError(f"{self.game} is played by {wanted}, got {len(self.seats)}")
        if self.dice not in DICE_MODES:
            raise DiceError(f"dice must be one of {', '.join(DICE_MODES)}, got {self.dice!r}")
        if self.dice == "seeded":
            if not self.seed:
                raise DiceError("seeded dice need a seed")
            try:
                seed_bytes(bytes.fromhex(self.seed))
            except (ValueError, CompanionError):
                raise DiceError(f"the dice seed must be hex text, got {self.seed!r}") from None
        elif self.seed is not None:
            raise DiceError(f"only seeded dice have a seed, not {self.dice} dice")
        if self.d6_only and not self.has_dice:
            raise DiceError(f"'only d6' is a dice option; {self.game} has no dice (dice fights are off)")
        if self.draw_rules and self.game not in GAMES_WITH_DRAW_OPTION:
            raise VariantError(f"{self.game}'s draw rules are part of the game, not an option")
        if not isinstance(self.game_id, str) or not self.game_id or "/" in self.game_id:
            raise VariantError(f"a game id is non-empty text without '/', got {self.game_id!r}")
        allowed = game_options(self.game)
        for option in self.options:
            if len(option) != 2 or not all(isinstance(x, str) for x in option):
                raise VariantError(f"a game option is a name and a text, got {option!r}")
            if option[0] not in allowed:
                known = f"; {self.game} takes {', '.join(allowed)}" if allowed else f"; {self.game} takes none"
                raise VariantError(f"unknown option {option[0]!r} for {self.game}{known}")
            if option[0] == FIGHTS_OPTION and option[1] not in FIGHTS:
                raise VariantError(f"fights={option[1]!r}: expected one of {', '.join(FIGHTS)}")
        if self.bids not in BID_MODES:
            raise VariantError(f"bids must be one of {', '.join(BID_MODES)}, got {self.bids!r}")
        if self.bids != "screen" and self.game not in GAMES_WITH_BIDS:
            raise VariantError(f"{self.game} has no bids to enter")

    @property
    def option_values(self) -> dict[str, str]:
        return dict(self.options)

    @property
    def has_dice(self) -> bool:
        """Are captures dice fights (Human Combat Chess, or any game with ``fights=dice``)?"""
        return self.game in GAMES_WITH_DICE or dict(self.options).get(FIGHTS_OPTION) == "dice"

    @property
    def undo_after_end(self) -> bool:
        """May the move that ended the game be taken back (with the computer's reply)? Casual
        play says yes, on every game, guided on the board like any undo. Tournament mode turns
        it off at the table (companion.tournament.table.Table.can_undo: only the arbiter takes
        moves back, and not after the end), and so does a clock that has stopped at the end.
        Never with seeded dice: their seed is revealed when the game ends, and the dice after a
        takeback could then be foreseen. A result decided off the board (Adjudicate: a flag, a
        claim, the arbiter) is not undone by taking a move back either."""
        return self.dice != "seeded"

    @property
    def commitment(self) -> str | None:
        """SHA-256 of the seed, published when the game starts (seeded dice only)."""
        return commitment_of(bytes.fromhex(self.seed)) if self.seed else None

    def to_json(self) -> dict[str, Any]:
        return {
            "game": self.game,
            "seats": [{"name": s.name, "computer": s.computer, "level": s.level} for s in self.seats],
            "dice": self.dice,
            "d6_only": self.d6_only,
            "game_id": self.game_id,
            "seed": self.seed,
            "start": self.start,
            "board_map": self.board_map,
            # only for a game whose draw rules are a choice (a journal without it: see from_json)
            **({"draw_rules": self.draw_rules} if self.game in GAMES_WITH_DRAW_OPTION else {}),
            # only for a game that has options, or bids (issue 21)
            **({"options": dict(self.options)} if self.options else {}),
            **({"bids": self.bids} if self.game in GAMES_WITH_BIDS else {}),
        }

    @classmethod
    def from_json(cls, value: Any, where: str = "setup") -> GameSetup:
        # draw_rules came with issue 17: a journal without it was played with the draw rules on
        fields = _Fields(value, where, ("game", "seats", "dice", "d6_only", "game_id", "seed", "start", "board_map",
                                        "draw_rules", "options", "bids"), optional=("draw_rules", "options", "bids"))
        options = fields.value.get("options", {})
        if not isinstance(options, dict) or not all(isinstance(v, str) for v in options.values()):
            raise RecordError(f"{where}: 'options' must be an object of texts, e.g. {{\"armies\": \"classic,animals\"}}")
        seats = []
        raw = fields.value["seats"]
        if not isinstance(raw, list):
            raise RecordError(f"{where}: 'seats' must be a list of players")
        for i, s in enumerate(raw):
            f = _Fields(s, f"{where} seat {i + 1}", ("name", "computer", "level"))
            seats.append(Seat(f.text("name"), f.flag("computer"), f.integer("level")))
        try:
            return cls(
                fields.text("game"), tuple(seats), fields.text("dice"), fields.flag("d6_only"),
                fields.text("game_id"), fields.optional_text("seed"), fields.optional_text("start"),
                fields.optional_text("board_map"),
                fields.flag("draw_rules") if "draw_rules" in fields.value
                else fields.value.get("game") in GAMES_WITH_DRAW_OPTION,
                tuple(sorted(options.items())), fields.text("bids") if "bids" in fields.value else "screen",
            )
        except CompanionError as e:
            raise RecordError(f"{where}: {e}") from None


# --- actions: what the journal holds --------------------------------------------------------------


@dataclass(frozen=True)
class PlayMove:
    """A move made on the board, in coordinate text (``e2e4``, ``e7e8q``)."""

    move: str


@dataclass(frozen=True)
class Roll:
    """The faces of one round of the pending fight: the attacker's dice and each defender's.
    ``source`` says where they came from ("system", "seeded", "entered")."""

    attacker: tuple[int, ...]
    defenders: tuple[tuple[int, ...], ...]
    source: str


@dataclass(frozen=True)
class PlayAnswer:
    """The answer to a choice the game waits for in the middle of a turn (Dungeon Chess: a
    Salamander's extra step, ``stay`` or a square such as ``i8``), as ``rules.answer_text``."""

    answer: str


@dataclass(frozen=True)
class PlayPart:
    """One player's part of a *joint* decision (Chess 2's secret duel bid), as the text of the
    option (``"2"``). The session keeps it sealed (and the journal holds it, so a power cut
    loses nothing) but shows it to nobody; when every player's part is in, the joint answer is
    played. Against the computer, its part is sealed before the person's."""

    player: int
    part: str


@dataclass(frozen=True)
class Undo:
    """Take back ``turns`` whole turns (a move with its fight, or with the choice it asked
    for, counts as one turn)."""

    turns: int


@dataclass(frozen=True)
class SetPosition:
    """An arbiter's correction: the game goes on from ``position`` (``rules.position_text``).
    It counts as a turn (Undo takes it back) and stays in the game's record."""

    position: str


@dataclass(frozen=True)
class Resign:
    player: int


@dataclass(frozen=True)
class OfferDraw:
    player: int


@dataclass(frozen=True)
class AnswerDraw:
    accept: bool


@dataclass(frozen=True)
class Adjudicate:
    """The game ends off the board (a flag, a second illegal move, a claim, an agreed or an
    arbiter's result): ``winners`` (empty: nobody wins) and ``reason`` (a key of
    companion.app.texts.RESULT_REASONS)."""

    winners: tuple[int, ...]
    reason: str


Action = PlayMove | PlayAnswer | PlayPart | Roll | Undo | Resign | OfferDraw | AnswerDraw | Adjudicate | SetPosition


def action_to_json(action: Action) -> dict[str, Any]:
    if isinstance(action, PlayMove):
        return {"type": "move", "move": action.move}
    if isinstance(action, PlayAnswer):
        return {"type": "answer", "answer": action.answer}
    if isinstance(action, PlayPart):
        return {"type": "part", "player": action.player, "part": action.part}
    if isinstance(action, Roll):
        return {"type": "roll", "attacker": list(action.attacker),
                "defenders": [list(d) for d in action.defenders], "source": action.source}
    if isinstance(action, Undo):
        return {"type": "undo", "turns": action.turns}
    if isinstance(action, Resign):
        return {"type": "resign", "player": action.player}
    if isinstance(action, OfferDraw):
        return {"type": "offer-draw", "player": action.player}
    if isinstance(action, AnswerDraw):
        return {"type": "answer-draw", "accept": action.accept}
    if isinstance(action, Adjudicate):
        return {"type": "adjudicate", "winners": list(action.winners), "reason": action.reason}
    if isinstance(action, SetPosition):
        return {"type": "position", "position": action.position}
    raise TypeError(f"not a session action: {action!r}")


def action_from_json(value: Any, where: str = "action") -> Action:
    """The inverse of :func:`action_to_json`; RecordError names ``where`` and the field."""
    kind = value.get("type") if isinstance(value, dict) else None
    if kind == "move":
        return PlayMove(_Fields(value, where, ("type", "move")).text("move"))
    if kind == "answer":
        return PlayAnswer(_Fields(value, where, ("type", "answer")).text("answer"))
    if kind == "part":
        f = _Fields(value, where, ("type", "player", "part"))
        return PlayPart(f.integer("player", 0), f.text("part"))
    if kind == "roll":
        f = _Fields(value, where, ("type", "attacker", "defenders", "source"))
        defenders = f.value["defenders"]
        if not isinstance(defenders, list) or not defenders:
            raise RecordError(f"{where}: 'defenders' must be a non-empty list of dice lists")
        return Roll(f.faces(value["attacker"], "attacker"),
                    tuple(f.faces(d, f"defenders[{i}]") for i, d in enumerate(defenders)), f.text("source"))
    if kind == "undo":
        return Undo(_Fields(value, where, ("type", "turns")).integer("turns", 1))
    if kind == "resign":
        return Resign(_Fields(value, where, ("type", "player")).integer("player", 0))
    if kind == "offer-draw":
        return OfferDraw(_Fields(value, where, ("type", "player")).integer("player", 0))
    if kind == "answer-draw":
        return AnswerDraw(_Fields(value, where, ("type", "accept")).flag("accept"))
    if kind == "adjudicate":
        f = _Fields(value, where, ("type", "winners", "reason"))
        winners = value["winners"]
        if not isinstance(winners, list) or not all(isinstance(w, int) and not isinstance(w, bool) for w in winners):
            raise RecordError(f"{where}: 'winners' must be a list of player numbers")
        return Adjudicate(tuple(winners), f.text("reason"))
    if kind == "position":
        return SetPosition(_Fields(value, where, ("type", "position")).text("position"))
    raise RecordError(f"{where}: unknown action type {kind!r} "
                      f"(expected move, answer, roll, undo, resign, offer-draw, answer-draw, adjudicate, part "
                      f"or position)")


def start_to_json(setup: GameSetup) -> dict[str, Any]:
    """The journal's first entry: the set-up (the commitment is shown, the seed kept)."""
    return {"type": "start", "version": 1, "setup": setup.to_json(), "commitment": setup.commitment}


def start_from_json(value: Any, where: str = "start") -> GameSetup:
    f = _Fields(value, where, ("type", "version", "setup", "commitment"))
    if value["type"] != "start":
        raise RecordError(f"{where}: the first entry must be the game's start, got type {value['type']!r}")
    if f.integer("version") != 1:
        raise RecordError(f"{where}: journal version {value['version']} is not known (this companion reads 1)")
    setup = GameSetup.from_json(value["setup"], f"{where} setup")
    if value["commitment"] != setup.commitment:
        raise RecordError(f"{where}: the dice commitment does not belong to the seed")
    return setup


# --- events: what the presenters get ----------------------------------------------------------------


@dataclass(frozen=True)
class FighterInfo:
    """One fighter as the fight screen shows it."""

    player: int
    kind: str  # piece kind name: "pawn", "knight", ...
    square: int
    uid: int
    dice: DiceSpec
    fatigue: int
    weapon_choice: bool

    @property
    def modifier(self) -> int:
        return (1 if self.weapon_choice else 0) - self.fatigue


@dataclass(frozen=True)
class FightInfo:
    """A pending fight: who, with which dice and modifiers, the exact odds from this round on,
    and the rounds rolled so far (ties)."""

    number: int
    round: int
    move: str
    san: str
    attacker: FighterInfo
    defenders: tuple[FighterInfo, ...]
    odds: FightOdds
    rounds: tuple[RoundRecord, ...]
    prerogative: bool = False


@dataclass(frozen=True)
class MoveEntry:
    """One line of the move list. ``fight`` is the fight's result, if the move started one;
    ``effects``: what the turn did, in order, as the game records it (the position variable
    ``effects`` of each of its steps: the move, the answers to its questions)."""

    player: int
    san: str
    move: str
    frm: int
    to: int
    fight: str | None = None
    effects: tuple = ()


@dataclass(frozen=True)
class GameResult:
    """How the game ended: ``winners`` is empty for a draw; ``reason`` is a key of
    companion.app.texts.RESULT_REASONS ("checkmate", "resigned", "draw agreed", ...)."""

    winners: frozenset[int]
    reason: str

    @property
    def is_draw(self) -> bool:
        return not self.winners


@dataclass(frozen=True)
class GameStarted:
    setup: GameSetup
    commitment: str | None


@dataclass(frozen=True)
class MovePlayed:
    entry: MoveEntry
    ply: int


@dataclass(frozen=True)
class AnswerPlayed:
    """A choice in the middle of a turn was answered (``text``: ``stay``, ``i8``)."""

    answer: Answer
    text: str


@dataclass(frozen=True)
class PartSealed:
    """A player's part of a joint decision is in (its value is not told: it stays sealed until
    every part is in, then the answer is played)."""

    player: int


@dataclass(frozen=True)
class FightStarted:
    fight: FightInfo


@dataclass(frozen=True)
class DiceRolled:
    """One round was rolled; ``fight`` is the fight after it (None when it ended)."""

    round: RoundRecord
    fight: FightInfo | None


@dataclass(frozen=True)
class FightEnded:
    number: int
    result: str  # "attacker", "defender" or "bounce"
    rounds: tuple[RoundRecord, ...]
    attacker: FighterInfo
    defenders: tuple[FighterInfo, ...]


@dataclass(frozen=True)
class TurnsUndone:
    entries: tuple[MoveEntry, ...]


@dataclass(frozen=True)
class PlayerResigned:
    """A player left a game of three or more (their pieces leave the board); play goes on."""

    player: int


@dataclass(frozen=True)
class PositionSet:
    """The position was corrected (an arbiter's SetPosition); the board is guided to it."""

    position: str


@dataclass(frozen=True)
class DrawOffered:
    player: int


@dataclass(frozen=True)
class DrawDeclined:
    player: int


@dataclass(frozen=True)
class GameOver:
    result: GameResult
    revealed_seed: str | None


@dataclass(frozen=True)
class ActionRefused:
    """The board reported a move the game cannot take (the tracker is told to guide back)."""

    reason: str


# --- the session --------------------------------------------------------------------------------------


def rules_for(setup: GameSetup):
    """The rules a set-up is played by: its game on its map, with its options (only d6, the
    draw rules, the number of players seated, a game's own such as Chess 2's armies)."""
    options: dict[str, Any] = {"d6_only": True} if setup.d6_only else {}
    if setup.draw_rules:
        options["draw_rules"] = True
    if setup.game in PLAYER_COUNTS:
        options["players"] = len(setup.seats)
    options.update(setup.option_values)
    return make_rules(setup.game, setup.board_map, **options)


class Session:
    """A game in progress. Build it with :meth:`new` or :meth:`replay`."""

    def __init__(self, setup: GameSetup, *, rules=None, recorder: Callable[[dict], None] | None = None,
                 source=None) -> None:
        self.setup = setup
        self.rules = rules or rules_for(setup)
        if len(setup.seats) != self.rules.nplayers:
            raise VariantError(f"{setup.game} on this map is played by {self.rules.nplayers} players; "
                               f"{len(setup.seats)} seats were given")
        self.pos = self.rules.position_from_text(setup.start) if setup.start else self.rules.start_position()
        #: called with each action's JSON before it takes effect (the journal's append)
        self.recorder = recorder
        self.source = source if source is not None else default_source(setup)
        self.record: DiceRecord | None = _start_dice_record(setup, self.rules, self.pos) if setup.has_dice else None
        self.moves: list[MoveEntry] = []
        self.result: GameResult | None = None
        self.draw_offer: int | None = None
        self.actions = 0
        self.tracker = None
        #: when set, a move the tracker detects goes here instead of :meth:`play` (a clock
        #: that presses itself records the move with its press)
        self.on_move_detected: Callable | None = None
        #: the game was ended off the board (Adjudicate: a flag, a claim, the arbiter's result)
        self.adjudicated = False
        self._turn_starts: list[int] = []
        #: the game as it stands, as journal action entries: undone turns and declined draw
        #: offers left out (companion.gametext writes it as the game's text)
        self.history: list[dict[str, Any]] = []
        self._history_at: list[int] = []  # where each turn starts in ``history``
        self._known_before: list[dict[int, tuple[str, int]]] = []  # ``_known`` before each correction
        self._known: dict[int, tuple[str, int]] = {p.uid: (p.kind.name, p.owner) for _, p in self.pos.pieces()}
        #: the parts of the pending joint decision that are in: player -> part (sealed: never
        #: shown; see :meth:`sealed_players`)
        self._sealed: dict[int, str] = {}

    # ----- construction -------------------------------------------------------------------------
    @classmethod
    def new(cls, setup: GameSetup, *, recorder: Callable[[dict], None] | None = None, source=None, rules=None):
        """A fresh game; the start entry goes to ``recorder`` first. Returns (session, events).
        ``rules``: the game's rules object when the caller builds it (a tournament's)."""
        if recorder is not None:
            recorder(start_to_json(setup))
        session = cls(setup, rules=rules, recorder=recorder, source=source)
        return session, [GameStarted(setup, setup.commitment)] + session._check_end()

    @classmethod
    def replay(cls, entries: Sequence[dict], *, source=None,
               progress: Callable[[int, int], None] | None = None) -> tuple[Session, int, str | None]:
        """Rebuild a game from journal entries (the start entry first).

        Returns ``(session, used, problem)``: ``used`` entries were applied; ``problem`` says
        why the rest could not be (None when all were). Raises RecordError when not even the
        start entry is usable. (A review that keeps each position replays through
        companion.tournament.table.Table.replay's ``after``.)"""
        if not entries:
            raise RecordError("the journal is empty: it has no start entry")
        setup = start_from_json(entries[0], "journal entry 1")
        session = cls(setup, source=source)
        used = 1
        for i, entry in enumerate(entries[1:], start=2):
            try:
                session.apply_entry(entry, f"journal entry {i}")
            except CompanionError as e:
                return session, used, str(e)
            used += 1
            if progress is not None:
                progress(used, len(entries))
        return session, used, None

    def apply_entry(self, entry: dict, where: str = "journal entry") -> list:
        """Apply one journaled action while replaying (checked, not recorded again, no tracker):
        RecordError or IllegalMoveError say why it cannot be."""
        action = action_from_json(entry, where)
        self._check(action)
        return self._apply(action)

    # ----- queries ----------------------------------------------------------------------------------
    @property
    def turn(self) -> int:
        return self.pos.turn

    @property
    def is_over(self) -> bool:
        return self.result is not None

    @property
    def seats(self) -> tuple[Seat, ...]:
        return self.setup.seats

    def in_check(self) -> bool:
        return self.result is None and self.pos.pending is None and self.rules.in_check(self.pos)

    def last_move(self) -> tuple[int, int] | None:
        """(from, to) of the last move still on the board, for the 'last move' marks (None
        after a resignation or a position set by the arbiter: no piece moved)."""
        last = self.moves[-1] if self.moves else None
        return (last.frm, last.to) if last is not None and last.frm >= 0 else None

    def pending_fight(self) -> FightInfo | None:
        d = self.pos.pending
        if d is None or d.kind != "fight":
            return None
        return self._fight_info()

    def joint_decision(self):
        """The pending joint decision (both players answer at once: a duel's secret bids), or None."""
        d = self.pos.pending
        return d if self.result is None and d is not None and not d.chance and d.get("players") else None

    @property
    def sealed_players(self) -> tuple[int, ...]:
        """Who has sealed their part of the pending joint decision (never what it is)."""
        return tuple(sorted(self._sealed))

    def parts_missing(self) -> tuple[int, ...]:
        """The players whose part of the pending joint decision is still to come."""
        d = self.joint_decision()
        return tuple(p for p in d.get("players") if p not in self._sealed) if d is not None else ()

    def part_options(self, player: int) -> tuple:
        """``player``'s options in the pending joint decision (a bid of 0, 1 or 2 stones)."""
        d = self.joint_decision()
        if d is None or player not in d.get("players"):
            return ()
        return tuple(d.get("options")[d.get("players").index(player)])

    def computer_to_move(self) -> int | None:
        """The seat index of a computer that should choose a move now (or answer a choice it
        waits for in the middle of its turn, such as a Salamander's step), else None."""
        if self.result is not None or self.draw_offer is not None:
            return None
        d = self.pos.pending
        if d is not None:
            if d.chance or not 0 <= d.player < len(self.seats):
                return None
            return d.player if self.seats[d.player].computer else None
        return self.turn if self.seats[self.turn].computer else None

    def captured(self, player: int) -> list[str]:
        """Kind names of ``player``'s pieces no longer on the board, in the order of value."""
        present = {p.uid for _, p in self.pos.pieces()}
        present |= {p.state["carries"] for _, p in self.pos.pieces() if "carries" in p.state}  # KoL's King in his Tower
        gone = [kind for uid, (kind, owner) in self._known.items() if owner == player and uid not in present]
        order = {k.name: k.value for k in self.rules.kinds}
        return sorted(gone, key=lambda k: -order.get(k, 0))

    def fight_history(self, uid: int) -> list[dict[str, Any]]:
        """Every finished fight of piece ``uid``: number, move, role, opponent(s), result, rounds."""
        out = []
        for number, move_text, att, defs, result, rounds in self.pos.var("fights", ()):
            if uid == att:
                role, others = "attacker", list(defs)
            elif uid in defs:
                role, others = "defender", [att]
            else:
                continue
            won = (result == "attacker") == (role == "attacker") if result != "bounce" else None
            out.append({"number": number, "move": move_text, "role": role,
                        "opponents": [self._known.get(o, ("piece", -1)) for o in others],
                        "result": result, "won": won, "rounds": max(1, len(rounds))})
        return out

    def can_undo(self) -> bool:
        return bool(self._turn_starts) and (self.result is None or self._undo_after_end_refused() is None)

    def _undo_after_end_refused(self) -> str | None:
        """Why the finished game's last move cannot be taken back (None: it can)."""
        if not self.setup.undo_after_end:
            return ("the game is over and its dice seed is revealed; start a new one" if self.setup.seed
                    else "the game is over; start a new one")
        if self.result.reason in DECIDED_RESULTS:
            return f"the game ended by agreement ({self.result.reason}); start a new one"
        if self.adjudicated:
            return f"the game ended off the board ({self.result.reason}); start a new one"
        return None

    # ----- player commands -----------------------------------------------------------------------------
    def play(self, move: Move | str) -> list:
        """A move from the board (tracker) or a test; refused moves raise IllegalMoveError."""
        text = move if isinstance(move, str) else self.rules.move_text(self.pos, move)
        return self._act(PlayMove(text))

    def play_answer(self, answer: Answer | str) -> list:
        """The answer to the choice the game waits for (from the board, the screen or the
        computer): an Answer or its text (``stay``, ``i8``); IllegalMoveError if it is none."""
        text = answer if isinstance(answer, str) else self.rules.answer_text(answer)
        return self._act(PlayAnswer(text))

    def play_part(self, player: int, part) -> list:
        """``player``'s part of the pending joint decision (a bid), sealed until every part is
        in; the last part plays the joint answer. IllegalMoveError (nothing changes) if it is not
        one of the player's options, or the player's part is in already."""
        return self._act(PlayPart(player, str(part)))

    def roll(self) -> list:
        """Roll the pending fight's dice with the game's source (virtual or seeded dice)."""
        fight = self._require_fight()
        if self.source is None:
            raise DiceError("this game uses real dice: enter the numbers rolled")
        addr = (str(fight.number), fight.round)
        att = self.source.roll_side([fight.attacker.dice], addr[0], addr[1], "attacker")[0]
        defs = self.source.roll_side([d.dice for d in fight.defenders], addr[0], addr[1], "defender")
        return self._act(Roll(tuple(att), tuple(tuple(d) for d in defs), self.source.name))

    def enter_dice(self, attacker: Sequence[int], defenders: Sequence[Sequence[int]]) -> list:
        """Faces of real dice, typed on the screen; DiceError (nothing changes) if impossible."""
        return self._act(Roll(tuple(attacker), tuple(tuple(d) for d in defenders), "entered"))

    def undo(self) -> list:
        """Take back the last turn, and more until a person is to move (so a move against the
        computer takes back its reply too)."""
        if not self._turn_starts:
            raise IllegalMoveError("there is no move to take back")
        if self.result is not None and self._undo_after_end_refused():
            raise IllegalMoveError(self._undo_after_end_refused())
        turns = 1
        turn_players = self._turn_players()
        while turns < len(self._turn_starts) and self.seats[turn_players[-turns]].computer:
            turns += 1
        return self._act(Undo(turns))

    def resign(self, player: int) -> list:
        return self._act(Resign(player))

    def offer_draw(self, player: int) -> list:
        """``player`` offers a draw; a computer opponent answers at once."""
        events = self._act(OfferDraw(player))
        other = 1 - player
        if self.seats[other].computer:
            events += self._act(AnswerDraw(computer_accepts_draw(self.rules, self.pos, other)))
        return events

    def answer_draw(self, accept: bool) -> list:
        return self._act(AnswerDraw(bool(accept)))

    def act(self, action: Action, *, record: bool = True) -> list:
        """Check, record (unless ``record`` is false: the caller's own journal entry already
        holds it, e.g. a clock press that completes a move) and apply ``action``."""
        return self._act(action, record=record)

    # ----- the tracker ---------------------------------------------------------------------------------
    def attach_tracker(self, tracker) -> list:
        """Follow the physical board with ``tracker`` (which reads this session's ``rules`` and
        ``pos``); returns its first outputs (what to light, what to fix)."""
        self.tracker = tracker
        return self._route(tracker.position_changed())

    def begin_setup(self) -> list:
        """Guide the players to set up the game's position on the board (SetupCompleted when
        it stands)."""
        if self.tracker is None:
            return []
        return self._route(self.tracker.begin_setup())

    def feed_board(self, event) -> list:
        """A sensor event from the board (SquareChanged, OccupancySnapshot, ...)."""
        if self.tracker is None:
            return []
        return self._route(self.tracker.feed(event))

    def tick(self, t_ms: int) -> list:
        if self.tracker is None:
            return []
        return self._route(self.tracker.tick(t_ms))

    def choose(self, option) -> list:
        """The answer to a tracker prompt (promotion piece, which of two moves)."""
        if self.tracker is None:
            return []
        return self._route(self.tracker.choose(option))

    def request_move(self, move: Move) -> list:
        """The computer chose ``move``: light it so that a person makes it on the board."""
        if self.tracker is None:
            return []
        return self._route(self.tracker.request_move(move))

    def _route(self, outputs: Iterable | None) -> list:
        events: list = []
        for out in outputs or ():
            if isinstance(out, (MoveDetected, AnswerDetected)):
                try:
                    if isinstance(out, MoveDetected) and self.on_move_detected is not None:
                        # a clock that presses itself: the move and the press are one action
                        events += self.on_move_detected(out)
                        continue
                    events += self.play(out.move) if isinstance(out, MoveDetected) else self.play_answer(out.answer)
                except CompanionError as e:
                    events.append(ActionRefused(str(e)))
                    if self.tracker is not None:
                        events += self._route(self.tracker.position_changed())
            else:
                events.append(out)
        return events

    # ----- actions ------------------------------------------------------------------------------------
    def _act(self, action: Action, record: bool = True) -> list:
        self._check(action)
        if record and self.recorder is not None:
            try:
                self.recorder(action_to_json(action))
            except OSError as e:  # a full or failing SD card: refuse rather than lose it later
                raise RecordError(f"the game could not be saved ({e.strerror or e}); nothing was changed") from e
        events = self._apply(action)
        if self.tracker is not None:
            events += self._route(self.tracker.position_changed())
        return events

    def _check(self, action: Action) -> None:
        """Refuse an action that cannot be applied now, before anything is written."""
        if self.result is not None:
            if not isinstance(action, Undo):
                raise IllegalMoveError("the game is over")
            if self._undo_after_end_refused():
                raise IllegalMoveError(self._undo_after_end_refused())
        if isinstance(action, PlayMove):
            if self.draw_offer is not None:
                raise IllegalMoveError("a draw offer is waiting for an answer")
            self.rules.parse_move(self.pos, action.move)
        elif isinstance(action, PlayAnswer):
            if self._sealed:
                raise IllegalMoveError("the bids are being sealed one by one: enter the other player's bid")
            self._find_answer(action.answer)
        elif isinstance(action, PlayPart):
            self._check_part(action)
        elif isinstance(action, Roll):
            fight = self._require_fight()
            if action.source not in ("system", "seeded", "entered"):
                raise DiceError(f"unknown dice source {action.source!r}")
            if len(action.defenders) != len(fight.defenders):
                raise DiceError(f"this fight has {len(fight.defenders)} defender(s); "
                                f"{len(action.defenders)} dice list(s) were given")
            fight.attacker.dice.check_faces(list(action.attacker))
            for d, faces in zip(fight.defenders, action.defenders):
                d.dice.check_faces(list(faces))
        elif isinstance(action, Undo):
            if not 1 <= action.turns <= len(self._turn_starts):
                raise IllegalMoveError(f"cannot take back {action.turns} turn(s); {len(self._turn_starts)} were played")
        elif isinstance(action, (Resign, OfferDraw)):
            many = len(self.seats) > 2
            if not 0 <= action.player < len(self.seats):
                raise IllegalMoveError(f"player must be 0 to {len(self.seats) - 1}, got {action.player}")
            if many and isinstance(action, OfferDraw):
                raise IllegalMoveError("with more than two players nobody can offer a draw: play on until one "
                                       "King is left, or resign")
            if many and action.player in self.pos.var("out", ()):
                raise IllegalMoveError(f"{self.seats[action.player].name} is out of the game already")
            if many and self.pos.pending is not None:
                raise IllegalMoveError("finish this turn first")
            if isinstance(action, OfferDraw):
                if self.draw_offer is not None:
                    raise IllegalMoveError("a draw offer is already waiting for an answer")
                if self.pos.pending is not None:
                    raise IllegalMoveError("finish the fight first")
        elif isinstance(action, AnswerDraw):
            if self.draw_offer is None:
                raise IllegalMoveError("no draw was offered")
        elif isinstance(action, Adjudicate):
            if not all(0 <= w < len(self.seats) for w in action.winners) or len(set(action.winners)) != len(action.winners):
                raise IllegalMoveError(f"winners must be distinct players 0 to {len(self.seats) - 1}, got {action.winners}")
            if not action.reason.strip():
                raise IllegalMoveError("a result needs a reason")
        elif isinstance(action, SetPosition):
            if self.draw_offer is not None:
                raise IllegalMoveError("a draw offer is waiting for an answer")
            self.rules.position_from_text(action.position)  # PositionError says what is wrong

    def _apply(self, action: Action) -> list:
        self.actions += 1
        self._keep(action)
        if isinstance(action, SetPosition):
            return self._apply_position(action)
        if isinstance(action, PlayMove):
            return self._apply_move(action)
        if isinstance(action, PlayAnswer):
            return self._apply_answer(action)
        if isinstance(action, PlayPart):
            return self._apply_part(action)
        if isinstance(action, Roll):
            return self._apply_roll(action)
        if isinstance(action, Undo):
            return self._apply_undo(action)
        if isinstance(action, Resign):
            if len(self.seats) > 2:
                return self._apply_leave(action.player)
            return self._finish(GameResult(frozenset({1 - action.player}), "resigned"))
        if isinstance(action, OfferDraw):
            self.draw_offer = action.player
            return [DrawOffered(action.player)]
        if isinstance(action, AnswerDraw):
            by = self.draw_offer
            self.draw_offer = None
            if action.accept:
                return self._finish(GameResult(frozenset(), "draw agreed"))
            return [DrawDeclined(1 - by)]
        if isinstance(action, Adjudicate):
            self.adjudicated = True  # a flag, a claim, the arbiter: no takeback undoes it
            return self._finish(GameResult(frozenset(action.winners), action.reason))
        raise TypeError(action)

    def _keep(self, action: Action) -> None:
        """Keep ``history`` the game as it stands (before the action is applied)."""
        if isinstance(action, Undo):
            cut = self._history_at[-action.turns]
            del self.history[cut:]
            del self._history_at[-action.turns:]
            return
        if isinstance(action, AnswerDraw) and not action.accept:
            if self.history and self.history[-1].get("type") == "offer-draw":
                self.history.pop()  # an offer declined changes nothing
            return
        if isinstance(action, (PlayMove, SetPosition)) or (isinstance(action, Resign) and len(self.seats) > 2):
            self._history_at.append(len(self.history))  # a turn starts (with 3 or 4 players a resignation is one)
        self.history.append(action_to_json(action))

    def correct_position(self, position: str) -> list:
        """An arbiter's correction (``rules.position_text`` of the position to go on from);
        PositionError (nothing changes) when the text is not a position of this game."""
        return self._act(SetPosition(position))

    def _apply_position(self, action: SetPosition) -> list:
        pos = self.pos
        player = pos.turn
        new = self.rules.position_from_text(action.position)
        self._turn_starts.append(pos.depth)
        pos.begin()
        pos.transplant(new)
        self.moves.append(MoveEntry(player, "position set", "position", -1, -1))
        self._known_before.append(self._known)  # what was captured before it is not known after
        self._known = {}
        self._sealed = {}
        self._remember_pieces()
        return [PositionSet(action.position)] + self._check_end()

    def _apply_move(self, action: PlayMove) -> list:
        pos, rules = self.pos, self.rules
        move = rules.parse_move(pos, action.move)
        san = rules.san(pos, move) if hasattr(rules, "san") else unit_move_text(rules, pos, move)
        player = pos.turn
        self._turn_starts.append(pos.depth)
        if self.record is not None:  # the dice record carries the game (version 2)
            self.record = self.record.with_move(rules.move_text(pos, move))
        before = pos.var("effects")
        rules.apply(pos, move)
        entry = MoveEntry(player, san, action.move, move.frm, move.to, effects=self._step_effects(before))
        self.moves.append(entry)
        events: list = [MovePlayed(entry, len(self.moves))]
        fight = self.pending_fight()
        if fight is not None:
            events.append(FightStarted(fight))
        self._remember_pieces()
        return events + self._check_end()

    def _apply_answer(self, action: PlayAnswer) -> list:
        """A choice in the middle of the turn: part of the last move's turn (one undo step
        takes both back); the move list shows where the piece went on to."""
        return self._play_answer(self._find_answer(action.answer), action.answer)

    def _play_answer(self, answer: Answer, text: str) -> list:
        pos, rules = self.pos, self.rules
        move_san = None
        if isinstance(answer.value, Move) and answer.value.frm >= 0:  # a move of its own (a king-turn)
            move_san = rules.san(pos, answer.value) if hasattr(rules, "san") else unit_move_text(rules, pos, answer.value)
        before = pos.var("effects")
        rules.apply(pos, answer)
        effects = self._step_effects(before)
        if self.moves:
            last = self.moves[-1]
            if isinstance(answer.value, int):
                last = replace(last, san=f"{last.san}-{text}", to=answer.value)
            elif move_san is not None:
                last = replace(last, san=f"{last.san}, {move_san}")
            self.moves[-1] = replace(last, effects=last.effects + effects)
        self._remember_pieces()
        return [AnswerPlayed(answer, text)] + self._check_end()

    def _check_part(self, action: PlayPart) -> None:
        d = self.joint_decision()
        if d is None:
            raise IllegalMoveError("no secret choice (a duel's bids) is waiting")
        players = d.get("players")
        if action.player not in players:
            raise IllegalMoveError(f"player {action.player + 1} has no part in this {d.kind} decision")
        if action.player in self._sealed:
            raise IllegalMoveError(f"player {action.player + 1}'s {d.kind} part is in already")
        options = [str(o) for o in self.part_options(action.player)]
        if action.part not in options:
            raise IllegalMoveError(f"{action.part!r} is not possible for player {action.player + 1} "
                                   f"(possible: {', '.join(options)})")

    def _apply_part(self, action: PlayPart) -> list:
        d = self.joint_decision()
        self._sealed[action.player] = action.part
        events: list = [PartSealed(action.player)]
        players = d.get("players")
        if any(p not in self._sealed for p in players):
            return events
        parts = tuple(next(o for o in self.part_options(p) if str(o) == self._sealed[p]) for p in players)
        self._sealed = {}
        answer = next((a for a in self.rules.answers(self.pos) if a.value == parts), None)
        if answer is None:  # every part is an option: the rules must have their pair
            raise IllegalMoveError(f"the parts {parts} are not an answer to the pending {d.kind}")
        return events + self._play_answer(answer, self.rules.answer_text(answer))

    def _step_effects(self, before) -> tuple:
        """What the step just applied recorded in the position variable ``effects`` (a game
        sets it anew at each step; a step that set nothing leaves the same object)."""
        after = self.pos.var("effects")
        return tuple(after) if after is not before and after else ()

    def _find_answer(self, text: str) -> Answer:
        d = self.pos.pending
        if d is None or d.chance:
            raise IllegalMoveError("no choice is waiting for an answer")
        answers = self.rules.answers(self.pos)
        for a in answers:
            if self.rules.answer_text(a) == text:
                return a
        choices = ", ".join(self.rules.answer_text(a) for a in answers)
        raise IllegalMoveError(f"{text!r} is not one of the choices ({choices})")

    def _apply_roll(self, action: Roll) -> list:
        fight = self._fight_info()
        rolls_att = [_fighter_roll(self.rules, fight.attacker, action.attacker)]
        rolls_def = [_fighter_roll(self.rules, d, faces) for d, faces in zip(fight.defenders, action.defenders)]
        entry = score_round(fight.number, fight.round, fight.move, rolls_att, rolls_def, MAX_TIES)
        self.record = self.record.with_round(entry)
        self.rules.apply(self.pos, Answer("fight", ("roll", tuple(action.attacker), tuple(action.defenders))))
        after = self.pending_fight()
        events: list = [DiceRolled(entry, after)]
        if after is None:
            result = entry.result if entry.result != "tie" else "bounce"
            last = self.moves[-1]
            self.moves[-1] = replace(last, fight=result)
            rounds = tuple(r for r in self.record.rounds if r.fight == fight.number)
            events.append(FightEnded(fight.number, result, rounds, fight.attacker, fight.defenders))
            self._remember_pieces()
            events += self._check_end()
        return events

    def _apply_leave(self, player: int) -> list:
        """A resignation with three or more players: the player leaves, the others play on (a
        turn of the move list, taken back by Undo like any turn)."""
        self._turn_starts.append(self.pos.depth)
        self.rules.resign(self.pos, player)
        self.moves.append(MoveEntry(player, RESIGNS, "", -1, -1))
        self._remember_pieces()
        return [PlayerResigned(player)] + self._check_end()

    def _apply_undo(self, action: Undo) -> list:
        target = self._turn_starts[-action.turns]
        while self.pos.depth > target:
            self.rules.undo(self.pos)
        del self._turn_starts[-action.turns:]
        undone = tuple(self.moves[-action.turns:])
        del self.moves[-action.turns:]
        self._sealed = {}
        for entry in reversed(undone):
            if entry.move == "position":  # a correction taken back: the pieces known before it
                self._known = self._known_before.pop()
        self.draw_offer = None
        self.result = None  # a finished game taken back goes on (undo_after_end)
        if self.record is not None:
            self.record = self.record.taken_back(len(self.moves), len(self.pos.var("fights", ())))
        return [TurnsUndone(undone)]

    def _finish(self, result: GameResult) -> list:
        self.result = result
        self.draw_offer = None
        seed = None
        if self.setup.seed and self.record is not None:
            self.record = self.record.with_reveal(bytes.fromhex(self.setup.seed))
            seed = self.setup.seed
        return [GameOver(result, seed)]

    def _check_end(self) -> list:
        outcome = self.rules.outcome(self.pos)
        if outcome is None:
            return []
        return self._finish(GameResult(frozenset(outcome.winners), outcome.reason))

    # ----- internals ------------------------------------------------------------------------------------
    def _turn_players(self) -> list[int]:
        """Who made each turn still on the board (from the move list)."""
        return [m.player for m in self.moves]

    def _remember_pieces(self) -> None:
        for _, p in self.pos.pieces():
            self._known[p.uid] = (p.kind.name, p.owner)

    def _require_fight(self) -> FightInfo:
        fight = self.pending_fight()
        if fight is None:
            raise IllegalMoveError("no fight is waiting for dice")
        return fight

    def _fight_info(self) -> FightInfo:
        pos, rules = self.pos, self.rules
        d = pos.pending
        attacker, defenders = rules.fighters(pos, d)
        move: Move = d.get("move")
        att_sq = d.get("attacker")

        def info(sq: int, fighter) -> FighterInfo:
            p = pos.board[sq]
            return FighterInfo(p.owner, p.kind.name, sq, p.uid, fighter.dice, fighter.fatigue, fighter.weapon_choice)

        number = d.get("number")
        rounds = tuple(r for r in self.record.rounds if r.fight == number) if self.record else ()
        san = self.moves[-1].san if self.moves else rules.move_text(pos, move)
        return FightInfo(
            number, d.get("round"), rules.move_text(pos, move), san,
            info(att_sq, attacker),
            tuple(info(sq, f) for sq, f in zip(d.get("defenders"), defenders)),
            rules.odds(pos, d), rounds, move.special == "prerogative",
        )


def unit_move_text(rules, pos, move: Move) -> str:
    """A move for the move list of a game of named units (Dungeon Chess): the unit's code, the
    squares, ``x`` for a capture, ``hex`` for a Shaman's hex: ``KN k14xm13``, ``SM r12 hex q11``,
    ``pass``. (Before the move is applied.)"""
    if move.special == "pass" or move.frm < 0:
        return "pass"
    g = rules.geometry
    piece = pos.board[move.frm]
    code = piece.kind.code if piece is not None else "?"
    if move.special == "hex":
        return f"{code} {g.name_of(move.frm)} hex {g.name_of(move.to)}"
    sep = "x" if move.capture is not None else "-"
    return f"{code} {g.name_of(move.frm)}{sep}{g.name_of(move.to)}"


def default_source(setup: GameSetup):
    """The dice source a set-up asks for: system randomness, a seed, or none (real dice)."""
    if not setup.has_dice or setup.dice == "entered":
        return None
    if setup.dice == "seeded":
        return SeededDice(bytes.fromhex(setup.seed))
    return SystemDice()


def _start_dice_record(setup: GameSetup, rules, pos) -> DiceRecord:
    """An empty dice record that carries the game (version 2): its options, board and start
    position, so that ``companion verify-dice`` can replay it and check every fight."""
    return start_record(setup.game_id, setup.game, _RecordSource(setup), MAX_TIES,
                        start=rules.position_text(pos), options=record_options(setup),
                        board_map=setup.board_map)


def record_options(setup: GameSetup) -> dict[str, Any]:
    """The rules' options a dice record carries, so ``companion verify-dice`` builds the same
    rules (``make_rules(game, board_map, **options)``): Human Combat Chess's ``d6_only`` alone,
    as ever; another game's also its own (``fights``, ``players``, ...)."""
    if setup.game in GAMES_WITH_DICE:
        return {"d6_only": setup.d6_only}
    options: dict[str, Any] = {"d6_only": setup.d6_only, **setup.option_values}
    if setup.draw_rules:
        options["draw_rules"] = True
    if setup.game in PLAYER_COUNTS:
        options["players"] = len(setup.seats)
    return options


class _RecordSource:
    """What start_record needs to know about the source: its record name and commitment."""

    def __init__(self, setup: GameSetup) -> None:
        self.name = SOURCE_OF_MODE[setup.dice]
        self.commitment = setup.commitment


def _fighter_roll(rules, f: FighterInfo, faces: Sequence[int]) -> FighterRoll:
    desc = f"{seat_colour(rules, f.player)} {f.kind.replace('_', ' ')}"
    return FighterRoll(desc, f.dice, tuple(faces), f.fatigue, f.weapon_choice)


def material(rules, pos, player: int) -> int:
    return sum(p.kind.value for _, p in pos.pieces(player))


def computer_accepts_draw(rules, pos, player: int) -> bool:
    """A computer takes a draw when it is behind in material (by a pawn's worth or more)."""
    return material(rules, pos, player) + 100 <= material(rules, pos, 1 - player)


# --- strict JSON reading ------------------------------------------------------------------------------


class _Fields:
    def __init__(self, value: Any, where: str, keys: Sequence[str], optional: Sequence[str] = ()) -> None:
        if not isinstance(value, dict):
            raise RecordError(f"{where}: expected a JSON object, got {json.dumps(value)[:40]}")
        unknown = sorted(set(value) - set(keys))
        if unknown:
            raise RecordError(f"{where}: unknown field {unknown[0]!r} (expected {', '.join(keys)})")
        missing = [k for k in keys if k not in value and k not in optional]
        if missing:
            raise RecordError(f"{where}: field {missing[0]!r} is missing")
        self.value, self.where = value, where

    def text(self, key: str) -> str:
        v = self.value[key]
        if not isinstance(v, str):
            raise RecordError(f"{self.where}: field {key!r} must be text, got {v!r}")
        return v

    def optional_text(self, key: str) -> str | None:
        return None if self.value[key] is None else self.text(key)

    def flag(self, key: str) -> bool:
        v = self.value[key]
        if not isinstance(v, bool):
            raise RecordError(f"{self.where}: field {key!r} must be true or false, got {v!r}")
        return v

    def integer(self, key: str, least: int | None = None) -> int:
        v = self.value[key]
        if isinstance(v, bool) or not isinstance(v, int) or (least is not None and v < least):
            floor = f" of at least {least}" if least is not None else ""
            raise RecordError(f"{self.where}: field {key!r} must be a whole number{floor}, got {v!r}")
        return v

    def faces(self, v: Any, name: str) -> tuple[int, ...]:
        if not isinstance(v, list) or not v or not all(isinstance(x, int) and not isinstance(x, bool) for x in v):
            raise RecordError(f"{self.where}: field {name!r} must be a non-empty list of whole numbers, got {v!r}")
        return tuple(v)
