"""A game between two linked boards, sans-I/O: messages in, events and messages out.

:class:`LinkedGame` is the link's façade, the way the session is the game's: each input goes
through the room that owns it (companion.link.fair's sealing, fights and duel parts;
companion.link.requests), and the rooms share one :class:`~companion.link.state.LinkState`.
It knows nothing of sockets, brokers, threads or the clock: the channel (companion.link.channel)
brings it each message's plaintext with the time, and :meth:`data_to_send` gives what to seal.

Messages (JSON, sealed by the channel), each carrying ``at`` (the sender's number of actions)
and ``h`` (its position hash after them):

``sync``  ``log`` (actions the sender has), ``notes`` (how many of the receiver's notes it has)
    sent at every new connection (the receiver then sends again whatever the sender lacks:
    its own actions past ``log``, its notes past ``notes``) and every 2 s as a heartbeat.
``entry`` ``n``, ``e`` (a session action as journaled), and what it answers: ``req`` (the
    receiver's request it writes), ``ok`` (the receiver's acceptance of a takeback), ``claim``,
    ``fix``. Only the writer (companion.link.state) sends one; the receiver checks it, applies it
    through its own session (which checks it again, dice included) and compares the hashes.
``note``  ``k`` (numbered per board from 1), ``v``: a proposal, an acceptance, a commitment or
    an opening, a dice secret, a request, a takeback and its answer, a board's view of a
    mismatch and the fix, an adjournment.

Both boards journal before they send: actions in the game's journal (the session's recorder),
notes and what came with each action in the link journal (``record``). After a power cut,
:meth:`LinkedGame.resume` rebuilds the same state from both, and the next ``sync`` settles by
numbers what each side still lacks: nothing is lost, nothing is applied twice.
"""

from __future__ import annotations

from typing import Any, Callable, Sequence

from ..bounds import load_json
from ..errors import CompanionError, LinkError
from ..i18n import _
from ..session import (Adjudicate, PlayAnswer, PlayMove, PlayPart, Roll, SetPosition, Undo, action_from_json,
                       action_to_json)
from .events import (Acted, ChoicesSealed, ClaimedWhileAway, Mismatch, MismatchFixed, OtherGame, PeerAdjourned,
                     PeerAway, PeerBack, Refused, WaitingForSecret)
from .fair import Fights, Parts, Sealing
from .lobby import SETUP, Lobby, Proposal
from .requests import Requests
from .state import AWAY_MS, HEARTBEAT_MS, LinkState, encode

_NOTE_KINDS = ("proposal", "accept", "commit", "open", "reveal", "request", "refused", "takeback",
               "takeback-answer", "view", "fix", "adjourn")


class LinkedGame:
    """One board's side of one linked game. ``me``: 0 the host, 1 the guest; ``root``: 32
    secret random bytes of this board (from the edge, kept in a file only the app's user can
    read); ``record``: the link journal's append; ``start_game(setup)``: makes the session
    (with the game's journal as its recorder) once both boards agree on the set-up."""

    def __init__(self, me: int, root: bytes, *, record: Callable[[dict], None] | None = None,
                 start_game: Callable[[Any], Any] | None = None, number: int = 1) -> None:
        if me not in (0, 1):
            raise LinkError(_("a board of a link is 0 (the host) or 1 (the guest)"))
        self.st = st = LinkState(me, root, record, number)
        st.absorb_mine = self._absorb_mine
        self._events: list = []
        self.start_game = start_game
        self.sealing = Sealing(st)
        self.fights = Fights(st, self._append)
        self.parts = Parts(st, self.sealing, self._append)
        self.requests = Requests(st, self._append, self._events)
        self.lobby = Lobby(st, self.sealing, self._events, lambda setup: self.start_game(setup))
        self._resend = False
        self._synced_ms: int | None = None
        self._told_waiting: int | None = None

    # ----- what the screen reads --------------------------------------------------------------------
    session = property(lambda self: self.st.session)
    proposal = property(lambda self: self.st.proposal)
    phase = property(lambda self: self.st.phase)
    me = property(lambda self: self.st.me)

    def is_mine(self, seat: int) -> bool:
        return self.st.board_of(seat) == self.st.me

    def to_act(self) -> int | None:
        """The local seat that must act now (a move, a choice, a draw answer, a duel part), or None."""
        st = self.st
        if st.phase != "playing" or st.session.result is not None:
            return None
        d = st.session.joint_decision()
        if d is not None:
            label = self.parts.label()
            if label in st.sealed:
                return None
            return next((p for p in d.get("players") if self.is_mine(p) and p not in self.parts.chosen), None)
        if st.session.pending_fight() is not None:
            return None
        seat = st.acting_seat()
        return seat if seat is not None and self.is_mine(seat) else None

    def waiting_for(self) -> str:
        """What the game waits for, in a few words (the screen's link line)."""
        st = self.st
        if st.phase == "mismatch":
            return _("the boards disagree")
        if st.phase == "lobby":
            return _("the other board's choices") if st.choices is not None else _("the game to be agreed")
        if self.fights.waiting() is not None:
            return _("the other board's dice secret")
        d = st.session.joint_decision()
        if d is not None:
            label = self.parts.label()
            if label in st.sealed:
                return _("the other board's sealed part")
        if st.session.result is None and st.writer() != st.me:
            return _("the other board")
        return ""

    # ----- the lobby ---------------------------------------------------------------------------------
    def propose(self, proposal: Proposal) -> list:
        """The host proposes the game (companion.link.lobby.Lobby)."""
        self.lobby.propose(proposal)
        return self._done()

    def accept(self) -> list:
        self.lobby.accept()
        return self._done()

    def choose(self, choices: dict) -> list:
        """This board's choices for its seats (companion.link.lobby.choices_needed), sealed with
        its share of the coin and its dice chain's head until the other board's are sealed too."""
        self.lobby.choose(choices)
        return self._done()

    # ----- playing -------------------------------------------------------------------------------------
    def act(self, action) -> list:
        """A local player's action (a move, a choice's answer, a duel part, a resignation, a
        draw offer or answer). LinkError or IllegalMoveError: refused, nothing sent."""
        st = self.st
        self._playing()
        if isinstance(action, PlayPart):
            self.parts.choose(action.player, action.part)
        elif isinstance(action, Undo):
            raise LinkError(_("a takeback is asked of the other board (ask_takeback)"))
        elif isinstance(action, (Roll, SetPosition, Adjudicate)):
            raise LinkError(_("the link rolls the dice and writes corrections and claims itself"))
        elif isinstance(action, (PlayMove, PlayAnswer)):
            seat = st.acting_seat()
            if seat is None or st.board_of(seat) != st.me:
                raise LinkError(_("it is the other board's turn"))
            self._append(action)
        else:
            self.requests.check_own(action)
            if st.writer() == st.me:
                self._append(action)
            else:
                self.requests.ask(action)
        return self._done()

    def ask_takeback(self) -> list:
        self._playing()
        self.requests.ask_takeback()
        return self._done()

    def answer_takeback(self, accept: bool) -> list:
        self._playing()
        self.requests.answer_takeback(accept)
        return self._done()

    def claim(self, now_ms: int) -> list:
        self.requests.claim(now_ms)
        return self._done()

    def adjourn(self) -> list:
        """Tell the other board this one stops for now (the game stays unfinished on both)."""
        self.st.note("adjourn")
        return self._done()

    def fix_mismatch(self, use: str) -> list:
        """After a mismatch: go on from this board's position (``"mine"``) or the other's
        (``"theirs"``); the game goes on when both boards chose the same."""
        st = self.st
        if st.phase != "mismatch":
            raise LinkError(_("the boards agree: there is nothing to fix"))
        view = st.views.get(st.me if use == "mine" else st.peer)
        if view is None:
            raise LinkError(_("the other board's view has not arrived yet"))
        st.fixes[st.me] = view
        st.note("fix", position=view)
        return self._done()

    # ----- the wire --------------------------------------------------------------------------------------
    def connected(self, now_ms: int) -> list:
        """The channel (re)connected: say where this board stands; the answer's sync resends."""
        self._resend = True
        self._synced_ms = now_ms
        self._send_sync()
        return self._done()

    def _send_sync(self) -> None:
        st = self.st
        claimed = [n for n, x in st.extras.items() if x.get("claim") and st.authors[n - 1] == st.me]
        st.send({"t": "sync", "log": len(st.log), "notes": st.theirs, **({"claimed": claimed[0]} if claimed else {})})

    def tick(self, now_ms: int) -> list:
        st = self.st
        if self._synced_ms is not None and now_ms - self._synced_ms >= HEARTBEAT_MS:
            self._synced_ms = now_ms
            self._send_sync()
        if st.heard_ms is not None and st.away_since is None and now_ms - st.heard_ms >= AWAY_MS:
            st.away_since = st.heard_ms
            self._events.append(PeerAway(st.heard_ms))
        return self._done()

    def disconnected(self) -> None:
        """The channel is down: no heartbeats until it connects again."""
        self._synced_ms = None

    def data_to_send(self) -> list[bytes]:
        out, self.st.outbox = self.st.outbox, []
        return [encode(m) for m in out]

    def receive(self, payload: bytes, now_ms: int) -> list:
        st = self.st
        st.heard_ms = now_ms
        if st.away_since is not None:
            st.away_since = None
            self._events.append(PeerBack())
        try:
            msg = load_json(payload.decode("utf-8"), _("a message from the other board"), LinkError)
            kind = msg["t"]
            at, h, number = msg["at"], msg["h"], msg["g"]
            if not isinstance(at, int) or not isinstance(h, str) or not isinstance(number, int):
                raise TypeError
        except (LinkError, UnicodeDecodeError, KeyError, TypeError):
            self._refuse("a message that is not one of the link's")
            return self._take()
        if number != st.number:
            return [OtherGame(number)]
        try:
            if kind == "sync":
                self._sync(msg)
            elif kind == "entry":
                self._entry(msg)
            elif kind == "note":
                self._note(msg)
            else:
                self._refuse(_("a message of unknown type {kind!r}").format(kind=str(kind)[:20]))
        except (KeyError, TypeError, ValueError) as e:
            self._refuse(_("a message that cannot be read ({kind})").format(kind=type(e).__name__))
        # h == "": sent before the other board had a game (the lobby's last notes, its sync) and
        # come after this board started its own: nothing to compare yet
        if st.phase == "playing" and at == len(st.log) and h and h != st.hash() and "claimed" not in msg \
                and not self._claimed():
            self._mismatch(at)
        return self._done()

    def _claimed(self) -> bool:
        """This board's game ended by a claim (the other board may have moved meanwhile)."""
        return any(x.get("claim") for x in self.st.extras.values())

    # ----- after a power cut ------------------------------------------------------------------------------
    @classmethod
    def resume(cls, me: int, root: bytes, records: Sequence[dict], *, session=None, log: Sequence[dict] = (),
               record: Callable[[dict], None] | None = None, start_game: Callable[[Any], Any] | None = None,
               number: int = 1) -> tuple[LinkedGame, list]:
        """Rebuild a board's side from its link journal (``records``) and its game (``session``
        replayed from the game's journal, ``log`` its actions after the start). Returns the game
        and what is due now (the events of anything it had still to do)."""
        game = cls(me, root, record=record, start_game=start_game, number=number)
        st = game.st
        st.replaying = True
        st.session, st.log = session, list(log)
        wrote: dict[int, dict] = {}
        got: dict[int, dict] = {}
        for item in records:
            kind = item.get("type")
            if kind == "mine":
                st.mine.append(item["note"])
                game._absorb_mine(item["note"], item["k"])
            elif kind == "theirs":
                st.theirs = item["k"]
                game._absorb_theirs(item["note"], item["k"])
            elif kind == "sealed":
                st.sealed[item["label"]] = item["value"]
            elif kind == "wrote":
                wrote[item["n"]] = item.get("extra", {})
            elif kind == "got":
                got[item["n"]] = item.get("extra", {})
        n_log = len(st.log)
        st.authors = [me if n in wrote else 1 - me for n in range(1, n_log + 1)]
        st.extras = {n: x for n, x in {**got, **wrote}.items() if n <= n_log and x}
        for x in st.extras.values():
            for key in ("own", "req"):
                st.requests.pop(x.get(key), None)
        if session is not None and st.phase == "lobby":
            st.phase = "playing"
        game._events.clear()
        st.outbox.clear()
        st.replaying = False
        game.sealing.finish()
        game._advance()
        return game, game._take()

    # ----- internals ----------------------------------------------------------------------------------------
    def _playing(self) -> None:
        if self.st.phase == "mismatch":
            raise LinkError(_("the boards disagree: choose whose position is right first"))
        if self.st.phase != "playing":
            raise LinkError(_("the game has not started"))

    def _append(self, action, extra: dict | None = None, any_writer: bool = False) -> None:
        """Write ``action`` as the game's next entry: checked, journaled, applied, sent."""
        st = self.st
        if not any_writer and st.writer() != st.me:
            raise LinkError(_("it is the other board's turn"))
        st.session.check(action)
        n = len(st.log) + 1
        entry = action_to_json(action)
        st.write({"type": "wrote", "n": n, "extra": extra or {}})
        events = st.session.act(action)
        st.log.append(entry)
        st.authors.append(st.me)
        if extra:
            st.extras[n] = extra
        st.send(st.entry_message(n))
        self._events.append(Acted(entry, tuple(events), False))

    def _sync(self, msg: dict) -> None:
        st = self.st
        st.peer_log, st.peer_acked = int(msg["log"]), int(msg["notes"])
        if not self._resend:
            return
        self._resend = False
        for k in range(st.peer_acked + 1, len(st.mine) + 1):
            st.send({"t": "note", "k": k, "v": st.mine[k - 1]})
        for n in range(st.peer_log + 1, len(st.log) + 1):
            if st.authors[n - 1] == st.me:
                st.send(st.entry_message(n))
        for n, x in st.extras.items():  # a claim written where the other board had moved meanwhile
            if x.get("claim") and st.authors[n - 1] == st.me and n <= st.peer_log:
                st.send(st.entry_message(n))

    def _entry(self, msg: dict) -> None:
        st = self.st
        n, entry = msg["n"], msg["e"]
        if st.session is None or not isinstance(n, int):
            return
        extra = {k: msg[k] for k in ("req", "ok", "claim", "fix") if k in msg}
        if extra.get("claim") and n <= len(st.log) and st.log[n - 1] != entry and st.session.result is None:
            # claimed while this board was away, after actions of its own the other never got:
            # the claim stands (the players agreed to it), written after them on this board
            lost = len(st.log) - n + 1
            n = len(st.log) + 1
            self._events.append(ClaimedWhileAway(lost))
        if n <= len(st.log):
            if st.log[n - 1] != entry and st.phase == "playing":
                self._refuse(_("the other board's action {n} is not this board's action {n}").format(n=n))
                self._mismatch(n)
            return
        if n > len(st.log) + 1:
            return  # a later one: what comes before it is resent at the next connection
        if st.phase == "mismatch" and not extra.get("fix"):
            return
        try:
            action = action_from_json(entry, "the other board's action")
        except CompanionError as e:
            self._refuse(str(e))
            return
        if not extra.get("claim") and not extra.get("fix") and st.writer() != st.peer:
            self._refuse(_("the other board wrote action {n} out of turn ({type})").format(n=n, type=entry.get('type')))
            return
        why = self.requests.check_written(action, extra)
        if why is None and isinstance(action, PlayPart):
            why = self.parts.check(action)
        if why is not None:
            self._refuse(why)
            return
        if extra:
            st.write({"type": "got", "n": n, "extra": extra})
        try:
            events = st.session.act(action)
        except CompanionError as e:
            self._refuse(_("this board's rules refuse the other board's action {n}: {problem}").format(n=n, problem=e))
            self._mismatch(n - 1)
            return
        st.log.append(entry)
        st.authors.append(st.peer)
        if extra:
            st.extras[n] = extra
        if extra.get("fix"):
            st.phase, st.views, st.fixes, st.mismatch_at = "playing", {}, {}, None
            self._events.append(MismatchFixed(action.position))
        if st.session.result is not None:  # the end: say so at once (the writer waits for it)
            self._send_sync()
        self._events.append(Acted(entry, tuple(events), True))

    def _note(self, msg: dict) -> None:
        st = self.st
        k, note = msg["k"], msg["v"]
        if not isinstance(k, int) or k != st.theirs + 1:
            return  # seen already, or a later one (resent at the next connection)
        if not isinstance(note, dict) or note.get("kind") not in _NOTE_KINDS:
            st.theirs = k
            self._refuse("a note of unknown kind")
            return
        st.write({"type": "theirs", "k": k, "note": note})
        st.theirs = k
        why = self._absorb_theirs(note, k)
        if why is not None:
            self._refuse(why)

    def _absorb_mine(self, note: dict, k: int) -> None:
        st = self.st
        kind = note["kind"]
        if kind in ("proposal", "accept"):
            self.lobby.absorb_mine(note)
        elif kind in ("commit", "open"):
            self.sealing.absorb_mine(note, k)
            if kind == "commit" and note["label"] == SETUP:
                st.choices = st.sealed.get(SETUP, {}).get("seats", {})
        elif kind == "reveal":
            self.fights.absorb_mine(note)
        elif kind in ("request", "takeback", "takeback-answer"):
            self.requests.absorb_mine(note, k)
        elif kind == "view":
            st.phase, st.mismatch_at, st.views[st.me] = "mismatch", note["n"], note["position"]
        elif kind == "fix":
            st.fixes[st.me] = note["position"]

    def _absorb_theirs(self, note: dict, k: int) -> str | None:
        st = self.st
        kind = note["kind"]
        if kind in ("proposal", "accept"):
            return self.lobby.absorb_theirs(note)
        if kind in ("commit", "open"):
            why = self.sealing.absorb_theirs(note, k)
            if why is None and kind == "commit":
                self._events.append(ChoicesSealed(st.peer, note["label"]))
            return why
        if kind == "reveal":
            return self.fights.absorb_theirs(note)
        if kind == "view":
            position = note.get("position")
            if not isinstance(position, str):
                return _("a view without its position")
            st.views[st.peer] = position
            if st.phase != "mismatch" and st.session is not None:
                self._mismatch(note.get("n", len(st.log)))
            else:
                self._events.append(Mismatch(st.mismatch_at or 0, st.views.get(st.me, ""), position))
            return None
        if kind == "fix":
            if not isinstance(note.get("position"), str):
                return _("a fix without its position")
            st.fixes[st.peer] = note["position"]
            return None
        if kind == "adjourn":
            self._events.append(PeerAdjourned())
            return None
        return self.requests.absorb_theirs(note, k)

    def _mismatch(self, n: int) -> None:
        st = self.st
        if st.phase == "mismatch":
            return
        st.phase, st.mismatch_at = "mismatch", n
        mine = st.session.rules.position_text(st.session.pos)
        st.views[st.me] = mine
        st.note("view", n=n, position=mine)
        self._events.append(Mismatch(n, mine, st.views.get(st.peer)))

    def _refuse(self, why: str) -> None:
        self.st.refused += 1
        self._events.append(Refused(why))

    def _advance(self) -> None:
        """Do whatever is due now (state-based, so a resumed board does the same): open a
        sealed choice, start the game, reveal a dice secret, write the dice, the parts, a
        request, a takeback, a fix."""
        for _ in range(64):
            if not self._step():
                return

    def _step(self) -> bool:
        st = self.st
        if st.phase == "lobby":
            return self.lobby.step()
        if st.phase == "mismatch":
            if st.me == 0 and st.fixes.get(0) is not None and st.fixes.get(0) == st.fixes.get(1):
                position = st.fixes[0]
                self._append(SetPosition(position), extra={"fix": True}, any_writer=True)
                st.phase, st.views, st.fixes, st.mismatch_at = "playing", {}, {}, None
                self._events.append(MismatchFixed(position))
                return True
            return False
        if st.session.result is not None:
            return False
        writer = st.writer()
        if self.requests.step(writer) or self.parts.step(writer):
            return True
        if self.fights.step(writer):
            return True
        return False

    def _take(self) -> list:
        out = list(self._events)
        self._events.clear()
        return out

    def _done(self) -> list:
        self._advance()
        waiting = self.fights.waiting() if self.st.phase == "playing" else None
        if waiting is not None and waiting != self._told_waiting:
            self._events.append(WaitingForSecret(waiting))
        self._told_waiting = waiting
        return self._take()
