"""A game with a friend's board: pairing, the game agreed, the link's state, the other board's
actions (companion/link, docs/link.md).

:class:`LinkRoom` owns the link: the pairing code (shown, or typed on the number pad), the
:class:`~companion.link.transport.LinkPort` (its threads post to the Mailbox, ``link``), the
:class:`~companion.link.game.LinkedGame` and what the screen says of it. The game itself is the
GameRoom's, as any game: the room opens it there with a
:class:`~companion.link.session_view.LinkedSession` as its session, so every presenter plays it
through the link without knowing; the other board's actions are published on the bus like the
board's own (the tracker then guides the move on the board: it is a move the engine knows).

Handles the LinkGame command (the start screen with a seat at the other board: the host) and
JoinLink (the guest). Given the Display, the GameRoom, the Mailbox, the bus, and at the edge a
``make_transport(role, nameplate)``, the data folder and the entropy source.
"""

from __future__ import annotations

import os
import time
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Callable

from ...errors import CompanionError, LinkError
from ...i18n import _
from ...link.code import DIGITS, PairingCode
from ...link.events import (ChoicesSealed, ClaimedWhileAway, GameReady, Mismatch, MismatchFixed, PeerAdjourned,
                            PeerAway, PeerBack, ProposalAccepted, ProposalReceived, Refused, RequestAnswered,
                            TakebackAsked)
from ...link.game import LinkedGame
from ...link.lobby import (LinkSeat, Proposal, choices_needed, default_choices, drafted_choice, dungeon_armies,
                           dungeon_choices, rules_of)
from ...link.session_view import LinkedSession, game_events, sealed_by_the_other_board
from ...link.store import LinkStore, game_root
from ...session import Session
from .. import link_texts as L
from .. import texts as T
from .display import Display
from .game_room import GameRoom
from .mailbox import Mailbox
from .messages import (Bus, DraftLinkedDungeon, GameClosed, JoinLink, LinkedDraftChanged, LinkedDraftEnded,
                       LinkGame, UseBoardFor)
from .questions import Prompt, PromptOption

if TYPE_CHECKING:
    from ...link.transport import LinkPort

ASKED = ("link-proposal", "link-takeback", "link-away", "link-mismatch", "link-army", "link-dungeon-army")
ARMIES = ("classic", "nemesis", "empowered", "reaper", "two-kings", "animals")


@dataclass
class Pairing:
    role: str                  # host (shows the code) or guest (types it)
    code: PairingCode | None   # the host's, or the guest's once typed
    typed: str = ""            # the guest's digits so far
    state: str = "waiting"     # waiting (for the code / the other board), pairing, paired, failed
    problem: str = ""


class LinkRoom:
    def __init__(self, display: Display, game: GameRoom, mailbox: Mailbox, bus: Bus, *, data: str | os.PathLike,
                 make_transport: Callable[[str, str], object], draw: Callable[[int], int],
                 entropy: Callable[[int], bytes] = os.urandom, clock_ms: Callable[[], int]) -> None:
        self.display, self.game, self.mailbox, self.bus = display, game, mailbox, bus
        self.store = LinkStore(Path(data))
        self.make_transport, self.draw, self.entropy, self.clock_ms = make_transport, draw, entropy, clock_ms
        self.pairing: Pairing | None = None
        self.port: LinkPort | None = None
        self.linked: LinkedGame | None = None
        self.pending: LinkGame | None = None  # the host's game, proposed once paired
        self.status = ""                       # the link's line on every screen of a linked game
        self.away_since: int | None = None
        self.down = False                      # the connection went down (said at once, until it is up)
        self.mismatch: Mismatch | None = None
        self.master = b""
        self.nameplate = ""
        self.number = 1
        self._journal = None
        self._armies: dict[int, str] = {}      # a linked Dungeon game: the army chosen for each seat here

    # ----- the two ways in ------------------------------------------------------------------------------
    def host(self, command: LinkGame) -> bool:
        """The start screen's game with a seat at the other board: show a code, wait for it."""
        self.close()
        self.game.close()
        try:  # the board opened for the game's map first: a board too small is said at once
            self.bus.handle(UseBoardFor(command.game, command.board_map))
        except CompanionError as e:
            self.display.start_problem = str(e)
            self.display.show("start")
            return False
        self.display.start_problem = ""
        if not command.game_id:
            from dataclasses import replace

            command = replace(command, game_id=self.game.new_game_id())
        self.pending = command
        code = PairingCode.from_number(self.draw(10 ** DIGITS))
        self.pairing = Pairing("host", code)
        self._start_port("host", code)
        self.display.show("link")
        return True

    def join(self, _command: JoinLink = JoinLink()) -> None:
        """Type the code the other board shows."""
        self.close()
        self.game.close()
        self.pairing = Pairing("guest", None)
        self.display.show("link")

    def key(self, key: str) -> None:
        """A key of the number pad (digits, ``back``, ``clear``, ``enter``)."""
        p = self.pairing
        if p is None or p.role != "guest" or p.code is not None:
            return
        if key == "back":
            p.typed = p.typed[:-1]
        elif key == "clear":
            p.typed = ""
        elif key.isdigit() and len(p.typed) < DIGITS:
            p.typed += key
        p.problem = ""
        if len(p.typed) == DIGITS or key == "enter":
            try:
                p.code = PairingCode.parse(p.typed)
            except CompanionError as e:
                p.problem = str(e)
            else:
                p.state = "pairing"
                self._start_port("guest", p.code)
        self.display.changed()

    def cancel(self) -> None:
        """Leave the link's screen. A game not started yet is given up: its link journal and
        its draft go, so the next start does not take it up again."""
        if self.linked is not None and self.linked.session is None:
            self.store.drop_draft()
            self.store.end_game()
        self.close()
        self.display.show("start")

    def _start_port(self, role: str, code: PairingCode) -> None:
        self.master = self.entropy(32)
        self.nameplate = code.nameplate
        # here, not at the top: the channel's cryptography and SPAKE2 load only when a link starts
        # (8 MB resident that a game without a link does not need; docs/performance.md)
        from ...link.channel import Channel
        from ...link.transport import LinkPort

        channel = Channel(role, self.entropy, code=code)
        self.port = LinkPort(channel, self.make_transport(role, code.nameplate), save_epoch=self._save_epoch,
                             post=lambda item: self.mailbox.post("link", item))
        self.port.start()

    def _save_epoch(self, epoch: int) -> None:
        port = self.port
        if port is not None and port.channel.confirmed and port.channel.key:  # before its hello goes out (any thread)
            self.store.save_pairing(role=port.channel.role, nameplate=self.nameplate, key=port.channel.key,
                                    master=self.master, epoch=epoch, game=self.number)

    # ----- the link's news (Mailbox, UI thread) -----------------------------------------------------------
    def receive(self, item: tuple) -> None:
        kind = item[0]
        p = self.pairing
        if kind == "paired" and p is not None:
            p.state = "paired"
            self._save_epoch(self.port.channel.epoch)
            self._open_link()
        elif kind == "failed" and p is not None:
            p.state, p.problem = "failed", L.LINK_CODES_DIFFER
            self._stop_port()
            if p.role == "guest":
                p.code, p.typed, p.state = None, "", "waiting"
        elif self.linked is None:
            pass
        elif kind == "up":
            self.down = False
            self.link_events(self.linked.connected(self.clock_ms()))
        elif kind == "down":
            self.down = True
            self.linked.disconnected()
        elif kind == "payload":
            self.link_events(self.linked.receive(item[1], self.clock_ms()))
        self.flush()
        self.display.changed()

    def tick(self, t_ms: int) -> None:
        if self.linked is not None:
            self.link_events(self.linked.tick(t_ms))
            self.flush()

    def flush(self) -> None:
        if self.linked is not None and self.port is not None:
            out = self.linked.data_to_send()
            if out:
                self.port.send(out)

    def _open_link(self) -> None:
        me = 0 if self.pairing.role == "host" else 1
        self.store.drop_draft()  # a new pairing: what an earlier link left is not this game's
        self.store.end_game()
        journal = self.store.open_game(self.number, me)
        self.linked = LinkedGame(me, game_root(self.master, self.number), record=journal.append,
                                 start_game=self._start_game, number=self.number)
        if self.port.connected:
            self.link_events(self.linked.connected(self.clock_ms()))
        if me == 0:
            self.link_events(self.linked.propose(self._proposal()))

    def _proposal(self) -> Proposal:
        c = self.pending
        seats = tuple(LinkSeat(s.name, 1 if i in c.remote else 0, s.computer and i not in c.remote, s.level)
                      for i, s in enumerate(c.seats))
        options = {**dict(c.options), **({"fights": "dice"} if c.fights else {})}
        return Proposal(c.game, seats, c.game_id, c.board_map, c.draw_rules, 0, c.claim_after_s,
                        tuple(options.items()), c.d6_only)

    def _start_game(self, setup) -> Session:
        """Both boards agree on ``setup``: the game is journaled and opened in the GameRoom."""
        journal = self.game.storage.store.create()
        session, _ = Session.new(setup, recorder=journal.append)
        self._journal = journal
        return session

    # ----- what the link says ---------------------------------------------------------------------------
    def link_events(self, events: list) -> None:
        linked = self.linked
        game = game_events(events, None)
        for e in events:
            if isinstance(e, ProposalReceived):
                self.ask_proposal(e.proposal)
            elif isinstance(e, ProposalAccepted):
                self.agreed()
            elif isinstance(e, GameReady):
                self._opened()
            elif isinstance(e, ChoicesSealed) and linked.session is not None:
                game += sealed_by_the_other_board([e], linked)
            elif isinstance(e, TakebackAsked):
                self.display.ask(Prompt("link-takeback", L.LINK_TAKEBACK_ASKED.format(turns=e.turns), (
                    PromptOption("accept", T.ACCEPT), PromptOption("decline", T.DECLINE)), cancel=False))
            elif isinstance(e, RequestAnswered) and not e.done:
                self.display.notice = L.LINK_REFUSED.format(why=e.why) if e.why else L.LINK_DECLINED
            elif isinstance(e, PeerAway):
                self.away_since = e.since_ms
            elif isinstance(e, PeerBack):
                self.away_since = None
            elif isinstance(e, PeerAdjourned):
                self.display.notice = L.LINK_ADJOURNED
            elif isinstance(e, ClaimedWhileAway):
                self.display.notice = L.LINK_CLAIMED_AWAY
            elif isinstance(e, Mismatch):
                self.mismatch = e
                self._ask_mismatch()
            elif isinstance(e, MismatchFixed):
                self.mismatch = None
            elif isinstance(e, Refused):
                self.display.notice = L.LINK_PROBLEM.format(why=e.why)
        if game and self.game.session is not None:
            self.game.handle(game)
        self.display.changed()

    def ask_proposal(self, proposal: Proposal) -> None:
        mine = [s.name for s in proposal.seats if s.board == 1]
        theirs = [s.name for s in proposal.seats if s.board == 0]
        self.display.ask(Prompt("link-proposal", L.LINK_PROPOSAL.format(
            game=T.GAME_TITLES.get(proposal.game, proposal.game), them=", ".join(theirs), you=", ".join(mine)),
            (PromptOption("accept", T.ACCEPT), PromptOption("decline", T.DECLINE)), cancel=False))

    def agreed(self) -> None:
        """The game is agreed: this board's choices (a Chess 2 army is asked; others as the game
        starts them), sealed until the other board's are."""
        linked = self.linked
        need = choices_needed(linked.proposal)
        if need == "army":
            self.display.ask(Prompt("link-army", L.LINK_CHOOSE_ARMY, tuple(
                PromptOption(a, T.ARMY_NAMES.get(a, a)) for a in ARMIES), cancel=False))
            return
        if need == "deployment":
            self._armies = {}
            self.ask_dungeon_army()
            return
        self.link_events(linked.choose(default_choices(linked.proposal, linked.me)))

    def ask_dungeon_army(self) -> None:
        """A linked Dungeon game: the army of this board's next seat (its default first), each
        kept secret until both boards' are in; then placed on its spawn zone and sealed. Or
        *Draft*: every seat of this board drafted unit by unit and placed by hand on the local
        draft and deployment screens (:meth:`drafted`)."""
        linked = self.linked
        seats = [s for s in linked.proposal.seats_of(linked.me) if s not in self._armies]
        if not seats:
            self.link_events(linked.choose(dungeon_choices(linked.proposal, linked.me, self._armies)))
            self.store.drop_draft()  # sealed: the link journal holds it now
            return
        seat = seats[0]
        self.display.ask(Prompt("link-dungeon-army", L.LINK_CHOOSE_DUNGEON_ARMY.format(
            name=linked.proposal.seats[seat].name), tuple(
            PromptOption(name, title) for name, title in dungeon_armies(linked.proposal, seat))
            + (PromptOption("draft", L.LINK_DRAFT),), cancel=False))

    def draft(self, progress: dict | None = None) -> None:
        """Draft and place this board's armies on the local screens (dungeon_setup.py); with
        ``progress`` (kept before a power cut) from where the draft was (DraftError: not)."""
        linked = self.linked
        self._armies = {}
        from ...session import Seat

        seats = tuple(Seat(s.name, s.computer, s.level) for s in linked.proposal.seats)
        self.bus.handle(DraftLinkedDungeon(rules_of(linked.proposal), seats, linked.proposal.seats_of(linked.me),
                                           progress))

    def take_up_presets(self, presets: dict) -> None:
        """The armies chosen for some of this board's seats before a power cut (link_return.py),
        each checked as the question offers them (LinkError); the next seat's asked."""
        linked = self.linked
        chosen = {}
        for seat, name in presets.items() if isinstance(presets, dict) else ():
            if not (seat.isdigit() and int(seat) in linked.proposal.seats_of(linked.me)) or name not in dict(
                    dungeon_armies(linked.proposal, int(seat))):
                raise LinkError(_("the saved draft cannot be used: {problem}").format(
                    problem=_("{name!r} is not an army seat {seat} may play here").format(name=name, seat=seat)))
            chosen[int(seat)] = name
        self._armies = chosen
        self.ask_dungeon_army()

    def keep_draft(self, event: LinkedDraftChanged) -> None:
        """Keep this board's draft as it changes (link/draft.json), until it is sealed."""
        linked = self.linked
        if linked is None or linked.proposal is None or linked.st.choices is not None:
            return
        try:
            self.store.save_draft(game=self.number, game_id=linked.proposal.game_id, me=linked.me,
                                  progress=event.progress)
        except OSError as e:  # a full card: the draft goes on; only a power cut now would lose it
            self.display.notice = L.LINK_DRAFT_NOT_KEPT.format(reason=e.strerror or e)

    def drafted(self, event: LinkedDraftEnded) -> None:
        """This board's armies drafted and placed (sealed now), or the player went back to the
        choice of armies (asked again)."""
        linked = self.linked
        if linked is None or linked.proposal is None or linked.st.choices is not None:
            return
        self.display.show("link")
        if event.placed is None:
            self.store.drop_draft()
            self.ask_dungeon_army()
        else:
            try:
                self.link_events(linked.choose({str(seat): drafted_choice(linked.proposal, seat, army, squares)
                                                 for seat, (army, squares) in event.placed.items()}))
                self.store.drop_draft()  # sealed: the link journal holds it now
            except CompanionError as e:  # not expected: the screens check as the lobby does
                self.display.notice = str(e)
                self.ask_dungeon_army()
        self.flush()
        self.display.changed()

    def _opened(self) -> None:
        linked = self.linked
        view = LinkedSession(linked, self.link_events)
        self.game.open_linked(view, self._journal)
        self.game.begin_setup()

    def _ask_mismatch(self) -> None:
        m = self.mismatch
        if m is None or m.theirs is None:
            return
        self.display.ask(Prompt("link-mismatch", L.LINK_MISMATCH.format(n=m.n, mine=m.mine, theirs=m.theirs), (
            PromptOption("mine", L.LINK_KEEP_MINE), PromptOption("theirs", L.LINK_TAKE_THEIRS)), cancel=False))

    # ----- answers to its questions ------------------------------------------------------------------------
    def answer(self, prompt: Prompt, key: str | None) -> None:
        linked = self.linked
        if linked is None or key is None:
            return
        try:
            if prompt.kind == "link-proposal":
                if key != "accept":
                    self.cancel()
                    return
                try:
                    self.bus.handle(UseBoardFor(linked.proposal.game, linked.proposal.board_map))
                except CompanionError as e:  # this board cannot play that map: said, and declined
                    self.cancel()
                    self.display.start_problem = str(e)
                    return
                self.link_events(linked.accept())
                self.agreed()
            elif prompt.kind == "link-dungeon-army" and key == "draft":
                self.draft()
            elif prompt.kind == "link-dungeon-army":
                seat = next(s for s in linked.proposal.seats_of(linked.me) if s not in self._armies)
                self._armies[seat] = key
                self.keep_draft(LinkedDraftChanged({"presets": {str(s): a for s, a in self._armies.items()}}))
                self.ask_dungeon_army()
            elif prompt.kind == "link-army":
                seats = linked.proposal.seats_of(linked.me)
                self.link_events(linked.choose({str(s): {"army": key} for s in seats}))
            elif prompt.kind == "link-takeback":
                self.link_events(linked.answer_takeback(key == "accept"))
            elif prompt.kind == "link-away":
                if key == "claim":
                    self.link_events(linked.claim(self.clock_ms()))
                elif key == "adjourn":
                    self.link_events(linked.adjourn())
                    self.flush()
                    self.game.leave()
            elif prompt.kind == "link-mismatch":
                self.link_events(linked.fix_mismatch(key))
        except CompanionError as e:
            self.display.notice = str(e)
        self.flush()
        self.display.changed()

    def away_choices(self) -> None:
        """The other board is away: wait, adjourn, or (after the agreed time) claim the game."""
        if self.linked is None or self.away_since is None:
            return
        self.display.ask(Prompt("link-away", L.LINK_AWAY_WHAT, (
            PromptOption("wait", L.LINK_WAIT), PromptOption("adjourn", L.LINK_ADJOURN),
            PromptOption("claim", L.LINK_CLAIM))))

    # ----- the screen's line ----------------------------------------------------------------------------------
    def banner(self) -> str:
        """The link's state, on every screen of a linked game."""
        if self.linked is None or self.game.session is None:
            return ""
        if self.away_since is not None:
            minutes = max(0, (self.clock_ms() - self.away_since) // 60_000)
            return L.LINK_AWAY.format(since=L.LINK_AWAY_SINCE.format(minutes=minutes) if minutes else "")
        if self.port is not None and (self.down or not self.port.connected):
            return L.LINK_CONNECTING
        waiting = self.linked.waiting_for()
        return L.LINK_WAITING.format(what=waiting) if waiting else L.LINK_CONNECTED

    # ----- closing ------------------------------------------------------------------------------------------------
    def _stop_port(self) -> None:
        if self.port is not None:
            self.port.stop()
            self.port = None

    def close(self, _event=None) -> None:
        self._stop_port()
        self.linked = self.pairing = self.pending = self.mismatch = None
        self.away_since = None
        self.down = False

    def take_up(self, saved: dict, records: list[dict], *, session=None, log: list = ()) -> list:
        """The link taken over again after a power cut (link_return.py): the saved key and
        secret, the link journal (``records``), the game's ``session`` and its actions ``log``
        if it had started; a new connection, on which the two boards agree by numbers on what
        each still lacks. Returns what is due now (the link's events)."""
        me = records[0]["me"]
        role = "host" if me == 0 else "guest"
        self.master, self.nameplate, self.number = saved["master"], saved["nameplate"], saved["game"]
        journal = self.store.open_game(self.number, me)
        self.linked, events = LinkedGame.resume(me, game_root(self.master, self.number), records[1:],
                                                session=session, log=list(log), record=journal.append,
                                                start_game=self._start_game, number=self.number)
        self.pairing = Pairing(role, None, state="paired")
        from ...link.channel import Channel  # (as in _start_port)
        from ...link.transport import LinkPort

        channel = Channel(role, self.entropy, key=saved["key"], epoch=saved["epoch"])
        self.port = LinkPort(channel, self.make_transport(role, self.nameplate), save_epoch=self._save_epoch,
                             post=lambda item: self.mailbox.post("link", item))
        return events

    def game_closed(self, event: GameClosed) -> None:
        if self.linked is not None and self.game.session is None:
            self.close()


def default_transport(role: str, nameplate: str):
    """The link's transport from the board's settings: an MQTT broker (``COMPANION_LINK_BROKER``,
    ``mqtt://host:port``) across the internet, else TCP on the local network, the host announced
    with zeroconf and the guest finding it by the code's nameplate."""
    from ...link.transport import MqttLink, TcpGuest

    broker = os.environ.get("COMPANION_LINK_BROKER")
    if broker:
        return MqttLink(broker, nameplate, role, f"companion-{role}-{os.getpid()}-{int(time.time())}")
    if role == "host":
        return _AnnouncedHost(nameplate)
    from ...link.discovery import LinkFinder

    finder = LinkFinder(nameplate)
    return TcpGuest(find=finder.find)


class _AnnouncedHost:
    """A TCP host announced with zeroconf while it runs."""

    def __init__(self, nameplate: str) -> None:
        from ...link.discovery import LinkAnnouncer
        from ...link.transport import TcpHost

        self.tcp = TcpHost("0.0.0.0", int(os.environ.get("COMPANION_LINK_PORT", "0")))
        name = os.environ.get("COMPANION_BOARD_NAME") or os.uname().nodename
        self.announcer = LinkAnnouncer(name, nameplate, "0.0.0.0", self.tcp.port)

    def start(self, up, frame, down) -> None:
        self.tcp.start(up, frame, down)
        self.announcer.start()

    def send(self, frame: bytes) -> None:
        self.tcp.send(frame)

    def stop(self) -> None:
        self.announcer.stop()
        self.tcp.stop()
