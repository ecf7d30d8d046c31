"""The one place that builds the app from its parts (the cosmicpython 'bootstrap').

``build_flow`` wires the board, the journal directory, the tracker, the computer player and
the clock into an AppFlow (its rooms, companion/app/presenters/flow.py); ``build_presenters``
adds one presenter per screen, each given only the rooms it uses; ``build_app``
wraps both in the Kivy app. Tests call the same functions with fakes (a simulated board, a
tracker double, a scripted computer) so that what they open is the product's own app.

Nothing here opens hardware at import: boards are opened by ``open_board`` when called.
"""

from __future__ import annotations

import os
import secrets
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable

from ..board.palette import linearize
from ..dice.sources import new_seed
from ..errors import HardwareError
from ..i18n import _
from ..journal import JournalStore, free_space
from ..tournament.files import MEDIA_ROOTS
from .presenters.armies import ArmiesPresenter
from .presenters.board import BoardPresenter
from .presenters.arbiter import ArbiterPresenter
from .presenters.board_check import BoardCheckPresenter
from .presenters.chess2 import DuelPresenter
from .presenters.clock import ClockPresenter
from .presenters.deploy import DeployPresenter
from .presenters.draft import DraftPresenter
from .presenters.entry import EntryPresenter
from .presenters.dungeon_game import DungeonGamePresenter
from .presenters.fight import FightPresenter
from .presenters.flow import AppFlow, BoardLink
from .presenters.game import GamePresenter
from .presenters.game_bar import GameBarPresenter
from .presenters.game_over import GameOverPresenter
from .presenters.game_text import GameTextPresenter
from .presenters.link import LinkPresenter
from .presenters.online import OnlinePresenter
from .presenters.online_room import OnlineSetup
from .presenters.games import GamesPresenter, ReviewPresenter
from .presenters.position import PositionPresenter
from .presenters.problem import ProblemPresenter
from .presenters.prompt import PieceInfoPresenter, PromptPresenter
from .presenters.resume import ResumePresenter
from .presenters.setup import SetupPresenter
from .presenters.start import StartPresenter
from .presenters.table_setup import TableSetupPresenter

#: The game map's size: FIDE and Combat Chess are 8x8 (larger maps arrive with Dungeon Chess).
MAP_SIZE = (8, 8)


@dataclass
class Presenters:
    start: StartPresenter
    resume: ResumePresenter
    setup: SetupPresenter
    game: GamePresenter
    board: BoardPresenter
    fight: FightPresenter
    over: GameOverPresenter
    prompt: PromptPresenter
    info: PieceInfoPresenter
    check: BoardCheckPresenter
    draft: DraftPresenter
    deploy: DeployPresenter
    dungeon: DungeonGamePresenter
    text: GameTextPresenter
    problem: ProblemPresenter
    bar: GameBarPresenter
    games: GamesPresenter
    review: ReviewPresenter
    position: PositionPresenter
    clock: ClockPresenter
    table: TableSetupPresenter
    arbiter: ArbiterPresenter
    entry: EntryPresenter
    armies: ArmiesPresenter
    duel: DuelPresenter
    link: LinkPresenter
    online: OnlinePresenter


def data_dir() -> Path:
    """Where games are journaled: $COMPANION_DATA, else $XDG_DATA_HOME/companion, else
    ~/.local/share/companion."""
    if os.environ.get("COMPANION_DATA"):
        return Path(os.environ["COMPANION_DATA"])
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "companion"


def open_board(profile: str | None = None, serial: str | None = None, size: tuple[int, int] = MAP_SIZE) -> BoardLink:
    """The board to play on: a profile's hardware, an RP2040 on a serial device, or (neither
    given) the simulated board that the screen itself operates. ``size`` is the map's; a game
    on another map opens the board again (the link's ``opener``)."""
    width, height = size

    def opener(w: int, h: int) -> BoardLink:
        return open_board(profile, serial, (w, h))

    if profile and serial:
        raise HardwareError(_("give either --profile or --serial, not both"))
    if profile:
        from ..board.hardware import open_board as open_hardware
        from ..board.profiles import load_profile

        loaded = load_profile(profile)
        sensors, leds = open_hardware(loaded, map_width=width, map_height=height)
        simulated = sensors if loaded.link == "simulated" else None
        return BoardLink(sensors, leds, width, height, simulated=simulated, name=str(profile), opener=opener)
    if serial:
        from ..board.serial_board import SerialBoard

        board = SerialBoard(serial, width, height)
        return BoardLink(board, _LinearLeds(board), width, height, name=serial, opener=opener)
    from ..board.simulated import SimulatedBoard

    board = SimulatedBoard(width, height)
    return BoardLink(board, board, width, height, simulated=board, opener=opener)


class _LinearLeds:
    """Design colours -> LED levels for a board whose firmware applies the brightness cap."""

    def __init__(self, port: Any) -> None:
        self.port = port

    def show(self, frame) -> None:
        self.port.show(linearize(frame))

    def stop(self) -> None:
        self.port.stop()


def default_tracker() -> Callable:
    """The real tracker's constructor (rules, position) -> Tracker."""
    from ..board.tracker import Tracker

    return Tracker


def default_computer() -> Any:
    """The computer player, or None when companion.ai is not installed."""
    try:
        from .computer import SearchComputer
    except ImportError:
        return None
    return SearchComputer.available()


def game_id() -> str:
    """A name for a new game's files: its start time plus a few random letters."""
    return time.strftime("%Y%m%d-%H%M%S") + "-" + secrets.token_hex(2)


def random_seat(n: int) -> int:
    """A seat drawn at random (a "random" turn order): the system's randomness, at the edge."""
    return secrets.randbelow(n)


def default_deploy_guide() -> Callable:
    """The deployment guide's constructor (rules, deployment, sensed=, t_ms=) -> DeploymentTracker."""
    from ..board.deployment import DeploymentTracker

    return DeploymentTracker


def monotonic_ms() -> int:
    return int(time.monotonic() * 1000)


def build_flow(
    board: BoardLink,
    store: JournalStore,
    *,
    make_tracker: Callable,
    computer: Any = None,
    clock_ms: Callable[[], int] = monotonic_ms,
    new_game_id: Callable[[], str] = game_id,
    seed: Callable[[], bytes] = new_seed,
    run_in_worker: Callable | None = None,
    draw_seat: Callable[[int], int] = random_seat,
    make_deploy_guide: Callable | None = None,
    media_roots=MEDIA_ROOTS,
    sticks: Callable[[], list] | None = None,
    free_bytes: Callable[[], int | None] | None = None,
    voice: Any = None,
    board_settings: Any = None,
    make_link_transport: Callable | None = None,
    online: OnlineSetup | None = None,
) -> AppFlow:
    """The flow; ``free_bytes`` (default: the free space where ``store`` saves games) tells
    when to warn that space is low; ``sticks`` (default: the USB sticks mounted under
    ``media_roots``, companion.tournament.files.find_sticks) lists the sticks plugged in now."""
    return AppFlow(board, store, make_tracker=make_tracker, clock_ms=clock_ms, new_game_id=new_game_id,
                   new_seed=seed, computer=computer, run_in_worker=run_in_worker, draw_seat=draw_seat,
                   make_deploy_guide=make_deploy_guide or default_deploy_guide(),
                   free_bytes=free_bytes or (lambda: free_space(store.directory)), sticks=sticks,
                   media_roots=media_roots, voice=voice, board_settings=board_settings, online=online,
                   **({"make_link_transport": make_link_transport} if make_link_transport else {}))


def build_presenters(flow: AppFlow) -> Presenters:
    """One presenter per screen, each handed only the rooms it uses (never the AppFlow)."""
    f = flow
    board = BoardPresenter(f.board, f.game, f.dungeon, f.ai, f.display)
    start = StartPresenter(f.display, f.bus, f.settings, f.storage, f.ai.computer, board=f.board,
                           load_save=f.load_save, archive=f.archive, online=f.online, preferences=f.preferences)
    return Presenters(
        start=start,
        resume=ResumePresenter(f.resume),
        setup=SetupPresenter(f.game, f.play, f.board, f.display),
        game=GamePresenter(f.game, f.play, f.ai, f.board, f.menu, f.display, online=f.online_game, coach=f.coach),
        board=board,
        fight=FightPresenter(f.play, f.game, f.display),
        over=GameOverPresenter(f.game, f.play, f.matches, f.records, f.display),
        prompt=PromptPresenter(f.display, f.storage),
        info=PieceInfoPresenter(f.game, f.display),
        check=BoardCheckPresenter(f.board, f.display),
        draft=DraftPresenter(f.dungeon, f.display),
        deploy=DeployPresenter(f.dungeon, f.board, f.display),
        dungeon=DungeonGamePresenter(f.game, f.ai, f.board, f.display, coach=f.coach),
        text=GameTextPresenter(f.load_save, f.game, f.display),
        problem=ProblemPresenter(f.problems),
        bar=GameBarPresenter(f.play, f.game, f.dungeon, f.clock, f.menu, f.display, board, online=f.online_game),
        games=GamesPresenter(f.archive),
        review=ReviewPresenter(f.archive, f.board, f.display, f.analysis),
        position=PositionPresenter(f.board, f.display, start),
        clock=ClockPresenter(f.clock, f.game, f.play, f.board, f.menu, f.display),
        table=TableSetupPresenter(f.settings, f.display),
        arbiter=ArbiterPresenter(f.arbiter, f.game, f.load_save, f.display),
        entry=EntryPresenter(f.display),
        armies=ArmiesPresenter(f.matches, f.display),
        duel=DuelPresenter(f.play, f.game, f.ai, f.display),
        link=LinkPresenter(f.link, f.display),
        online=OnlinePresenter(f.online, f.display),
    )


def build_app(flow: AppFlow, presenters: Presenters | None = None):
    """The Kivy app around ``flow`` (imports Kivy, so call it only to open a window)."""
    from .kiosk import build_kiosk
    from .shell import CompanionApp

    return CompanionApp(flow, presenters or build_presenters(flow), kiosk=build_kiosk())


def build_flow_for(profile: str | None = None, serial: str | None = None, data: Path | None = None,
                   wait: bool = False) -> AppFlow:
    """The product's flow: the chosen board (a serial port that is not there is refused here,
    naming the ports that are, unless ``wait``: then the app starts and shows that the board is
    not connected until it comes), the real tracker and computer, games saved under
    :func:`data_dir`. No Kivy."""
    from ..board.serial_ports import check_port

    if serial:
        check_port(serial, wait=wait)  # waiting, only what can never be a board is refused
    elif profile and not wait:
        from ..board.profiles import load_profile

        loaded = load_profile(profile)
        if loaded.link == "serial" and loaded.serial is not None and loaded.serial.port != "auto":
            check_port(loaded.serial.port)  # "auto" is looked up when the board is opened
    board = open_board(profile, serial)
    store = JournalStore(data or data_dir())
    settings, voice = board_preferences(store.directory)
    return build_flow(board, store, make_tracker=default_tracker(), computer=default_computer(), voice=voice,
                      board_settings=settings, online=lichess_setup())


def board_preferences(directory: Path):
    """The board's settings (its language used from now on, when it chose one) and its voice
    (espeak-ng on its own thread; without espeak-ng or a sound card one line in the log, and
    silent)."""
    import logging

    from .. import board_settings
    from ..i18n import Language, use
    from ..speech.espeak import Voice

    settings = board_settings.load(directory)
    if settings.language is not None:
        use(Language.load(settings.language))
    voice = Voice(settings.speech, log=logging.getLogger("companion").warning).start()
    return settings, voice


def lichess_setup(clock_ms: Callable[[], int] = monotonic_ms) -> OnlineSetup | None:
    """How the app reaches lichess: $COMPANION_LICHESS_URL or lichess.org, the link thread and
    the page a phone connects the account through (None when the address is not usable)."""
    from ..errors import OnlineError
    from ..online.client import server_url
    from ..online.link import OnlineLink
    from ..online.page import ConnectPage

    try:
        server = server_url()
    except OnlineError:
        return None
    return OnlineSetup(server, lambda base, token, post: OnlineLink(base, token, post, clock_ms),
                       lambda base, on_token: ConnectPage(base, on_token, clock_ms=clock_ms))


def build(profile: str | None = None, serial: str | None = None, data: Path | None = None,
          broadcast: str | None = None):
    """The product as shipped, as a Kivy app; with ``broadcast`` ([HOST:]PORT) the game is also
    served live."""
    flow = build_flow_for(profile, serial, data)
    return with_broadcast(flow, build_app(flow), broadcast)


def with_broadcast(flow: AppFlow, app, broadcast: str | None):
    """``app`` serving ``flow``'s game on ``broadcast`` ([HOST:]PORT) until it stops; ``app``
    unchanged when ``broadcast`` is None."""
    if broadcast is not None:
        live = attach_broadcast(flow, broadcast)
        app.bind(on_stop=lambda *_: live.stop())
    return app


def attach_broadcast(flow: AppFlow, address: str, *, name: str | None = None, announce: bool = True):
    """Serve ``flow``'s game on ``address`` (its own thread; BroadcastError if the address
    cannot be used). Nothing of it exists while broadcast is off."""
    from ..broadcast.board_server import start_broadcast

    return start_broadcast(flow, address, name=name, announce=announce)
