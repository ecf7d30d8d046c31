"""A game's set-up: everything chosen on the start screen (the game, its seats, its dice, its
options), checked when it is made and when it is read back from a journal, and the rules it is
played by."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from ..dice.sources import commitment_of, seed_bytes
from ..errors import CompanionError, DiceError, RecordError, VariantError
from ..i18n import _, pgettext
from ..games import FIGHTS, GAMES, make_rules
from ..maps import COLOURS as MAP_COLOURS
from .fields import JsonFields

COLOURS = ("white", "black")
#: Where the dice of a Combat Chess game come from (the start screen's three choices).
DICE_MODES = ("virtual", "seeded", "entered")
#: A game between two linked boards: each fight's dice from both boards' secrets
#: (companion.dice.linked); set by the link, never offered on the start screen.
LINKED_DICE = "linked"
#: Source names written in the journal and the dice record, per dice mode.
SOURCE_OF_MODE = {"virtual": "system", "seeded": "seeded", "entered": "entered", LINKED_DICE: "linked"}
GAMES_WITH_DICE = frozenset({"combat"})
#: How many players each game takes (a game not listed: 2). Dungeon Chess: the map's seats, or a
#: smaller seating the map offers (the session asks the rules for ``players=len(seats)``).
PLAYER_COUNTS = {"dungeon": (2, 3, 4), "chess4": (4,)}
#: Games whose draw rules are an option (the start screen's "Draws"); other games' are fixed.
GAMES_WITH_DRAW_OPTION = frozenset({"dungeon"})
#: Game options a set-up may carry to the game's rules (``make_rules(game, map, **options)``).
GAME_OPTIONS: dict[str, tuple[str, ...]] = {"chess2": ("armies",), "chess4": ("mode",)}
#: Game options chosen from a few values on the start screen (the first is the game's default;
#: the rules module checks them): four-player chess's free-for-all or teams (docs/rules/chess4.md).
OPTION_VALUES: dict[str, dict[str, tuple[str, ...]]] = {"chess4": {"mode": ("ffa", "teams")}}
#: The option every game that takes dice fights has (``("fights", "dice")``: Human Combat Chess's
#: fights on its captures, companion/games/fights.py; the dice modes then apply as in Combat Chess).
FIGHTS_OPTION = "fights"
#: A Stockfish seat (FIDE chess, companion.ai.players) keeps one number as its level in memory:
#: STOCKFISH_BASE + its Elo. It is journaled as what it is, the player key ``stockfish:ELO`` that
#: ``ai-match --a stockfish:1500`` and companion.ai.players use; a journal that wrote the number
#: (before 2026-11-28) still loads as the same seat.
STOCKFISH_BASE = 10_000
_STOCKFISH_KEY = re.compile(r"^stockfish:([0-9]{1,4})$")


def stockfish_elo(level: int) -> int | None:
    """The Elo of a Stockfish seat's level, None for one of our own levels."""
    return level - STOCKFISH_BASE if level > STOCKFISH_BASE else None


def level_key(level: int) -> int | str:
    """A seat's level as the journal and the game text write it: our level's number, or
    ``stockfish:ELO``."""
    elo = stockfish_elo(level)
    return level if elo is None else f"stockfish:{elo}"


def level_from_key(value: Any, where: str) -> int:
    """The level a journaled seat's ``level`` names (see :func:`level_key`; a number, as every
    journal wrote before, is taken as it is); anything else is one RecordError line."""
    if isinstance(value, int) and not isinstance(value, bool):
        return value
    m = _STOCKFISH_KEY.match(value) if isinstance(value, str) else None
    if m is None or int(m.group(1)) < 1:
        raise RecordError(_("{where}: field 'level' must be a level number or stockfish:ELO (e.g. stockfish:1800), "
                            "got {value!r}").format(where=where, value=value))
    return STOCKFISH_BASE + int(m.group(1))


def game_options(game: str) -> tuple[str, ...]:
    """The options a set-up of ``game`` may carry: its own, and ``fights`` where it takes them."""
    info = GAMES.get(game)
    fights = (FIGHTS_OPTION,) if info is not None and not info.no_fights and game != "combat" else ()
    return GAME_OPTIONS.get(game, ()) + fights


def has_dice_fights(game: str, options=()) -> bool:
    """Are a game's captures dice fights: Human Combat Chess, or any game whose ``options``
    (pairs or a dict) have ``fights=dice``? Its dice modes (app, checkable, real, only d6) then apply."""
    return game in GAMES_WITH_DICE or dict(options).get(FIGHTS_OPTION) == "dice"


#: Games with joint decisions (Chess 2's secret duel bids) and how their parts are entered at the
#: table: each player taps a bid on the screen in turn while the other looks away ("screen"), or
#: the players bid with real stones in closed fists, reveal together and enter both ("stones").
GAMES_WITH_BIDS = frozenset({"chess2"})
BID_MODES = ("screen", "stones")
#: How many ties a Combat Chess fight rolls again before the attacker bounces.
MAX_TIES = 3


#: The words a board wrote for a seat called by the app's own name before seats kept that fact
#: (journals and game texts without it): a side's colour (companion/maps.py's, as texts.py's
#: SEAT_COLOURS has them) or "Computer", in English. Such a name is read as the word.
OWN_WORDS = frozenset(colour.capitalize() for colour in MAP_COLOURS) | {"Computer"}


@dataclass(frozen=True)
class Seat:
    """One player: a name, and for a computer seat its strength (level 1..).

    ``recorded`` is the name as the game's records keep it (the journal, the PGN, the game
    text). With ``word`` it is a word of the app's own, kept as the catalog's English: the
    seat's colour, "Computer", a preset picked ("Guest"), "Friend"; :attr:`name` then reads in
    the language of the moment, so a running game's "White" is "Weiß" once the board speaks
    German (docs/i18n.md, "What follows a change of language"). A name a player typed, a
    pairing's, lichess's or a friend's board's is kept as it is (``word`` off)."""

    recorded: str
    computer: bool = False
    level: int = 0
    word: bool = False

    def __post_init__(self) -> None:
        if not isinstance(self.recorded, str) or not self.recorded.strip():
            raise VariantError(_("a player needs a name, got {name!r}").format(name=self.recorded))
        if self.computer and (not isinstance(self.level, int) or self.level < 1):
            raise VariantError(_("a computer player needs a level of 1 or more, got {level!r}").format(level=self.level))

    @property
    def name(self) -> str:
        """The name as players read and hear it: a word in the language of the moment."""
        return _(self.recorded) if self.word else self.recorded

    @classmethod
    def read(cls, name: str, computer: bool = False, level: int = 0, word: bool | None = None) -> Seat:
        """A seat read back from a record; ``word`` None: a record that does not say (an old
        journal, a game text), where an English colour or "Computer" is the app's word."""
        return cls(name, computer, level, name in OWN_WORDS if word is None else word)


@dataclass(frozen=True)
class GameSetup:
    """Everything chosen on the start screen. ``seed`` (hex) exists for seeded dice only and is
    kept secret until the game ends; ``start`` is an optional start position text;
    ``draw_rules``: the game's optional draw rules (Dungeon Chess; off: the rulebook's game);
    ``options``: the game's own options as (name, text) pairs (Chess 2: ``("armies",
    "classic,animals")``); ``bids``: how a game's secret bids are entered (:data:`BID_MODES`);
    ``chains``: for linked dice only, the heads of both boards' hash chains (board 1's, board
    2's), fixed before the first move (companion.dice.linked)."""

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
    chains: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        object.__setattr__(self, "seats", tuple(self.seats))
        if isinstance(self.options, dict):
            object.__setattr__(self, "options", tuple(sorted(self.options.items())))
        object.__setattr__(self, "options", tuple(tuple(o) for o in self.options))
        if self.game not in GAMES:
            raise VariantError(_("unknown game {game!r}; known: {items}").format(game=self.game, items=', '.join(sorted(GAMES))))
        counts = PLAYER_COUNTS.get(self.game, (2,))
        if len(self.seats) not in counts:
            wanted = "2 players" if counts == (2,) else f"{counts[0]} to {counts[-1]} players"
            raise VariantError(_("{game} is played by {wanted}, got {n}").format(game=self.game, wanted=wanted, n=len(self.seats)))
        object.__setattr__(self, "chains", tuple(self.chains))
        if self.dice not in DICE_MODES + (LINKED_DICE,):
            raise DiceError(_("dice must be one of {items}, got {dice!r}").format(items=', '.join(DICE_MODES), dice=self.dice))
        if self.dice == LINKED_DICE:
            if len(self.chains) != 2 or not all(isinstance(c, str) and len(c) == 64 and
                                                all(x in "0123456789abcdef" for x in c) for c in self.chains):
                raise DiceError(_("linked dice need both boards' chain heads (64 hex digits each)"))
        elif self.chains:
            raise DiceError(_("only linked dice have chains, not {dice} dice").format(dice=self.dice))
        if self.dice == "seeded":
            if not self.seed:
                raise DiceError(_('seeded dice need a seed'))
            try:
                seed_bytes(bytes.fromhex(self.seed))
            except (ValueError, CompanionError):
                raise DiceError(_("the dice seed must be hex text, got {seed!r}").format(seed=self.seed)) from None
        elif self.seed is not None:
            raise DiceError(_("only seeded dice have a seed, not {dice} dice").format(dice=self.dice))
        if self.d6_only and not self.has_dice:
            raise DiceError(_("'only d6' is a dice option; {game} has no dice (dice fights are off)").format(game=self.game))
        if self.draw_rules and self.game not in GAMES_WITH_DRAW_OPTION:
            raise VariantError(_("{game}'s draw rules are part of the game, not an option").format(game=self.game))
        if not isinstance(self.game_id, str) or not self.game_id or "/" in self.game_id:
            raise VariantError(_("a game id is non-empty text without '/', got {game_id!r}").format(game_id=self.game_id))
        allowed = game_options(self.game)
        for option in self.options:
            if len(option) != 2 or not all(isinstance(x, str) for x in option):
                raise VariantError(_("a game option is a name and a text, got {option!r}").format(option=option))
            if option[0] not in allowed:
                wrong = (_("unknown option {option!r} for {game}; {game} takes {known}") if allowed
                         else _("unknown option {option!r} for {game}; {game} takes none"))
                raise VariantError(wrong.format(option=option[0], game=self.game, known=", ".join(allowed)))
            if option[0] == FIGHTS_OPTION and option[1] not in FIGHTS:
                raise VariantError(_("fights={fights!r}: expected one of {items}").format(fights=option[1], items=', '.join(FIGHTS)))
        if self.bids not in BID_MODES:
            raise VariantError(_("bids must be one of {items}, got {bids!r}").format(items=', '.join(BID_MODES), bids=self.bids))
        if self.bids != "screen" and self.game not in GAMES_WITH_BIDS:
            raise VariantError(_("{game} has no bids to enter").format(game=self.game))

    @property
    def option_values(self) -> dict[str, str]:
        return dict(self.options)

    @property
    def has_dice(self) -> bool:
        """Are captures dice fights (Human Combat Chess, or any game with ``fights=dice``)?"""
        return has_dice_fights(self.game, self.options)

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
            # the name as recorded (a word's English) and whether it is a word (docs/i18n.md)
            "seats": [{"name": s.recorded, "computer": s.computer, "level": level_key(s.level), "word": s.word}
                      for s in self.seats],
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
            # only for the dice of two linked boards (issue 29)
            **({"chains": list(self.chains)} if self.chains else {}),
        }

    @classmethod
    def from_json(cls, value: Any, where: str | None = None) -> GameSetup:
        where = pgettext("where in a record", "set-up") if where is None else where
        # draw_rules came with issue 17: a journal without it was played with the draw rules on
        fields = JsonFields(value, where, ("game", "seats", "dice", "d6_only", "game_id", "seed", "start", "board_map",
                                        "draw_rules", "options", "bids", "chains"),
                            optional=("draw_rules", "options", "bids", "chains"))
        chains = fields.value.get("chains", [])
        if not isinstance(chains, list) or not all(isinstance(c, str) for c in chains):
            raise RecordError(_("{where}: 'chains' must be a list of two chain heads (hex texts)").format(where=where))
        options = fields.value.get("options", {})
        if not isinstance(options, dict) or not all(isinstance(v, str) for v in options.values()):
            raise RecordError(_('{where}: \'options\' must be an object of texts, e.g. {{"armies": "classic,animals"}}').format(where=where))
        seats = []
        raw = fields.value["seats"]
        if not isinstance(raw, list):
            raise RecordError(_("{where}: 'seats' must be a list of players").format(where=where))
        for i, s in enumerate(raw):
            # "word" came with the names that follow the language: a journal without it, see Seat.read
            f = JsonFields(s, f"{where} seat {i + 1}", ("name", "computer", "level", "word"), optional=("word",))
            seats.append(Seat.read(f.text("name"), f.flag("computer"), level_from_key(f.value["level"], f.where),
                                   f.flag("word") if "word" in f.value else None))
        try:
            return cls(
                fields.text("game"), tuple(seats), fields.text("dice"), fields.flag("d6_only"),
                fields.text("game_id"), fields.optional_text("seed"), fields.optional_text("start"),
                fields.optional_text("board_map"),
                fields.flag("draw_rules") if "draw_rules" in fields.value
                else fields.value.get("game") in GAMES_WITH_DRAW_OPTION,
                tuple(sorted(options.items())), fields.text("bids") if "bids" in fields.value else "screen",
                tuple(chains),
            )
        except CompanionError as e:
            raise RecordError(_("{where}: {problem}").format(where=where, problem=e)) from None


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

