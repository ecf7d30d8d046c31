"""What a board asks the other to write: resignations and draw offers made out of turn,
takebacks (which both players must agree to), and a claim when the other board stays away.

A request is one of this board's notes; the writer writes it as a session action with ``req``
(the note's number), or, if the asker becomes the writer first, the asker writes it itself. A
request that can no longer be played (the game ended meanwhile) is refused with a note, and the
asker's screen says so. The other board checks every action written for one of its players
against the request it really sent: no board can resign, offer or take back for the other.
"""

from __future__ import annotations

from ..errors import CompanionError, IllegalMoveError, LinkError
from ..i18n import _, ngettext
from ..session import Adjudicate, AnswerDraw, OfferDraw, Resign, SetPosition, Undo, action_from_json, action_to_json
from .events import RequestAnswered, TakebackAsked
from .state import CLAIM_REASON, LinkState


class Requests:
    def __init__(self, st: LinkState, append, events: list) -> None:
        self.st, self._append, self._events = st, append, events

    # ----- this board asks -------------------------------------------------------------------------
    def ask(self, action) -> None:
        """A resignation, draw offer or draw answer of a local player, while the other board
        writes: sent as a request."""
        self.st.session.check(action)  # refused now if it cannot be played now (nothing is sent)
        self.st.note("request", action=action_to_json(action))

    def ask_takeback(self) -> int:
        """Ask to take back this board's last turn (and the other's reply since): the number
        of turns. LinkError when there is nothing to take back or it cannot be."""
        st = self.st
        s = st.session
        why = self._no_takeback_now()
        if why is not None:
            raise LinkError(why)
        mine = set(st.my_seats())
        turns = 0
        for i, m in enumerate(reversed(s.moves), start=1):
            if m.player in mine:
                turns = i
                break
        if turns == 0:
            raise LinkError(_("none of this board's moves is left to take back"))
        if any(b == st.me for (b, _), t in st.takebacks.items() if not t.get("closed")):
            raise LinkError(_("a takeback is already asked"))
        st.note("takeback", turns=turns, at=len(st.log))
        return turns

    def _no_takeback_now(self) -> str | None:
        """Why no takeback can be now (None: it can). A fight waiting for its dice may have its
        secrets shown already: taken back, the next fight would roll with known secrets."""
        s = self.st.session
        if s.pending_fight() is not None:
            return _("finish the fight first: its dice are already fixed by both boards")
        if s.result is not None:
            return _("the linked game is over; start a new one")
        return None

    def answer_takeback(self, accept: bool) -> None:
        st = self.st
        asked = self.open_takeback(st.peer)
        if asked is None:
            raise LinkError(_("the other board has not asked to take back"))
        k, t = asked
        if not accept or t["at"] != len(st.log):
            t["closed"] = True
        st.note("takeback-answer", k=k, accept=bool(accept) and t["at"] == len(st.log))

    def open_takeback(self, board: int) -> tuple[int, dict] | None:
        for (b, k), t in self.st.takebacks.items():
            if b == board and not t.get("closed"):
                return k, t
        return None

    def claim(self, now_ms: int) -> None:
        """Claim the game after the other board stayed away as long as the players agreed."""
        st = self.st
        if st.phase != "playing" or st.session.result is not None:
            raise LinkError(_("there is no game to claim"))
        if st.away_since is None:
            raise LinkError(_("the other board is connected: the game cannot be claimed"))
        wait = st.proposal.claim_after_s * 1000 - (now_ms - st.away_since)
        if wait > 0:
            minutes = (wait + 59_999) // 60_000
            raise LinkError(ngettext("the game can be claimed in {n} minute", "the game can be claimed in {n} minutes",
                                     minutes).format(n=minutes))
        self._append(Adjudicate(tuple(st.my_seats()), CLAIM_REASON), extra={"claim": True}, any_writer=True)

    # ----- the writer writes ------------------------------------------------------------------------------
    def step(self, writer: int) -> bool:
        st = self.st
        if writer != st.me:
            return False
        for k in sorted(st.requests):
            action = action_from_json(st.requests.pop(k))
            try:
                self._append(action, extra={"own": k})
            except CompanionError as e:
                self._events.append(RequestAnswered(action_to_json(action)["type"], False, str(e)))
            return True
        for (board, k), t in list(st.takebacks.items()):
            if t.get("accepted") and not t.get("closed"):
                t["closed"] = True
                if t["at"] == len(st.log):
                    extra = {"ok": t["answer"]} if board == st.me else {"req": k}
                    self._append(Undo(t["turns"]), extra=extra)
                    return True
        return False

    # ----- notes -------------------------------------------------------------------------------------------
    def absorb_mine(self, note: dict, k: int) -> None:
        st = self.st
        kind = note["kind"]
        if kind == "request":
            st.requests[k] = note["action"]
        elif kind == "takeback":
            st.takebacks[(st.me, k)] = {"turns": note["turns"], "at": note["at"]}
        elif kind == "takeback-answer":
            t = st.takebacks.get((st.peer, note["k"]))
            if t is not None:
                t["accepted"] = note["accept"]
                t["answer"] = k
                if not note["accept"]:
                    t["closed"] = True

    def absorb_theirs(self, note: dict, k: int) -> str | None:
        st = self.st
        kind = note["kind"]
        if kind == "request":
            try:
                action = action_from_json(note.get("action"), "the other board's request")
            except CompanionError as e:
                return str(e)
            why = self._theirs_to_ask(action)
            if why is not None:
                return why
            if st.writer() == st.me and not st.replaying:
                try:
                    self._append(action, extra={"req": k})
                except CompanionError as e:
                    st.note("refused", k=k, why=str(e))
            return None
        if kind == "refused":
            if st.requests.pop(note.get("k"), None) is not None:
                self._events.append(RequestAnswered("request", False, str(note.get("why", ""))[:200]))
            return None
        if kind == "takeback":
            turns, at = note.get("turns"), note.get("at")
            if not isinstance(turns, int) or not isinstance(at, int) or turns < 1:
                return _("a takeback without its turns")
            why = self._no_takeback_now()
            if why is not None:
                return _("a takeback asked when none can be: {why}").format(why=why)
            st.takebacks[(st.peer, k)] = {"turns": turns, "at": at}
            self._events.append(TakebackAsked(turns))
            return None
        if kind == "takeback-answer":
            t = st.takebacks.get((st.me, note.get("k")))
            if t is None:
                return _("an answer to a takeback nobody asked for")
            t["accepted"], t["answer"] = bool(note.get("accept")), k
            if not t["accepted"]:
                t["closed"] = True
                self._events.append(RequestAnswered("takeback", False, _("the other player declined")))
            return None
        return _("unknown note {kind!r}").format(kind=kind)

    def _theirs_to_ask(self, action) -> str | None:
        """Why the other board may not ask for ``action`` (None: it may)."""
        st = self.st
        if isinstance(action, (Resign, OfferDraw)):
            if not 0 <= action.player < len(st.proposal.seats) or st.board_of(action.player) != st.peer:
                return _("a request for a player at this board")
            return None
        if isinstance(action, AnswerDraw):
            offer = st.session.draw_offer
            if offer is None or st.board_of(1 - offer) != st.peer:
                return _("an answer to a draw offer the other board's player was not asked")
            return None
        return _("the other board may not ask for a {type}").format(type=action_to_json(action)['type'])

    # ----- checks of what the other board wrote -------------------------------------------------------------
    def check_written(self, action, extra: dict) -> str | None:
        """Why an action the other board wrote for a player of this board, or out of the usual
        order, is not allowed (None: it is)."""
        st = self.st
        if extra.get("claim"):
            peer = tuple(st.proposal.seats_of(st.peer))
            if not isinstance(action, Adjudicate) or action.reason != CLAIM_REASON or action.winners != peer:
                return _("a claim that is not the other board's claim of the game")
            return None
        if extra.get("fix"):
            agreed = st.fixes.get(st.me)
            if not isinstance(action, SetPosition) or agreed is None or action.position != agreed:
                return _("a correction of the position this board did not agree to")
            return None
        if isinstance(action, (Adjudicate, SetPosition)):
            return _("a result or a correction the link never writes")
        req = extra.get("req")
        if isinstance(action, Undo):
            why = self._no_takeback_now()
            if why is not None:
                return _("a takeback when none can be: {why}").format(why=why)
            if req is not None:
                t = st.takebacks.get((st.me, req))
                if t is None or t["turns"] != action.turns or t["at"] != len(st.log):
                    return _("a takeback this board did not ask for")
                t["closed"] = True
                return None
            ok = extra.get("ok")
            for (b, k), t in st.takebacks.items():
                if b == st.peer and t.get("answer") == ok and t.get("accepted") and t["turns"] == action.turns:
                    t["closed"] = True
                    return None
            return _("a takeback this board did not accept")
        if isinstance(action, (Resign, OfferDraw, AnswerDraw)):
            mine = st.requests.get(req) if req is not None else None
            if mine is not None:
                if mine != action_to_json(action):
                    return _("an action that is not the one this board asked for")
                del st.requests[req]
                return None
            if isinstance(action, AnswerDraw):
                answerer = 1 - st.session.draw_offer if st.session.draw_offer is not None else None
                return None if answerer is not None and st.board_of(answerer) == st.peer else \
                    "an answer to a draw offer made for this board's player"
            return None if st.board_of(action.player) == st.peer else "an action for a player at this board"
        return None

    def check_own(self, action) -> None:
        """A local action this board may write itself (LinkError: it may not)."""
        st = self.st
        if isinstance(action, (Resign, OfferDraw)) and st.board_of(action.player) != st.me:
            raise LinkError(_("that player sits at the other board"))
        if isinstance(action, AnswerDraw):
            offer = st.session.draw_offer
            if offer is None:
                raise IllegalMoveError(_("no draw was offered"))
            if st.board_of(1 - offer) != st.me:
                raise LinkError(_("the draw offer is for the other board's player to answer"))
