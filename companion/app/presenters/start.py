"""The start screen: the game, the players (person or computer, level, name from presets), the
dice; for Dungeon Chess the map (drawn small), one seat per player of the map (a seat the map
may leave empty may be "Nobody": three players on the four-player map) and the draw rules (off:
the rulebook's game). Every choice is a tap; nothing is typed.

Nothing here names a game but through data: the game row lists every game the product knows
(companion.games.GAMES) except those that are another game with dice fights (Human Combat Chess
is chess with them, ``GameInfo.with_fights``); its "Dice fights" switch is on or off for every
game that takes them (``companion.session.game_options``), and the dice choices show whenever the
captures are fights (``has_dice_fights``). A game's own choice of a few values (four-player
chess's free-for-all or teams: ``companion.session.OPTION_VALUES``) and Dungeon Chess's draw
rules share one row with the dice. The seats are the game's players, named after its map's seat
colours (four-player chess: Red, Blue, Yellow, Green).

Every game has the same seat control: the player's colour, their name (a tap: the names to
pick from) and who plays it (a tap: Person, the computer at a level, or Nobody where the map
allows it, in one list).
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from ...core.geometry import VOID, WATER
from ...games import GAMES
from ...maps import load_map
from ...session import (BID_MODES, DICE_MODES, FIGHTS_OPTION, GAMES_WITH_BIDS, GAMES_WITH_DRAW_OPTION, OPTION_VALUES,
                        PLAYER_COUNTS, game_options, has_dice_fights)
from ...i18n import _
from .. import link_texts as L
from .. import texts as T
from .. import theme
from ..computer import stockfish_elo
from .archive import Archive
from .board_link import BoardRoom
from .display import Display
from .load_save import LoadSave
from .messages import Bus, ChooseArmies, DraftDungeon, JoinLink, LinkGame, NewGame
from .preferences import Preferences
from .seat_names import SeatChoice, colour_word
from .storage import Storage
from .table_settings import TableSettings

#: A game that is another game played with dice fights (Human Combat Chess: chess with them) ->
#: that game; its row button is the other game's, with the "Dice fights" switch on.
FIGHTS_OF = {info.with_fights: name for name, info in GAMES.items() if info.with_fights}
#: The game row: every game the product knows, in the registry's order, but those above.
GAME_CHOICES = tuple(name for name in GAMES if name not in FIGHTS_OF)
#: Games that may start from a position set up by hand (the palette has the chess pieces).
POSITION_GAMES = ("chess", "combat")
#: the games whose two sides are White and Black (the others take their map's seat colours)
WHITE_AND_BLACK = ("chess", "combat", "chess2")
#: the seat colours of each other game's map (companion/maps.py's colour names), read once
_MAP_COLOURS: dict[str, tuple[str, ...]] = {}
#: The most seats a game of the row has (four-player chess; Dungeon Chess's come from its map).
MOST_SEATS = max(max(PLAYER_COUNTS.get(g, (2,))) for g in GAME_CHOICES)
#: Match lengths offered for a game whose loser may change its choice (Chess 2's armies; the
#: keys of texts.MATCH_CHOICES).
MATCH_LENGTHS = (1, 3, 5)
#: The maps of the rulebook, in its order (maps/*.toml).
DUNGEON_MAPS = ("dungeon-compact", "dungeon-two-player", "dungeon-four-player")
#: Thumbnail colours: floor, the wall of void around it, water.
THUMB_FLOOR = (0.80, 0.74, 0.64, 1)


@dataclass(frozen=True)
class Choice:
    key: str
    label: str
    selected: bool


@dataclass(frozen=True)
class SeatView:
    colour: str
    name: str
    computer: bool
    level: str
    can_computer: bool
    swatch: tuple = ()  # the seat's screen colour: its map colour, white or black
    kind: str = ""  # who plays it: "Person", "Computer 2" or "Nobody" (a tap lists the choices)
    empty: bool = False


@dataclass(frozen=True)
class MapThumb:
    """A map drawn small: one colour per square, rank 1 first (as the board is indexed)."""

    width: int
    height: int
    cells: tuple[tuple[float, float, float, float], ...]


@dataclass(frozen=True)
class MapChoice:
    key: str
    label: str
    size: str
    selected: bool
    thumb: MapThumb


@dataclass(frozen=True)
class StartView:
    games: tuple[Choice, ...]
    game_hint: str
    seats: tuple[SeatView, ...]
    has_dice: bool
    dice: tuple[Choice, ...]
    dice_hint: str
    d6_only: bool
    names: tuple[str, ...]  # presets, when the name picker is open; the kinds, when that is
    picking_for: str  # "Pick a name for White" ("" when closed)
    problem: str  # e.g. a saved game that could not be read, or space is low
    no_computer: str
    dungeon: bool = False
    maps: tuple[MapChoice, ...] = ()
    start_label: str = ""  # the start button's words (set by the presenter)
    #: the game's own choice of a few values, in the dice's row (Dungeon Chess: no draws, the
    #: rulebook's, or the draw rules; four-player chess: free-for-all or teams); keys "name=value"
    choices: tuple[Choice, ...] = ()
    choices_hint: str = ""
    has_bids: bool = False  # Chess 2: how bids are entered, and how many games
    bids: tuple[Choice, ...] = ()
    bids_hint: str = ""
    matches: tuple[Choice, ...] = ()
    positions: bool = False  # the game may start from a position set up by hand (chess, Combat Chess)
    table: str = ""  # the clock and tournament settings in one line ("" for games without)
    lichess: bool = False  # play on lichess can be opened (docs/online.md)
    #: the game row's "Dice fights" switch: on, and whether this game takes fights at all
    fights: bool = False
    can_fight: bool = False

    @property
    def fights_label(self) -> str:
        return T.FIGHTS_SWITCH[self.fights and self.can_fight]

    @property
    def hint(self) -> str:
        """The line under the games (800x480 has room for two): for a game with dice, the
        fights (Human Combat Chess named, so a player looking for it finds it) and the dice (with
        the "only d6" rule when chosen), else the game and its own choice (and how a game with
        bids enters them); then a missing computer."""
        if self.has_dice:
            text = "  ".join((self.game_hint, self.dice_hint)) + ("  " + T.D6_ONLY_HINT if self.d6_only else "")
        elif self.has_bids:
            text = self.game_hint + "  " + self.bids_hint
        else:
            text = "  ".join(filter(None, (self.game_hint, self.choices_hint)))
        return text + ("  " + self.no_computer if self.no_computer and not self.dungeon else "")


class StartPresenter:
    def __init__(self, display: Display, bus: Bus, settings: TableSettings, storage: Storage, computer, *,
                 board: BoardRoom, load_save: LoadSave, archive: Archive, preferences: Preferences,
                 online=None) -> None:
        """``bus``: the game is started with a command (NewGame, DraftDungeon, ChooseArmies);
        ``computer``: the computer player (its levels; None when it is not installed);
        ``board``, ``load_save``, ``archive``: the screens this one opens (the board check,
        Load / Save, the games played)."""
        self.display = display
        self.bus = bus
        self.settings = settings  # the table settings for the next game
        self.storage = storage  # names typed on this board
        self.computer = computer
        self.board_room = board
        self.load_save_room = load_save
        self.archive = archive
        self.online = online  # the lichess screen (online_room.py); None: not in this build
        self.preferences_room = preferences
        self.row = GAME_CHOICES[0]  # the game chosen in the row (chess)
        self.fights = {"chess"}  # the games whose "Dice fights" switch is on (chess: Combat Chess)
        self.values = {game: {name: values[0] for name, values in options.items()}
                       for game, options in OPTION_VALUES.items()}  # each game's own choices
        #: every seat called by the app's own name: made when shown, in the language of the moment
        self.seats = [SeatChoice() for _ in range(MOST_SEATS)]
        self.dice = "virtual"
        self.d6_only = False
        self.picking: int | None = None
        self.picking_kind = False  # the open list is of who plays the seat, not of names
        self.draw_rules = False
        self.board_map = DUNGEON_MAPS[0]
        self._maps = {name: load_map(name) for name in DUNGEON_MAPS}
        self._thumbs = {name: thumbnail(m) for name, m in self._maps.items()}
        most = max(m.players for m in self._maps.values())
        self.dungeon_seats = [SeatChoice() for _ in range(most)]
        self.bids = "screen"
        self.match_games = 1

    @property
    def max_level(self) -> int:
        c = self.computer
        return int(getattr(c, "max_level", 0)) if c is not None else 0

    @property
    def game(self) -> str:
        """The game that will be played: the row's, or the game it is with dice fights (chess
        with its switch on is Human Combat Chess)."""
        with_fights = GAMES[self.row].with_fights
        return with_fights if with_fights and self.row in self.fights else self.row

    @property
    def dungeon(self) -> bool:
        return self.game == "dungeon"

    @property
    def can_fight(self) -> bool:
        """Does the row's game take dice fights (the switch can be used)?"""
        return bool(GAMES[self.row].with_fights) or FIGHTS_OPTION in game_options(self.row)

    @property
    def nseats(self) -> int:
        """Seats of a game without a map to choose (Dungeon Chess's are the map's)."""
        return max(PLAYER_COUNTS.get(self.game, (2,)))

    def options(self) -> dict[str, str]:
        """The set-up's options: dice fights where the switch is on (for a game that is not a
        game of its own with them), the game's own choices."""
        out = dict(self.values.get(self.game, {}))
        if self.row in self.fights and self.can_fight and not GAMES[self.row].with_fights:
            out[FIGHTS_OPTION] = "dice"
        return out

    @property
    def has_dice(self) -> bool:
        return has_dice_fights(self.game, self.options())

    # ----- commands -----------------------------------------------------------------------------
    def choose_game(self, game: str) -> None:
        """A game of the row; or a game that is one of them with dice fights (Combat Chess:
        chess, its switch on)."""
        row = FIGHTS_OF.get(game, game)
        if row not in GAME_CHOICES:
            return
        self.row = row
        if game in FIGHTS_OF:
            self.fights.add(row)
        self.picking = None
        # the app's own names follow the game's colours; a colour picked as a name gives way to them
        self.seats = [s.by_default() if s.is_colour else s for s in self.seats]
        self._drop_engines()
        self.display.changed()

    def toggle_fights(self) -> None:
        """The game row's "Dice fights" switch (for a game that takes them)."""
        if self.can_fight:
            self.fights ^= {self.row}
            self._drop_engines()  # chess with dice fights is no game for Stockfish
            self.display.changed()

    def choose_option(self, key: str) -> None:
        """The game's own choice (``name=value``): Dungeon Chess's draw rules (``draw_rules=on``
        or ``off``), four-player chess's ``mode=teams``; anything else is ignored."""
        name, _, value = key.partition("=")
        if name == "draw_rules" and self.game in GAMES_WITH_DRAW_OPTION and value in ("on", "off"):
            self.draw_rules = value == "on"
        elif value in OPTION_VALUES.get(self.game, {}).get(name, ()):
            self.values[self.game][name] = value
        else:
            return
        self.display.changed()

    def colour_words(self) -> tuple[str, ...]:
        """The sides' names in this game: White and Black, or the map's colours (KoL Chess:
        Blue and Orange; four-player chess: Red, Blue, Yellow, Green)."""
        if self.game in WHITE_AND_BLACK:
            return T.COLOUR_NAMES
        return tuple(T.seat_word(c) for c in self._map_colours())

    def _map_colours(self) -> tuple[str, ...]:
        """The map's seat colours (companion/maps.py's names: "red") of this game's seats."""
        if self.game not in _MAP_COLOURS:
            seats = load_map(GAMES[self.game].default_map).seats
            _MAP_COLOURS[self.game] = tuple(seat.colour for seat in seats)
        return _MAP_COLOURS[self.game][:self.nseats]

    def choose_map(self, name: str) -> None:
        """A Dungeon Chess map; seats keep their people, default names follow the map's colours."""
        if name not in self._maps:
            return
        self.board_map = name
        self.dungeon_seats = [s.by_default() if s.is_colour else s for s in self.dungeon_seats]
        if self._seating() is None:  # the map cannot leave those seats empty: everyone sits
            self.dungeon_seats = [replace(s, empty=False) for s in self.dungeon_seats]
        self.display.changed()

    def set_kind(self, seat: int, computer: bool, level: int = 1, empty: bool = False) -> None:
        """A person, or the computer at ``level`` (1 to the computer's highest), plays ``seat``;
        or nobody, where the map offers a game without that seat (``empty``). A seat of a game
        without a map called by the app's own name is "Computer" while the computer plays it."""
        seats = self.dungeon_seats if self.dungeon else self.seats
        if seat >= len(seats) or (computer and self.max_level < 1):
            return
        if empty and not (self.dungeon and self._may_leave_empty(seat)):
            return
        if stockfish_elo(level) is None or level not in dict(self._extra_choices()):
            level = min(max(1, level), max(1, self.max_level))
        s = seats[seat].here()
        if not self.dungeon and seat < self.nseats:  # the app's own name is "Computer" while it plays
            s = (s.by_default() if s.is_colour else s) if computer else s.as_person()
        seats[seat] = replace(s, computer=computer and not empty, empty=empty,
                              level=level if computer else max(1, min(s.level, self.max_level or 1)))
        self.display.changed()

    def _extra_choices(self) -> tuple[tuple[int, str], ...]:
        """Stockfish's strengths for a FIDE chess seat, when it is installed."""
        extra = getattr(self.computer, "extra_choices", None)
        return tuple(extra(self.game)) if extra is not None and not self.dungeon else ()

    def _drop_engines(self) -> None:
        """Another game chosen: a Stockfish seat becomes our strongest level (Stockfish plays
        FIDE chess only)."""
        allowed = dict(self._extra_choices())
        for i, s in enumerate(self.seats):
            if s.computer and stockfish_elo(s.level) is not None and s.level not in allowed:
                self.seats[i] = replace(s, level=max(1, self.max_level))

    def set_remote(self, seat: int) -> None:
        """``seat`` is played at a friend's board: in a two-player game the other seat stays here;
        in Dungeon Chess (2 to 4 players) and four-player chess any seats but one at least sit at
        the friend's board."""
        if self.dungeon or self.nseats > 2:
            self._set_one_of_many_remote(seat)
            return
        if seat >= len(self.seats):
            return
        self.seats = [s.here() for s in self.seats]
        self.seats[seat] = self.seats[seat].at_friends_board()
        self.display.changed()

    def _linked(self) -> bool:
        """A seat is played at a friend's board: Start shows the code first (link_room.py)."""
        seats = self.dungeon_seats[:self._maps[self.board_map].players] if self.dungeon else self.seats[:self.nseats]
        return any(s.remote for s in seats)

    def _set_one_of_many_remote(self, seat: int) -> None:
        """Dungeon Chess and four-player chess: any seats at the friend's board, one at least here."""
        every = self.dungeon_seats if self.dungeon else self.seats
        seats = every[:self._maps[self.board_map].players if self.dungeon else self.nseats]
        if seat >= len(seats):
            return
        if not any(not s.remote and not s.empty for i, s in enumerate(seats) if i != seat):
            self.display.start_problem = L.LINK_ONE_SEAT_HERE
        else:
            every[seat] = replace(seats[seat], computer=False, empty=False, remote=True)
            self.display.start_problem = ""
        self.display.changed()

    def join(self) -> None:
        """Join a game a friend's board offers: type the code it shows."""
        self.bus.handle(JoinLink())

    def _may_leave_empty(self, seat: int) -> bool:
        m = self._maps[self.board_map]
        used = tuple(i + 1 for i, s in enumerate(self.dungeon_seats[:m.players]) if not s.empty and i != seat)
        return used in {seats for _, seats in m.seatings}

    def _seating(self) -> tuple[int, ...] | None:
        """The seats that play, in turn order (1-based); None when the empty seats are not a
        seating the map offers."""
        m = self._maps[self.board_map]
        used = tuple(i + 1 for i, s in enumerate(self.dungeon_seats[:m.players]) if not s.empty)
        if len(used) == m.players:
            return used
        return next((seats for _, seats in m.seatings if sorted(seats) == list(used)), None)

    def toggle_draw_rules(self) -> None:
        self.choose_option("draw_rules=" + ("off" if self.draw_rules else "on"))

    def open_kind(self, seat: int) -> None:
        """The list of who may play ``seat``: Person, Computer 1 ... the highest level, and
        Nobody where the map allows it."""
        if len(self._kind_choices(seat)) < 2:
            return
        self.picking, self.picking_kind = seat, True
        self.display.changed()

    def pick_kind(self, label: str | None) -> None:
        seat, self.picking, self.picking_kind = self.picking, None, False
        kinds = dict((text, key) for key, text in self._kind_choices(seat)) if seat is not None else {}
        if label in kinds:
            key = kinds[label]
            if key == "nobody":
                self.set_kind(seat, False, 1, empty=True)
            elif key == "remote":
                self.set_remote(seat)
            else:
                self.set_kind(seat, key != "person", int(key.split(":")[1]) if key != "person" else 1)
        self.display.changed()

    def _kind_choices(self, seat: int | None = None) -> list[tuple[str, str]]:
        out = [("person", T.HUMAN)]
        titles = tuple(getattr(self.computer, "level_titles", ()))
        for level in range(1, self.max_level + 1):
            words = titles[level - 1] if level <= len(titles) else ""
            out.append((f"computer:{level}", T.SEAT_COMPUTER_LEVEL.format(level=level, words=words) if words
                        else T.SEAT_COMPUTER.format(level=level)))
        out += [(f"computer:{level}", words) for level, words in self._extra_choices()]
        if seat is not None and self.dungeon and (self.dungeon_seats[seat].empty or self._may_leave_empty(seat)):
            out.append(("nobody", T.SEAT_EMPTY))
        out.append(("remote", T.SEAT_REMOTE))
        return out

    def open_names(self, seat: int) -> None:
        self.picking, self.picking_kind = seat, False
        self.display.changed()

    def pick_name(self, name: str | None) -> None:
        if self.picking_kind:
            self.pick_kind(name)
            return
        self._call(self.picking, name, typed=name in self.storage.remembered_names())

    def _call(self, seat: int | None, name: str | None, typed: bool) -> None:
        """Call ``seat`` ``name``: typed (kept as it is), or picked (seat_names.py)."""
        seats = self.dungeon_seats if self.dungeon else self.seats
        if seat is not None and name and seat < len(seats):
            seats[seat] = seats[seat].picked(name, typed=typed, default=self._default_name(seat))
            if not self.dungeon and seat < 2:
                self.settings.next_table.names[seat] = None  # a name chosen here wins over a pairing's
        self.picking = None
        self.display.changed()

    def type_name(self) -> None:
        """The name picker's "Type a name..." button: the on-screen keyboard."""
        seat = self.picking
        if seat is None:
            return
        self.picking = None
        from .entry import Entry

        colour = self.colour_words()[seat] if not self.dungeon else self._seat_word(seat)
        self.display.open_entry(Entry(T.TYPE_NAME_TITLE.format(colour=colour), max_len=30,
                                   on_done=lambda text: self._typed(seat, text)))

    def _typed(self, seat: int, text: str) -> None:
        name = " ".join(text.split())
        if name:
            self.storage.remember_name(name)  # offered first in the picker next time
            self._call(seat, name, typed=True)

    def table_settings(self) -> None:
        self.settings.open()

    def choose_dice(self, mode: str) -> None:
        if mode in DICE_MODES:
            self.dice = mode
            self.display.changed()

    def choose_bids(self, mode: str) -> None:
        if mode in BID_MODES:
            self.bids = mode
            self.display.changed()

    def choose_match(self, games: int | str) -> None:
        if int(games) in MATCH_LENGTHS:
            self.match_games = int(games)
            self.display.changed()

    def toggle_d6(self) -> None:
        self.d6_only = not self.d6_only
        self.display.changed()

    def start(self, start_text: str | None = None) -> None:
        """Start the chosen game (from ``start_text``, a position set up by hand, if given)."""
        d6_only = self.d6_only and self.has_dice
        if self.dungeon:
            seating = self._seating() or tuple(range(1, self._maps[self.board_map].players + 1))
            chosen = [self.dungeon_seats[n - 1] for n in seating]
            seats = tuple(s.for_game(self._default_word(n - 1)) for n, s in zip(seating, chosen))
            remote = frozenset(i for i, s in enumerate(chosen) if s.remote)
            if remote:  # seats at a friend's board: pair first; each board's army sealed (link_room.py)
                self.bus.handle(LinkGame(self.game, seats, remote, "", board_map=self.board_map,
                                         draw_rules=self.draw_rules, d6_only=d6_only,
                                         options=tuple(sorted(self.options().items()))))
                return
            self.bus.handle(DraftDungeon(self.board_map, seats, draw_rules=self.draw_rules, dice=self.dice,
                                         d6_only=d6_only, options=self.options()))
            return
        from_pairing = self.settings.next_table.names  # a pairing's names as the pairing has them
        seats = tuple((s.called(from_pairing[i]) if i < 2 and from_pairing[i] else s).for_game(self._default_word(i))
                      for i, s in enumerate(self.seats[:self.nseats]))
        remote = frozenset(i for i, s in enumerate(self.seats[:self.nseats]) if s.remote)
        if remote:  # a friend's board plays those seats: pair first (link_room.py)
            self.bus.handle(LinkGame(self.game, seats, remote, "", d6_only=d6_only,
                                     options=tuple(sorted(self.options().items()))))
            return
        if self.nseats > 2:  # no clock and no tournament for three or four players (docs/rules/chess4.md)
            self.bus.handle(NewGame(self.game, seats, self.dice, d6_only, start_text, options=self.options()))
            return
        choice = self.settings.next_table
        if choice.mode == "tournament" and any(s.computer for s in seats):
            self.display.start_problem = T.TOURNAMENT_NO_COMPUTER
            self.display.changed()
            return
        if choice.mode == "tournament" and self.game in GAMES_WITH_BIDS:
            self.display.start_problem = T.TOURNAMENT_NO_BIDS  # docs/rules/chess2.md
            self.display.changed()
            return
        try:
            table = choice.setup(self.settings.today())
        except Exception as e:  # noqa: BLE001 - a setting the table refuses: say it on the start screen
            self.display.start_problem = str(e)
            self.display.changed()
            return
        if self.game in GAMES_WITH_BIDS:  # its armies are chosen first (double-blind)
            self.bus.handle(ChooseArmies(self.game, seats, games=self.match_games, bids=self.bids, table=table))
            return
        started = self.bus.handle(NewGame(self.game, seats, self.dice, d6_only, start_text, table=table,
                                          options=self.options()))
        if started and choice.pairing is not None:
            self.settings.clear_pairing()  # the next game is another pairing

    def _names(self) -> list[str]:
        """The seats' names in the language of the moment; a pairing's names as the pairing has them."""
        from_pairing = self.settings.next_table.names
        return [(from_pairing[i] if i < 2 else None) or s.shown(self._default_name(i))
                for i, s in enumerate(self.seats[:self.nseats])]

    def _default_name(self, seat: int) -> str:
        """The app's own name for ``seat`` in the language of the moment ("Player 3": not shown)."""
        shown = len(self._maps[self.board_map].seats) if self.dungeon else self.nseats
        return _(self._default_word(seat)) if seat < shown else _unseated(seat)

    def _default_word(self, seat: int) -> str:
        """The app's own name for a seat of the game as its English: the word the game keeps."""
        if self.dungeon:
            return colour_word(self._maps[self.board_map].seats[seat].colour)
        if self.seats[seat].computer:
            return T.english("COMPUTER")
        return T.english("COLOUR_NAMES")[seat] if self.game in WHITE_AND_BLACK else colour_word(self._map_colours()[seat])

    def board_check(self) -> None:
        self.board_room.open_check()

    def games(self) -> None:
        self.archive.open()

    def preferences(self) -> None:
        """The board's language and speech, before any game (the game's Menu has them too)."""
        self.preferences_room.open()

    def load_save(self) -> None:
        """Load / Save (docs/game-text.md): from the start screen, to load a game."""
        self.load_save_room.open()

    def lichess(self) -> None:
        """Play on lichess (docs/online.md): connect the board's account, seek, challenge."""
        if self.online is not None and self.online.available:
            self.online.open()

    # ----- view ---------------------------------------------------------------------------------
    def view(self) -> StartView:
        has_dice = self.has_dice
        if self.dungeon:
            seats = self._dungeon_seat_views()
        else:
            names = self._names()
            seats = tuple(
                SeatView(self.colour_words()[i], names[i], s.computer, _level_word(s.level), True,
                         self._swatch(i), self._kind_word(s))
                for i, s in enumerate(self.seats[:self.nseats])
            )
        maps = tuple(
            MapChoice(name, _(m.title), T.MAP_SIZE.format(width=m.geometry.width, height=m.geometry.height,
                                                       players=_counts(m.player_counts)),
                      name == self.board_map, self._thumbs[name])
            for name, m in self._maps.items()
        )
        picking_for, names = "", ()
        if self.picking is not None:
            label = seats[self.picking].colour if self.picking < len(seats) else ""
            if self.picking_kind:
                picking_for = T.PICK_KIND.format(colour=label)
                names = tuple(text for _, text in self._kind_choices(self.picking))
            else:
                picking_for = T.PICK_NAME.format(colour=label)
                presets = self._name_presets() if self.dungeon else T.NAME_PRESETS
                typed = tuple(self.storage.remembered_names())
                names = typed + tuple(n for n in presets if n not in typed)
        choices, choices_hint = self._choices()
        return StartView(
            tuple(Choice(g, T.GAME_TITLES.get(g, GAMES[g].title), g == self.row) for g in GAME_CHOICES),
            self._game_hint(), seats, has_dice,
            tuple(Choice(m, T.DICE_MODES[m], m == self.dice) for m in DICE_MODES),
            T.DICE_HINTS[self.dice], self.d6_only, names, picking_for,
            self.display.start_problem or self.display.banner,
            "" if self.max_level else T.NO_COMPUTER,
            self.dungeon, maps, T.CHOOSE_ARMIES if (self.dungeon or self.game in GAMES_WITH_BIDS)
            and not self._linked() else T.START,
            choices, choices_hint,
            self.game in GAMES_WITH_BIDS,
            tuple(Choice(m, T.BID_MODES[m], m == self.bids) for m in BID_MODES), T.BID_HINTS[self.bids],
            tuple(Choice(str(n), T.MATCH_CHOICES[n], n == self.match_games) for n in MATCH_LENGTHS),
            positions=self.game in POSITION_GAMES,
            table="" if self.dungeon or self.nseats > 2 else self.settings.summary(),
            lichess=self.online is not None and self.online.available,
            fights=self.row in self.fights, can_fight=self.can_fight,
        )

    def _game_hint(self) -> str:
        """The game in words; while its "Dice fights" switch is on, the fights (Human Combat
        Chess is a game of its own: its own words)."""
        if FIGHTS_OPTION in self.options():
            return T.FIGHTS_HINT
        return T.GAME_HINTS.get(self.game, "")

    def _choices(self) -> tuple[tuple[Choice, ...], str]:
        """The game's own choice of a few values and its hint: Dungeon Chess's draw rules, or
        an option of :data:`OPTION_VALUES` (the first the game has)."""
        if self.game in GAMES_WITH_DRAW_OPTION:
            return (tuple(Choice(f"draw_rules={'on' if on else 'off'}", T.DRAW_CHOICES[on], on == self.draw_rules)
                          for on in (False, True)), T.DRAW_HINTS[self.draw_rules])
        for name, values in OPTION_VALUES.get(self.game, {}).items():
            chosen = self.values[self.game][name]
            return (tuple(Choice(f"{name}={v}", T.OPTION_CHOICES.get((name, v), v), v == chosen) for v in values),
                    T.OPTION_HINTS.get((name, chosen), ""))
        return (), ""

    def _dungeon_seat_views(self) -> tuple[SeatView, ...]:
        m = self._maps[self.board_map]
        out = []
        for i, s in enumerate(self.dungeon_seats[:m.players]):
            word = m.seats[i].colour
            can_choose = True  # a person, the computer, nobody where the map allows, or a friend's board
            out.append(SeatView(T.seat_word(word), s.shown(self._seat_word(i)), s.computer, _level_word(s.level),
                                can_choose, theme.seat_colour(word), self._kind_word(s), s.empty))
        return tuple(out)

    def _swatch(self, seat: int):
        """A two-player game's seat colour: white and black pieces, or the map's colours (KoL)."""
        if self.game in WHITE_AND_BLACK:
            return theme.piece_colours(seat)[0]
        return theme.seat_colour(self._map_colours()[seat])

    @staticmethod
    def _kind_word(s: SeatChoice) -> str:
        if s.remote:
            return T.SEAT_REMOTE
        if s.computer and stockfish_elo(s.level) is not None:
            return T.SEAT_STOCKFISH.format(elo=stockfish_elo(s.level))
        return T.SEAT_EMPTY if s.empty else T.SEAT_COMPUTER.format(level=s.level) if s.computer else T.HUMAN

    def _seat_word(self, i: int) -> str:
        seats = self._maps[self.board_map].seats
        return T.seat_word(seats[i].colour) if i < len(seats) else _unseated(i)

    def _name_presets(self) -> tuple[str, ...]:
        words = tuple(T.seat_word(s.colour) for s in self._maps[self.board_map].seats)
        return words + tuple(n for n in T.NAME_PRESETS if n not in T.COLOUR_NAMES and n not in words)


def _unseated(i: int) -> str:
    """The name of a seat no game has shown yet (the third and fourth of four-player chess)."""
    return T.SEAT_PLAYER.format(n=i + 1)


def _counts(counts: tuple[int, ...]) -> str:
    """"2", or "3\u20134" for a map that also seats fewer players."""
    return str(counts[0]) if len(counts) == 1 else f"{counts[0]}\u2013{counts[-1]}"


def thumbnail(board_map) -> MapThumb:
    """The map drawn small: floor, water and void, each spawn zone in its seat's colour."""
    g = board_map.geometry
    owner = {}
    for i, seat in enumerate(board_map.seats):
        for sq in seat.spawn:
            owner[sq] = theme.seat_colour(seat.colour)
    cells = []
    for sq in range(g.size):
        t = g.terrain[sq]
        if t == VOID:
            cells.append(theme.VOID)
        elif t == WATER:
            cells.append(theme.WATER)
        else:
            cells.append(owner.get(sq, THUMB_FLOOR))
    return MapThumb(g.width, g.height, tuple(cells))


def _level_word(level: int) -> str:
    """A computer seat's strength in a word: our level, or Stockfish's Elo."""
    elo = stockfish_elo(level)
    return T.LEVEL.format(level=level) if elo is None else T.SEAT_STOCKFISH.format(elo=elo)
