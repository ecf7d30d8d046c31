"""A linked board back after a power cut: the link taken up again where it was.

:class:`LinkReturn` looks at what the link keeps on the disk (companion.link.store: the pairing,
the link journal of the game in play, a draft in progress) when the app starts:

* a game that had started is taken up by the Resume room like any game (*Continue the
  unfinished game?*); once it is open again (GameOpened, ``resumed``) the link takes it over
  (:meth:`game_opened`);
* a game still being agreed or set up (the proposal, each board's armies drafted, placed,
  sealed, waiting for the other's) has no game journal yet: when nothing else is to be resumed
  (NothingToResume) the link is taken up at once where it stood (:meth:`lobby`): the proposal
  asked again, the draft and the deployment screens back with every unit and placement kept,
  or the sealed armies waiting for the other board's. What was sealed stays sealed (it is in
  the link journal, and the opening's nonce comes from the board's secret and the note's
  number): never a second, different draft.

A kept draft that cannot be used (damaged, or another game's) is set aside and said in one
line; the armies are asked again and nothing else is lost. Given the LinkRoom (whose link it
takes up), the GameRoom, the Display and the bus.
"""

from __future__ import annotations

import os
from pathlib import Path

from ...errors import CompanionError, DraftError, LinkError
from ...i18n import _
from ...journal import ARCHIVE
from ...link.lobby import SETUP, Proposal, choices_needed
from ...link.session_view import LinkedSession
from .. import link_texts as L
from .display import Display
from .game_room import GameRoom
from .link_room import LinkRoom
from .messages import Bus, GameOpened, NothingToResume, UseBoardFor


class LinkReturn:
    def __init__(self, link: LinkRoom, game: GameRoom, display: Display, bus: Bus) -> None:
        self.link, self.game, self.display, self.bus = link, game, display, bus

    def _saved(self) -> tuple[dict, list[dict], dict] | None:
        """The saved pairing, the link journal of its game and the game's proposal, when they
        belong together; None when there is no link game to take up (or it cannot be read)."""
        store = self.link.store
        try:
            saved = store.pairing()
            records = store.records()
        except CompanionError:
            return None
        if saved is None or not records or records[0].get("game") != saved["game"] \
                or records[0].get("me") not in (0, 1):
            return None
        proposal = next((r["note"]["proposal"] for r in records if r.get("type") in ("mine", "theirs")
                         and isinstance(r.get("note"), dict) and r["note"].get("kind") == "proposal"), None)
        if not isinstance(proposal, dict):
            return None
        return saved, records, proposal

    def game_opened(self, event: GameOpened) -> None:
        """A game taken up after a power cut: if it is the linked game of the saved link, the
        link takes it over again (its journal, the saved key, a new connection) and the two boards
        agree by numbers on what each still lacks."""
        table = event.table
        if not event.resumed or table is None or self.link.linked is not None:
            return
        found = self._saved()
        session = table.session
        if found is None or found[2].get("game_id") != session.setup.game_id:
            return
        saved, records, _proposal = found
        log = [entry for entry, _unused in table.entries if entry.get("type") != "table"]
        link = self.link
        try:
            events = link.take_up(saved, records, session=session, log=log)
        except CompanionError as e:  # a damaged link journal, a transport that cannot open: said
            link.close()
            self.display.notice = str(e)
            return
        self.game.session, self.game.table = LinkedSession(link.linked, link.link_events), None
        link.port.start()
        link.link_events(events)

    def lobby(self, _event: NothingToResume | None = None) -> None:
        """No game to resume: a linked game still being agreed or set up is taken up where it
        stood (see the module's docstring)."""
        link = self.link
        if link.linked is not None or link.pairing is not None:
            return
        found = self._saved()
        if found is None:
            return
        saved, records, value = found
        try:
            proposal = Proposal.from_json(value)
        except CompanionError:
            return
        if self._started(records, proposal):
            return
        try:  # the board opened for the game's map, as when it was agreed
            self.bus.handle(UseBoardFor(proposal.game, proposal.board_map))
        except CompanionError as e:
            self.display.start_problem = str(e)
            return
        try:
            events = link.take_up(saved, records)
        except CompanionError as e:  # the link's transport cannot be opened: said, the start screen
            link.close()
            self.display.start_problem = str(e)
            return
        link.port.start()
        self.display.show("link")
        link.link_events(events)
        self._ask_again()
        link.flush()
        self.display.changed()

    def _started(self, records: list[dict], proposal: Proposal) -> bool:
        """Both boards' set-ups were opened here: the game started (it is the Resume room's),
        or it was put away (adjourned, or not taken up), unless the power went in the moment
        between the last opening and the game's first line (then the lobby starts it)."""
        opened = {(r["type"], r["note"].get("label")) for r in records if r.get("type") in ("mine", "theirs")
                  and isinstance(r.get("note"), dict) and r["note"].get("kind") == "open"}
        if not {("mine", SETUP), ("theirs", SETUP)} <= opened:
            return False
        games = Path(self.game.storage.store.directory) / ARCHIVE
        try:
            return any(name.startswith(proposal.game_id) for name in os.listdir(games))
        except OSError:
            return False

    def _ask_again(self) -> None:
        """What the board was doing when the power went, asked again."""
        link = self.link
        linked = link.linked
        st = linked.st
        if st.phase != "lobby" or linked.session is not None:
            return
        if not st.accepted:
            if linked.me == 1:
                link.ask_proposal(linked.proposal)
            return
        if st.choices is not None:  # sealed: the link screen says so, waiting for the other board's
            link.store.drop_draft()  # (the power went between the seal and the draft's removal)
            return
        if choices_needed(linked.proposal) != "deployment":
            link.agreed()
            return
        try:
            progress = link.store.draft(game=link.number, game_id=linked.proposal.game_id, me=linked.me)
            if progress is not None and "presets" in progress:  # some seats' armies chosen from the list
                link.take_up_presets(progress["presets"])
                return
            if progress is not None:
                try:
                    link.draft(progress)
                except DraftError as e:  # whole, but the rules refuse it (DungeonPrep.restore)
                    raise LinkError(_("the saved draft cannot be used: {problem}").format(problem=e)) from None
                return
        except CompanionError as e:  # damaged or another game's: set aside, said; the armies asked again
            link.store.set_draft_aside()
            self.display.notice = L.LINK_DRAFT_REFUSED.format(problem=e)
        link.agreed()
